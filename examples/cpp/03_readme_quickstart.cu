#include <kscope/kscope.hpp>

#include <iostream>

__global__ void vadd(const float* a, const float* b, float* out, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

int main() try {
  const long max_n = 1 << 24;
  float *a, *b, *out;
  cudaMalloc(&a, max_n * sizeof(float));
  cudaMalloc(&b, max_n * sizeof(float));
  cudaMalloc(&out, max_n * sizeof(float));
  kscope::Options opt;
  opt.runs = 20;
  opt.derive_metric = [](const std::vector<double>& m, const kscope::Config& c) {
    return std::vector<kscope::DerivedValue>{{"bandwidth", 12.0 * c.get<double>("n") / m[0], "GB/s"}};
  };
  auto results = kscope::profile("vadd", kscope::configs({1 << 20, 1 << 24}, "n"),
      [&](const kscope::Config& c) {
        const long n = c.get<long>("n");
        kscope::Annotation range("vadd");           // kernels launched here are measured
        vadd<<<(n + 255) / 256, 256>>>(a, b, out, n);
      }, opt);
  results.print(std::cout);
  results.write_json("vadd.json");
} catch (const kscope::Error& e) {
  std::cerr << "kscope: " << e.what() << "\n";
  return 1;
}
