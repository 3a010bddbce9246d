// 00_minimal: time one kernel over two sizes with kscope's defaults.
//   ./00_minimal [output_prefix]
#include <kscope/kscope.hpp>

#include <cstdio>
#include <iostream>

__global__ void scale(float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main(int argc, char** argv) {
  kscope::Options opt;
  opt.runs = 10;
  if (argc > 1) opt.output_prefix = argv[1];
  try {
    auto results = kscope::profile("scale", kscope::configs({1 << 20, 1 << 24}, "n"),
        [](const kscope::Config& c) {
          const int n = c.get<int>("n");
          float* x = nullptr;
          cudaMalloc(&x, n * sizeof(float));  // setup stays outside the annotation
          {
            kscope::Annotation range("scale");
            scale<<<(n + 255) / 256, 256>>>(x, 1.0001f, n);
          }
          cudaFree(x);
        }, opt);
    results.print(std::cout);
  } catch (const kscope::Error& e) {
    std::fprintf(stderr, "kscope: %s\n", e.what());
    return 1;
  }
  return 0;
}
