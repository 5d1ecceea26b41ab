#pragma once
// Physical quantities and money for ClusterTwin (STYLE.md "Units and money").
//
// Everything inside the model and the engine is SI; money is a quantity with its own base dimension
// (Boost.Units base_dimension), so that $/kWh x kWh gives $ and $ + W does not compile. Data sizes use
// their own "information" base dimension in bytes. Display conversions (kW, MW, $/M tokens) live in
// format helpers, never in the model.

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/derived_dimension.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/physical_dimensions.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>
#include <boost/units/base_units/si/kelvin.hpp>
#include <boost/units/base_units/si/kilogram.hpp>
#include <boost/units/base_units/si/meter.hpp>
#include <boost/units/base_units/si/second.hpp>

namespace ctwin::units {

namespace bu = boost::units;

// Ordinals 1001 and 1002 are outside the range Boost.Units reserves for its own dimensions (negative
// and small positive ordinals are used by the library; user dimensions must be unique, > 0).
struct money_base_dimension : bu::base_dimension<money_base_dimension, 1001> {};
using money_dimension = money_base_dimension::dimension_type;
struct information_base_dimension : bu::base_dimension<information_base_dimension, 1002> {};
using information_dimension = information_base_dimension::dimension_type;

struct usd_base_unit : bu::base_unit<usd_base_unit, money_dimension, 1001> {
    static constexpr const char* name() { return "US dollar"; }
    static constexpr const char* symbol() { return "USD"; }
};
struct byte_base_unit : bu::base_unit<byte_base_unit, information_dimension, 1002> {
    static constexpr const char* name() { return "byte"; }
    static constexpr const char* symbol() { return "B"; }
};

using system = bu::make_system<bu::si::meter_base_unit, bu::si::kilogram_base_unit, bu::si::second_base_unit,
                               bu::si::kelvin_base_unit, usd_base_unit, byte_base_unit>::type;

template <class Dim> using unit_of = bu::unit<Dim, system>;
template <class Dim> using Quantity = bu::quantity<unit_of<Dim>, double>;

using dimensionless_dim = bu::dimensionless_type;
using money_per_energy_dim = bu::derived_dimension<money_base_dimension, 1, bu::length_base_dimension, -2,
                                                   bu::mass_base_dimension, -1, bu::time_base_dimension, 2>::type;
using money_per_time_dim = bu::derived_dimension<money_base_dimension, 1, bu::time_base_dimension, -1>::type;
using money_per_power_dim = bu::derived_dimension<money_base_dimension, 1, bu::length_base_dimension, -2,
                                                  bu::mass_base_dimension, -1, bu::time_base_dimension, 3>::type;
using money_per_length_time_dim = bu::derived_dimension<money_base_dimension, 1, bu::length_base_dimension, -1,
                                                        bu::time_base_dimension, -1>::type;
using data_rate_dim = bu::derived_dimension<information_base_dimension, 1, bu::time_base_dimension, -1>::type;
using frequency_dim = bu::frequency_dimension;
using volume_flow_dim = bu::derived_dimension<bu::length_base_dimension, 3, bu::time_base_dimension, -1>::type;
using specific_heat_dim = bu::specific_heat_capacity_dimension;

using Length = Quantity<bu::length_dimension>;
using Area = Quantity<bu::area_dimension>;
using Mass = Quantity<bu::mass_dimension>;
using Time = Quantity<bu::time_dimension>;
using Power = Quantity<bu::power_dimension>;
using Energy = Quantity<bu::energy_dimension>;
using TemperatureDelta = Quantity<bu::temperature_dimension>;
using Money = Quantity<money_dimension>;
using MoneyPerEnergy = Quantity<money_per_energy_dim>;
using MoneyPerPower = Quantity<money_per_power_dim>;
using MoneyPerTime = Quantity<money_per_time_dim>;
using MoneyPerLengthTime = Quantity<money_per_length_time_dim>;
using Bytes = Quantity<information_dimension>;
using DataRate = Quantity<data_rate_dim>;  // bytes per second
using Frequency = Quantity<frequency_dim>; // 1/s: FLOP/s (FLOP is a count) and failure rates per hour
using VolumeFlow = Quantity<volume_flow_dim>;
using SpecificHeat = Quantity<specific_heat_dim>;
using Velocity = Quantity<bu::velocity_dimension>;
using Dimensionless = Quantity<dimensionless_dim>;

// Base units of the system.
inline constexpr unit_of<bu::length_dimension> meter;
inline constexpr unit_of<bu::mass_dimension> kilogram;
inline constexpr unit_of<bu::time_dimension> second;
inline constexpr unit_of<bu::power_dimension> watt;
inline constexpr unit_of<bu::energy_dimension> joule;
inline constexpr unit_of<bu::temperature_dimension> kelvin;
inline constexpr unit_of<money_dimension> usd;
inline constexpr unit_of<information_dimension> byte;
inline constexpr unit_of<frequency_dim> hertz;

// Scaled constants (SI value of one unit), for building quantities from conventional figures.
inline constexpr double kSecondsPerHour = 3600.0;
inline constexpr double kHoursPerYear = 8766.0; // Julian year 365.25 d x 24 h
inline constexpr double kSecondsPerYear = kHoursPerYear * kSecondsPerHour;
inline constexpr double kJoulesPerKwh = 3.6e6;

inline Power watts(double v) { return v * watt; }
inline Power kilowatts(double v) { return v * 1e3 * watt; }
inline Power megawatts(double v) { return v * 1e6 * watt; }
inline Energy kilowattHours(double v) { return v * kJoulesPerKwh * joule; }
inline Energy megawattHours(double v) { return v * 1e3 * kJoulesPerKwh * joule; }
inline Money dollars(double v) { return v * usd; }
inline MoneyPerEnergy dollarsPerKwh(double v) { return v / kJoulesPerKwh * usd / joule; }
inline Time seconds(double v) { return v * second; }
inline Time hours(double v) { return v * kSecondsPerHour * second; }
inline Time days(double v) { return v * 24.0 * kSecondsPerHour * second; }
inline Time years(double v) { return v * kSecondsPerYear * second; }
inline Length meters(double v) { return v * meter; }
inline Length kilometers(double v) { return v * 1e3 * meter; }
inline Bytes bytes(double v) { return v * byte; }
inline DataRate bytesPerSecond(double v) { return v * byte / second; }
/// Network line rates are quoted in bits per second; stored as bytes per second.
inline DataRate bitsPerSecond(double v) { return v / 8.0 * byte / second; }
inline Frequency perSecond(double v) { return v * hertz; }
inline Frequency perHour(double v) { return v / kSecondsPerHour * hertz; }
inline TemperatureDelta kelvins(double v) { return v * kelvin; }
inline Dimensionless ratio(double v) { return Dimensionless::from_value(v); }

inline double toKwh(Energy e) { return e.value() / kJoulesPerKwh; }
inline double toUsdPerKwh(MoneyPerEnergy p) { return p.value() * kJoulesPerKwh; }
inline double toMw(Power p) { return p.value() / 1e6; }
inline double toKw(Power p) { return p.value() / 1e3; }
inline double toHours(Time t) { return t.value() / kSecondsPerHour; }
inline double toDays(Time t) { return t.value() / (24.0 * kSecondsPerHour); }
inline double toYears(Time t) { return t.value() / kSecondsPerYear; }
inline double toBits(DataRate r) { return r.value() * 8.0; }

} // namespace ctwin::units
