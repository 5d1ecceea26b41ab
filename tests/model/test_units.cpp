// Units and money as Boost.Units quantities (SPEC.md §3, STYLE.md "Units and money").
#include <QtTest>

#include <type_traits>

#include "units.h"

using namespace ctwin::units;

// Incompatible dimensions cannot be added: checked by a requires-expression at compile time (the
// units_compile_fail ctest checks the same by running the compiler on ill-formed code).
template <class A, class B> constexpr bool addable = requires(A a, B b) { a + b; };
static_assert(addable<Money, Money>);
static_assert(addable<Power, Power>);
static_assert(!addable<Money, Power>);
static_assert(!addable<MoneyPerEnergy, MoneyPerPower>);
static_assert(!addable<Energy, Power>);
static_assert(!addable<Bytes, DataRate>);
static_assert(std::is_same_v<decltype(MoneyPerEnergy{} * Energy{}), Money>);
static_assert(std::is_same_v<decltype(Power{} * Time{}), Energy>);
static_assert(std::is_same_v<decltype(Bytes{} / Time{}), DataRate>);

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void dollarsPerKwhTimesKwhIsDollars() {
        // $0.08/kWh x 1,000 kWh = $80 exactly (0.08 x 1000).
        const Money bill = dollarsPerKwh(0.08) * kilowattHours(1000.0);
        QCOMPARE_LE(std::abs(bill.value() - 80.0), 1e-9);
    }
    void powerTimesTimeIsEnergy() {
        // 1 MW for one Julian year = 8,766 MWh = 3.15576e13 J.
        const Energy e = megawatts(1.0) * years(1.0);
        QCOMPARE_LE(std::abs(e.value() - 3.15576e13), 1.0);
        QCOMPARE_LE(std::abs(toKwh(e) - 8.766e6), 1e-6);
    }
    void networkRatesAreBitsOnTheWire() {
        // 400 Gb/s = 50 GB/s.
        QCOMPARE(bitsPerSecond(400e9).value(), 50e9);
        QCOMPARE(toBits(bytesPerSecond(50e9)), 400e9);
    }
    void conversions() {
        QCOMPARE(toMw(kilowatts(1500.0)), 1.5);
        QCOMPARE(toDays(hours(36.0)), 1.5);
        QCOMPARE(toHours(days(2.0)), 48.0);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "test_units.moc"
