#include "cuda/device_identity.hpp"

#include <cstring>

#include "cuda/cuda_check.hpp"

namespace kscope::cuda {

std::string format_gpu_uuid(const unsigned char (&bytes)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xF];
  }
  return out;
}

DeviceIdentity device_identity(int device) {
  DeviceIdentity id;
  char bus[32] = {0};
  KSCOPE_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  id.pci_bus_id = bus;
  cudaDeviceProp prop{};
  KSCOPE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  unsigned char raw[16];
  static_assert(sizeof(prop.uuid.bytes) == sizeof raw, "cudaUUID_t holds 16 bytes");
  std::memcpy(raw, prop.uuid.bytes, sizeof raw);
  id.uuid = format_gpu_uuid(raw);
  return id;
}

int current_device() {
  int device = 0;
  KSCOPE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace kscope::cuda
