// 01_vadd_sweep: the demo sweep. Two annotations per run (a scalar and a vectorised vector add)
// over five sizes, a derived GB/s metric, the aligned table on stdout, and JSON + CSV files.
//   ./01_vadd_sweep [output_prefix]      (default: out/demo/)
#include <kscope/kscope.hpp>

#include <cstdio>
#include <iostream>
#include <string>

__global__ void vadd(const float* a, const float* b, float* c, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

__global__ void vadd4(const float4* a, const float4* b, float4* c, long n4) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

__global__ void fill(float* x, float v, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) x[i] = v;
}

int main(int argc, char** argv) {
  const std::string prefix = argc > 1 ? argv[1] : "out/demo/";
  kscope::Options opt;
  opt.runs = 20;
  opt.output_prefix = prefix;
  opt.output_csv = true;
  // Bytes moved (two reads, one write) per nanosecond = GB/s.
  opt.derive_metric = [](const std::vector<double>& m, const kscope::Config& c) {
    const double bytes = 3.0 * sizeof(float) * c.get<double>("n");
    return std::vector<kscope::DerivedValue>{{"bandwidth", bytes / m[0], std::string("GB/s")}};
  };
  const long max_n = 1L << 27;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  try {
    const auto sizes = kscope::configs({1 << 20, 1 << 22, 1 << 24, 1 << 26, 1L << 27}, "n");
    auto results = kscope::profile("vadd", sizes, [&](const kscope::Config& cfg) {
      if (!a) {  // allocate once, on the first run, and fill with non-zero data
        cudaMalloc(&a, max_n * sizeof(float));
        cudaMalloc(&b, max_n * sizeof(float));
        cudaMalloc(&c, max_n * sizeof(float));
        fill<<<1024, 256>>>(a, 1.0f, max_n);
        fill<<<1024, 256>>>(b, 2.0f, max_n);
      }
      const long n = cfg.get<long>("n");
      const int blocks = static_cast<int>(std::min<long>((n + 255) / 256, 132L * 16));
      {
        kscope::Annotation range("vadd");
        vadd<<<blocks, 256>>>(a, b, c, n);
      }
      {
        kscope::Annotation range("vadd_float4");
        vadd4<<<blocks, 256>>>(reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b),
                               reinterpret_cast<float4*>(c), n / 4);
      }
    }, opt);
    results.print(std::cout);
    results.write_json(prefix + "vadd.json");
    std::cout << "\nwrote " << prefix << "vadd.json, CSVs and the journal " << results.journal_path() << "\n";
  } catch (const kscope::Error& e) {
    std::fprintf(stderr, "kscope: %s\n", e.what());
    return 1;
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
