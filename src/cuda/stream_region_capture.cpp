#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "kscope/region_capture.hpp"

namespace kscope {
namespace {

// The graphs of one RegionCapture, shared by its copies (Options are copied).
struct StreamGraphs {
  explicit StreamGraphs(cudaStream_t s) : stream(s) {}
  StreamGraphs(const StreamGraphs&) = delete;             // non-copyable
  StreamGraphs& operator=(const StreamGraphs&) = delete;  // non-copyable
  ~StreamGraphs() { clear(); }

  void clear() noexcept {
    for (cudaGraphExec_t e : kept) (void)cudaGraphExecDestroy(e);
    kept.clear();
  }

  cudaStream_t stream;
  std::vector<cudaGraphExec_t> kept;  // in capture order
};

}  // namespace

RegionCapture stream_region_capture(CUstream_st* stream) {
  if (stream == nullptr) {
    throw InvalidArgument(
        "stream_region_capture needs a stream of your own: the legacy default stream (0) cannot "
        "be captured into a CUDA graph. Create one (cudaStreamCreateWithFlags(&s, "
        "cudaStreamNonBlocking)) and launch the regions' kernels on it.");
  }
  auto graphs = std::make_shared<StreamGraphs>(stream);
  RegionCapture c;
  c.begin = [graphs](const std::string&) {
    KSCOPE_CUDA_CHECK(cudaStreamBeginCapture(graphs->stream, cudaStreamCaptureModeThreadLocal));
  };
  c.end = [graphs](bool failed) {
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(graphs->stream, &graph);
    if (failed) {
      if (graph) (void)cudaGraphDestroy(graph);
      (void)cudaGetLastError();  // a capture the failure invalidated is no one's error
      return;
    }
    KSCOPE_CUDA_CHECK(ended);
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    (void)cudaGraphDestroy(graph);
    KSCOPE_CUDA_CHECK(made);
    graphs->kept.push_back(exec);
    KSCOPE_CUDA_CHECK(cudaGraphLaunch(exec, graphs->stream));
  };
  c.replay = [graphs](std::size_t index) {
    KSCOPE_CUDA_CHECK(cudaGraphLaunch(graphs->kept.at(index), graphs->stream));
  };
  c.clear = [graphs] { graphs->clear(); };
  return c;
}

}  // namespace kscope
