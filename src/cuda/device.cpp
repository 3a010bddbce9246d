#include "cuda/device.hpp"

#include <map>
#include <mutex>

#include <unistd.h>

#include <ctime>

#include "cuda/cuda_check.hpp"
#include "kscope/profile.hpp"

namespace kscope::cuda {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw Error(std::string("[kscope] CUDA call ") + call + " failed with " + cudaGetErrorName(code) +
              " (" + std::to_string(static_cast<int>(code)) + "): " + cudaGetErrorString(code) +
              " at " + file + ":" + std::to_string(line));
}

bool device_available(std::string* reason) {
  int count = 0;
  const cudaError_t st = cudaGetDeviceCount(&count);
  if (st == cudaSuccess && count > 0) return true;
  if (reason) {
    if (st == cudaErrorInsufficientDriver) {
      *reason = "cudaGetDeviceCount returned cudaErrorInsufficientDriver (35): no NVIDIA driver "
                "is loaded, or it is older than this CUDA runtime (" +
                std::to_string(CUDART_VERSION / 1000) + "." +
                std::to_string(CUDART_VERSION % 1000 / 10) +
                "). Install or update the NVIDIA driver, or run on a machine with a GPU.";
    } else if (st == cudaErrorNoDevice || (st == cudaSuccess && count == 0)) {
      *reason = "the NVIDIA driver reports no GPU (cudaErrorNoDevice). Check nvidia-smi and "
                "CUDA_VISIBLE_DEVICES.";
    } else {
      *reason = std::string("cudaGetDeviceCount failed with ") + cudaGetErrorName(st) + " (" +
                std::to_string(static_cast<int>(st)) + "): " + cudaGetErrorString(st);
    }
  }
  return false;
}

int require_device() {
  std::string reason;
  if (!device_available(&reason)) throw NoDeviceError("no CUDA device: " + reason);
  int device = 0;
  KSCOPE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

MemoryInfo current_memory_info() {
  MemoryInfo m;
  KSCOPE_CUDA_CHECK(cudaMemGetInfo(&m.free, &m.total));
  return m;
}

long long l2_cache_bytes(int device) {
  int bytes = 0;
  KSCOPE_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return bytes;
}

std::string utc_now_iso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

void reset_device() noexcept {
  (void)cudaDeviceReset();
  (void)cudaGetLastError();
}

namespace {

// "GPU-6a5f2c1e-...": the UUID as nvidia-smi -L prints it.
std::string uuid_text(const cudaUUID_t& uuid) {
  static const char* hex = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
    out += hex[byte >> 4];
    out += hex[byte & 0xF];
  }
  return out;
}

}  // namespace

void select_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return;  // require_device() says why
  }
  KSCOPE_CUDA_CHECK(cudaSetDevice(local_rank % count));
}

std::string device_uuid_of_rank(std::optional<int> local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return "";  // the child says why
  }
  cudaDeviceProp prop{};
  KSCOPE_CUDA_CHECK(cudaGetDeviceProperties(&prop, local_rank.value_or(0) % count));
  return uuid_text(prop.uuid);
}

Metadata device_metadata(int device) {
  // What the device and host are does not change while the process lives, and reading it costs
  // ~1 ms: once per device and process; only the start time is per session.
  static std::mutex mu;
  static std::map<int, Metadata> known;
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (const auto it = known.find(device); it != known.end()) {
      Metadata m = it->second;
      m.started_at = utc_now_iso();
      return m;
    }
  }
  Metadata m;
  m.device = device;
  cudaDeviceProp prop{};
  KSCOPE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  m.gpu = prop.name;
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess) m.pci_bus_id = bus;
  m.uuid = uuid_text(prop.uuid);
  m.compute_capability = prop.major * 10 + prop.minor;
  m.sm_count = prop.multiProcessorCount;
  m.l2_cache_bytes = prop.l2CacheSize;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess) m.compute_clock = khz;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess) {
    m.memory_clock = khz;
  }
  (void)cudaGetLastError();
  KSCOPE_CUDA_CHECK(cudaDriverGetVersion(&m.driver_version));
  m.runtime_version = CUDART_VERSION;
  m.host = host_name();
  m.kscope_version = kscope::version();
  m.started_at = utc_now_iso();
  const std::lock_guard<std::mutex> lock(mu);
  known.emplace(device, m);
  return m;
}

}  // namespace kscope::cuda
