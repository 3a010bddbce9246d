#include "collect/ncu/ncu_unit_scale.hpp"

#include <array>
#include <utility>

namespace kscope::ncu {
namespace {

using Named = std::pair<std::string_view, double>;

// Durations, in ns.
constexpr std::array<Named, 12> kTimes = {{{"ps", 1e-3},
                                           {"psecond", 1e-3},
                                           {"ns", 1},
                                           {"nsecond", 1},
                                           {"us", 1e3},
                                           {"usecond", 1e3},
                                           {"\xC2\xB5s", 1e3},  // micro sign
                                           {"\xCE\xBCs", 1e3},  // Greek mu
                                           {"ms", 1e6},
                                           {"msecond", 1e6},
                                           {"s", 1e9},
                                           {"second", 1e9}}};

// Decimal prefixes (ncu scales by powers of 1000, not 1024). Below one only times are scaled
// (the table above): "mhz" could be ncu's spelling of MHz, so it is not read as millihertz.
constexpr std::array<Named, 7> kPrefixes = {
    {{"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}}};

// Units ncu puts a prefix on.
constexpr std::array<std::string_view, 11> kScalable = {
    "byte", "bit", "hz", "Hz", "cycle", "inst", "sector", "request", "warp", "thread", "block"};

template <std::size_t N>
const Named* find(const std::array<Named, N>& table, std::string_view name) {
  for (const Named& n : table) {
    if (n.first == name) return &n;
  }
  return nullptr;
}

bool lower(char c) { return c >= 'a' && c <= 'z'; }

// One '/'-separated factor in the numerator: its base unit and how many of that base one printed
// unit is. A time is in ns.
std::optional<UnitScale> factor_base(std::string_view f) {
  if (const Named* t = find(kTimes, f)) {
    return UnitScale{"ns", t->second};
  }
  for (std::string_view word : kScalable) {
    if (f == word) return UnitScale{std::string(f), 1};
    if (f.size() <= word.size() || f.substr(f.size() - word.size()) != word) continue;
    const std::string_view prefix = f.substr(0, f.size() - word.size());
    if (const Named* p = find(kPrefixes, prefix)) {
      return UnitScale{std::string(word), p->second};
    }
    // One or two leading characters ("Ki", "X") read as a scale nobody knows; a longer head
    // ("l2_sector") is a unit of its own.
    if (prefix.size() <= 2) return std::nullopt;
  }
  if (f.size() >= 2 && std::string_view("KMGTPE").find(f[0]) != std::string_view::npos) {
    // A binary prefix ("MiB", "Gi"): ncu does not print those; not guessed.
    if (f[1] == 'i' && (f.size() == 2 || !lower(f[2]))) return std::nullopt;
    // An upper-case decimal prefix on any other lower-case unit ("Kwavefront").
    if (lower(f[1])) {
      const Named* p = find(kPrefixes, f.substr(0, 1));
      return UnitScale{std::string(f.substr(1)), p->second};
    }
  }
  return UnitScale{std::string(f), 1};
}

// The same for a denominator, as the multiplier that takes a value to the base: rates are per
// second ("cycle/usecond": x 1e6 -> "cycle/second").
std::optional<UnitScale> denominator_base(std::string_view f) {
  if (const Named* t = find(kTimes, f)) {
    return UnitScale{"second", 1e9 / t->second};
  }
  auto b = factor_base(f);
  if (b) b->factor = 1 / b->factor;
  return b;
}

}  // namespace

std::optional<UnitScale> base_unit(std::string_view printed) {
  UnitScale out;
  std::size_t start = 0;
  bool denominator = false;
  while (true) {
    const std::size_t slash = printed.find('/', start);
    const std::string_view part = printed.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    const auto f = denominator ? denominator_base(part) : factor_base(part);
    if (!f) return std::nullopt;
    out.unit += f->unit;
    out.factor *= f->factor;
    if (slash == std::string_view::npos) return out;
    out.unit += '/';
    start = slash + 1;
    denominator = true;
  }
}

}  // namespace kscope::ncu
