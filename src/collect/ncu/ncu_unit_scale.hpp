#pragma once
// ncu scales values to "fitting" units unless told otherwise (--print-units auto: 56.2 "us",
// 134.2 "Mbyte", 2.4 "Tbyte/s"). kscope reports base units whatever ncu printed: durations in
// ns, sizes in byte, rates per second. This converts a printed unit to that base.

#include <optional>
#include <string>
#include <string_view>

namespace kscope::ncu {

/// A printed unit reduced to kscope's base unit: value in `unit` = printed value * `factor`.
struct UnitScale {
  std::string unit;   ///< "ns", "byte", "byte/second", "%", "" ...
  double factor = 1;  ///< 1000 for "us", 1e6 for "Mbyte", 1e9 for "Gbyte/s"
};

/// The base unit of `printed`, factor by factor ('/' separates numerator and denominators):
/// * time: ps/psecond, ns/nsecond, us/usecond (or a micro sign), ms/msecond, s/second -> "ns" in
///   a numerator, "second" in a denominator (a rate: "cycle/usecond" -> "cycle/second", x 1e6);
/// * a decimal prefix (ncu scales by powers of 1000, not 1024): k/K, M, G, T, P, E ("Mbyte" ->
///   "byte", "Kinst" -> "inst", "Ghz" -> "hz", "Kwavefront" -> "wavefront");
/// * units without a scale as they are, factor 1 ("%", "byte/block", "register/thread", "SM",
///   "inst/cycle", "").
/// nullopt when a factor looks scaled but its prefix is unknown or ambiguous ("Kibyte", "MiB",
/// "Xbyte", "mhz": millihertz or MHz?): converting it would be a guess, and the caller must fail
/// rather than report a wrong number.
[[nodiscard]] std::optional<UnitScale> base_unit(std::string_view printed);

}  // namespace kscope::ncu
