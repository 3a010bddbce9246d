// 02_info_collectors: custom columns from the four collector scopes. ONCE: the CUDA runtime
// version; CONFIG: bytes moved per run; RUN: free device memory before each run; ANNOTATION: the
// order in which annotations are entered and a text naming the region. Numeric CONFIG, RUN and
// ANNOTATION collectors get <name>_Avg/_Std/_Min/_Max columns in the processed table, the others
// one column (docs/info-collectors.md).
//   ./02_info_collectors [output_prefix]      (default: out/info/)
#include <kscope/kscope.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

__global__ void scale(float* x, float s, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    x[i] *= s;
  }
}

int main(int argc, char** argv) {
  const std::string prefix = argc > 1 ? argv[1] : "out/info/";
  kscope::Options opt;
  opt.runs = 5;
  opt.output_prefix = prefix;
  opt.output_csv = true;
  int entries = 0;
  opt.info_collectors = {
      kscope::InfoCollector::once("cuda_runtime", [] {
        int v = 0;
        cudaRuntimeGetVersion(&v);
        return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
      }),
      kscope::InfoCollector::per_config("bytes", [](const kscope::Config& c) {
        return 2.0 * sizeof(float) * c.get<double>("n");  // one read, one write per element
      }),
      kscope::InfoCollector::per_run("free_mib", [](const kscope::Config&) -> kscope::InfoValue {
        size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) != cudaSuccess) throw std::runtime_error("cudaMemGetInfo failed");
        return static_cast<double>(free) / (1 << 20);
      }),
      kscope::InfoCollector::per_annotation("entry", [&entries](std::string_view, const kscope::Config&) {
        return ++entries;  // may run on the thread that opens the annotation
      }),
      kscope::InfoCollector::per_annotation("region", [](std::string_view a, const kscope::Config& c) {
        return std::string(a) + "@" + c.at("n").to_string();
      }),
  };
  const long max_n = 1L << 24;
  float* x = nullptr;
  try {
    auto results = kscope::profile("scale", kscope::configs({1 << 20, 1 << 24}, "n"),
                                   [&](const kscope::Config& cfg) {
      if (!x) cudaMalloc(&x, max_n * sizeof(float));
      const long n = cfg.get<long>("n");
      const int blocks = static_cast<int>(std::min<long>((n + 255) / 256, 132L * 16));
      {
        kscope::Annotation range("double");
        scale<<<blocks, 256>>>(x, 2.0f, n);
      }
      {
        kscope::Annotation range("halve");
        scale<<<blocks, 256>>>(x, 0.5f, n);
      }
    }, opt);
    results.print(std::cout);
    // The collectors' processed columns, next to each row's key.
    const auto columns = kscope::processed_info_columns(results.info_columns());
    for (const auto& p : results.processed()) {
      std::cout << p.annotation << " n=" << results.configs()[p.config].at("n").to_string();
      for (std::size_t i = 0; i < columns.size(); ++i) {
        std::cout << "  " << columns[i] << "=" << p.info[i].to_string();
      }
      std::cout << "\n";
    }
    results.write_json(prefix + "scale.json");
    std::cout << "\nwrote " << prefix << "scale.json and the CSVs (collector columns included)\n";
  } catch (const kscope::Error& e) {
    std::fprintf(stderr, "kscope: %s\n", e.what());
    return 1;
  }
  cudaFree(x);
  return 0;
}
