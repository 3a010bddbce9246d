#pragma once
// How other libraries (NVML) can recognise a CUDA device: its PCI bus id and UUID. CUDA
// ordinals are only meaningful inside this process (CUDA_VISIBLE_DEVICES renumbers them).

#include <string>

namespace kscope::cuda {

struct DeviceIdentity {
  std::string pci_bus_id;  ///< as CUDA writes it, e.g. "0000:00:06.0"
  std::string uuid;        ///< as NVML and nvidia-smi write it, "GPU-xxxxxxxx-xxxx-..."
};

/// The identity of CUDA device `device`. Throws kscope::Error naming the CUDA error (e.g. for an
/// ordinal that does not exist).
[[nodiscard]] DeviceIdentity device_identity(int device);

/// The CUDA device current on this thread (cudaGetDevice). Throws kscope::Error on failure.
[[nodiscard]] int current_device();

/// "GPU-" + the 16 bytes in lower-case hex grouped 8-4-4-4-12, the form NVML reports.
[[nodiscard]] std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

}  // namespace kscope::cuda
