#pragma once
// Our own declarations of the few NVML types, constants and entry points kscope uses (no nvml.h
// is needed or shipped). They restate facts about NVML's C ABI, checked against the public NVML
// API reference and on an H200 with driver 580. Everything is resolved at run time with dlsym:
// a missing symbol means "not supported". Only src/nvml/ may include this file.

#include <cstddef>

namespace kscope::nvml {

/// nvmlReturn_t: an int-sized enum, 0 on success.
using Return = int;
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorUninitialized = 1;
inline constexpr Return kErrorInvalidArgument = 2;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorNoPermission = 4;
inline constexpr Return kErrorNotFound = 6;
inline constexpr Return kErrorInsufficientSize = 7;
inline constexpr Return kErrorDriverNotLoaded = 9;
inline constexpr Return kErrorLibraryNotFound = 12;
inline constexpr Return kErrorFunctionNotFound = 13;
inline constexpr Return kErrorGpuIsLost = 15;
inline constexpr Return kErrorArgumentVersionMismatch = 25;
inline constexpr Return kErrorUnknown = 999;

/// nvmlDevice_t: one opaque pointer (newer headers wrap it in a one-pointer struct; same ABI).
struct DeviceOpaque;
using DeviceHandle = DeviceOpaque*;

/// nvmlClockType_t.
inline constexpr int kClockGraphics = 0;
inline constexpr int kClockSm = 1;
inline constexpr int kClockMem = 2;

/// nvmlTemperatureSensors_t: the GPU die.
inline constexpr int kTemperatureGpu = 0;

/// nvmlTemperature_v1_t (argument of nvmlDeviceGetTemperatureV).
struct TemperatureV1 {
  unsigned int version;
  int sensor_type;
  int temperature;
};

/// nvmlMarginTemperature_v1_t (argument of nvmlDeviceGetMarginTemperature): degrees C left
/// before the GPU starts slowing down ("thermal headroom", nvidia-smi's T.Limit).
struct MarginTemperatureV1 {
  unsigned int version;
  int margin_temperature;
};

/// NVML's versioned-struct tag: the struct size in the low bits, the version in the top byte.
constexpr unsigned int struct_version(std::size_t size, unsigned int version) {
  return static_cast<unsigned int>(size) | (version << 24U);
}

/// Buffer sizes NVML documents as large enough for names and UUIDs.
inline constexpr unsigned int kNameBufferSize = 96;
inline constexpr unsigned int kUuidBufferSize = 96;

// Entry point signatures (all extern "C" in libnvidia-ml.so.1).
using InitFn = Return (*)();
using ShutdownFn = Return (*)();
using ErrorStringFn = const char* (*)(Return);
using HandleByStringFn = Return (*)(const char*, DeviceHandle*);
using DeviceStringFn = Return (*)(DeviceHandle, char*, unsigned int);
using TemperatureVFn = Return (*)(DeviceHandle, TemperatureV1*);
using TemperatureLegacyFn = Return (*)(DeviceHandle, int sensor, unsigned int*);
using MarginTemperatureFn = Return (*)(DeviceHandle, MarginTemperatureV1*);
using ClockInfoFn = Return (*)(DeviceHandle, int clock_type, unsigned int* mhz);
using ClockReasonsFn = Return (*)(DeviceHandle, unsigned long long* reasons);
using PowerUsageFn = Return (*)(DeviceHandle, unsigned int* milliwatts);

}  // namespace kscope::nvml
