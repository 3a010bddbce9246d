// A stand-in for libnvidia-ml.so.1 used by the loader tests: a handful of entry points with
// scripted answers, deliberately incomplete. It exports only the *old* names of two renamed
// functions (nvmlDeviceGetTemperature, nvmlDeviceGetCurrentClocksThrottleReasons) and no
// nvmlDeviceGetPowerUsage, so the tests see kscope fall back symbol by symbol and report a
// missing symbol as "not supported". kscope_fake_nvml_* functions script it.
#include <cstring>
#include <string>

namespace {
struct Fake {
  int init_result = 0;
  int margin_result = 0;
  int margin = 47;
  int init_calls = 0;
  int shutdown_calls = 0;
  std::string last_bus_id;
};
Fake& fake() {
  static Fake f;
  return f;
}
int gpu_a = 0;  // the handles are addresses of these
int gpu_b = 0;
constexpr const char* kBusA = "00000000:00:06.0";
constexpr const char* kUuidB = "GPU-01234567-89ab-cdef-0123-456789abcdef";

int copy_out(const char* text, char* buf, unsigned int len) {
  if (std::strlen(text) + 1 > len) return 7;  // insufficient size
  std::strcpy(buf, text);
  return 0;
}
}  // namespace

extern "C" {

void kscope_fake_nvml_reset() { fake() = Fake{}; }
void kscope_fake_nvml_set_init_result(int r) { fake().init_result = r; }
void kscope_fake_nvml_set_margin(int result, int value) {
  fake().margin_result = result;
  fake().margin = value;
}
const char* kscope_fake_nvml_last_bus_id() { return fake().last_bus_id.c_str(); }
int kscope_fake_nvml_init_calls() { return fake().init_calls; }
int kscope_fake_nvml_shutdown_calls() { return fake().shutdown_calls; }

int nvmlInit_v2() {
  ++fake().init_calls;
  return fake().init_result;
}
int nvmlShutdown() {
  ++fake().shutdown_calls;
  return 0;
}
const char* nvmlErrorString(int r) {
  switch (r) {
    case 3: return "Not Supported";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
  }
}
int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** handle) {
  fake().last_bus_id = bus_id;
  if (std::strcmp(bus_id, kBusA) != 0) return 6;
  *handle = &gpu_a;
  return 0;
}
int nvmlDeviceGetHandleByUUID(const char* uuid, void** handle) {
  if (std::strcmp(uuid, kUuidB) != 0) return 6;
  *handle = &gpu_b;
  return 0;
}
int nvmlDeviceGetName(void* handle, char* buf, unsigned int len) {
  return copy_out(handle == &gpu_a ? "Fake GPU A" : "Fake GPU B", buf, len);
}
int nvmlDeviceGetUUID(void* handle, char* buf, unsigned int len) {
  return copy_out(handle == &gpu_a ? "GPU-aaaaaaaa-0000-0000-0000-000000000000" : kUuidB, buf, len);
}
int nvmlDeviceGetTemperature(void*, int sensor, unsigned int* t) {
  if (sensor != 0) return 2;
  *t = 41;
  return 0;
}
int nvmlDeviceGetMarginTemperature(void*, int* margin_struct) {
  // {unsigned version; int marginTemperature;}: check the version tag kscope sends.
  const unsigned int version = static_cast<unsigned int>(margin_struct[0]);
  if (version != (8U | (1U << 24))) return 25;  // argument version mismatch
  if (fake().margin_result != 0) return fake().margin_result;
  margin_struct[1] = fake().margin;
  return 0;
}
int nvmlDeviceGetClockInfo(void*, int type, unsigned int* mhz) {
  *mhz = type == 1 ? 1755 : type == 2 ? 3201 : 0;
  return type == 1 || type == 2 ? 0 : 2;
}
int nvmlDeviceGetMaxClockInfo(void*, int type, unsigned int* mhz) {
  *mhz = type == 1 ? 1980 : 3201;
  return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(void*, unsigned long long* reasons) {
  *reasons = 0x4;
  return 0;
}

}  // extern "C"
