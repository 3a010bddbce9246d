#pragma once
// MemoryCheckpoint through the CUPTI Checkpoint API (cupti_checkpoint.h, libcheckpoint.so beside
// libcupti), loaded with dlopen when first needed so that nothing links it.
//
// Measured on an H200 (CUDA 13.0, bench/probes/checkpoint_probe.cu): Save copies every
// allocation of the context into device memory (1.2 ms with 0.3 GiB allocated, 3.5 ms with 4 GiB,
// 11.9 ms with 16 GiB; saving over an existing checkpoint cost twice that, so every save frees
// the previous one first, unless the first-save hook asks to keep the copy: a copy that goes to
// host memory is allocated there once, not before every run), Restore copies it back (0.13 /
// 2.1 / 8.1 ms); neither launches a kernel nor shows in CUPTI's launch callbacks or memcpy
// activity records. The TRANSFER optimisation (restore changed blocks only) failed with
// CUPTI_ERROR_UNKNOWN there, and on an H100 at 62 GB a probe using it ended in a heap
// corruption: not used.

#include <functional>
#include <string>

#include "collect/cupti/memory_checkpoint.hpp"

namespace kscope::cupti {

class CuptiCheckpoint : public MemoryCheckpoint {
 public:
  /// Called once, right before the first save (where its cost is estimated); true: keep the copy
  /// and save over it from then on (allowOverwrite) instead of freeing it before every save.
  using BeforeFirstSave = std::function<bool()>;
  /// Loads libcheckpoint.so (throws ToolError naming the library and the alternatives when it
  /// cannot); `context` is the CUcontext whose memory is saved. `before_first_save` may be empty
  /// (every save frees the previous copy first).
  explicit CuptiCheckpoint(void* context, BeforeFirstSave before_first_save = {});
  ~CuptiCheckpoint() override;  // frees the saved copy
  CuptiCheckpoint(const CuptiCheckpoint&) = delete;             // owns a CUPTI checkpoint
  CuptiCheckpoint& operator=(const CuptiCheckpoint&) = delete;  // owns a CUPTI checkpoint

  void save() override;
  void restore() override;

  /// Calls and milliseconds so far, for the DEBUG cost summary ("3 saves 4.1 ms, 21 restores
  /// 2.8 ms").
  [[nodiscard]] std::string cost() const;

 private:
  void release() noexcept;

  void* handle_;  // CUpti_Checkpoint (opaque here)
  BeforeFirstSave before_first_save_;
  bool saved_ = false;
  bool keep_copy_ = false;
  int saves_ = 0, restores_ = 0;
  double save_ms_ = 0, restore_ms_ = 0;
};

}  // namespace kscope::cupti
