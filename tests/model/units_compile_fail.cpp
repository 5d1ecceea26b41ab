// Compile-time dimension safety (SPEC.md §3). ctest compiles this file twice:
//  - units_compile_ok defines CTWIN_EXPECT_OK and must compile (well-formed money arithmetic);
//  - units_compile_fail must NOT compile: it adds dollars per kWh to dollars per MWh expressed as a power,
//    i.e. money/energy + money/power, which Boost.Units rejects.
#include "units.h"

using namespace ctwin::units;

int main() {
    const MoneyPerEnergy tariff = dollarsPerKwh(0.08);
    const Money bill = tariff * kilowattHours(1000.0);
#ifdef CTWIN_EXPECT_OK
    return bill.value() > 0 ? 0 : 1;
#else
    const MoneyPerPower wrong = usd / watt;
    auto nonsense = tariff + wrong; // $/J + $/W: different dimensions, must not compile
    const Money alsoWrong = bill + watts(5.0); // $ + W
    return static_cast<int>(nonsense.value() + alsoWrong.value());
#endif
}
