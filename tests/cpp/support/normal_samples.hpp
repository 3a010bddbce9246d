#pragma once
// Normal samples from a fixed seed, by Box-Muller on mt19937's (fully specified) output: the
// same numbers on every platform, for the statistics tests.

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace kscope::testing {

class Normal {
 public:
  explicit Normal(std::uint32_t seed) : gen_(seed) {}
  std::vector<double> operator()(double mean, double sd, int n) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) {
      v.push_back(mean + sd * std::sqrt(-2 * std::log(uniform())) *
                             std::cos(6.283185307179586 * uniform()));
    }
    return v;
  }

 private:
  double uniform() { return (static_cast<double>(gen_()) + 0.5) / 4294967296.0; }
  std::mt19937 gen_;
};

/// `n` values of N(mean, sd) from `seed`.
inline std::vector<double> normal(double mean, double sd, int n, std::uint32_t seed) {
  return Normal(seed)(mean, sd, n);
}

}  // namespace kscope::testing
