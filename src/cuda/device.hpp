#pragma once
// The CUDA device being profiled: the "is there a GPU" check every entry point starts with, and
// the environment metadata recorded with results.

#include <cstddef>
#include <optional>
#include <string>

#include "kscope/results.hpp"

namespace kscope::cuda {

/// Returns the current CUDA device ordinal, or throws kscope::NoDeviceError
/// ("no CUDA device: ...") when there is no driver, no GPU or a driver too old for this runtime.
int require_device();

/// Whether a usable CUDA device is present, and if not why (for tests and tools that skip).
[[nodiscard]] bool device_available(std::string* reason = nullptr);

/// GPU name, PCI bus id, clocks, L2 size, driver/runtime versions of `device`, plus host name,
/// kscope version and the current time.
[[nodiscard]] Metadata device_metadata(int device);

/// Makes device `local_rank` mod the number of visible devices current (CUDA_VISIBLE_DEVICES
/// applies): the GPU of a sharded process's local rank. Nothing without a device.
void select_device(int local_rank);

/// The UUID of the GPU a process of local rank `local_rank` measures on (select_device's; device
/// 0 without a local rank), read without making it current; empty when there is no device.
[[nodiscard]] std::string device_uuid_of_rank(std::optional<int> local_rank);

/// Destroys the primary context of the current device (cudaDeviceReset), ignoring errors (the
/// context may already be broken). For a re-executed child before it exits: an external tool
/// such as compute-sanitizer finishes its report (e.g. its leak check) when the context goes.
void reset_device() noexcept;

/// Free and total memory of the current device, bytes (cudaMemGetInfo).
struct MemoryInfo {
  std::size_t free = 0;
  std::size_t total = 0;
};
[[nodiscard]] MemoryInfo current_memory_info();

/// L2 cache size in bytes of `device`.
[[nodiscard]] long long l2_cache_bytes(int device);

/// Current UTC time, ISO 8601 ("2026-11-30T08:41:50Z").
[[nodiscard]] std::string utc_now_iso();

/// This machine's host name.
[[nodiscard]] std::string host_name();

}  // namespace kscope::cuda
