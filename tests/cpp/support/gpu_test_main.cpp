#include "support/gpu_test.hpp"

#include "cuda/device.hpp"

namespace kscope::testing {

bool gpu_available(std::string* reason) { return cuda::device_available(reason); }

}  // namespace kscope::testing
