#include "collect/cupti/cupti_checkpoint.hpp"

#include <cupti.h>
#include <cupti_checkpoint.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>

#include "collect/cupti/checkpoint_estimate.hpp"
#include "collect/cupti/cupti_check.hpp"
#include "core/host_clock.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

namespace cp = NV::Cupti::Checkpoint;
using Call = CUptiResult (*)(cp::CUpti_Checkpoint*);

struct Library {
  Call save = nullptr;
  Call restore = nullptr;
  Call release = nullptr;
};

// The directory libcupti was loaded from ("" when unknown): libcheckpoint.so ships beside it.
std::string cupti_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) == 0 || !info.dli_fname) return {};
  const std::string path = info.dli_fname;
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

const Library& library() {
  static const Library lib = [] {
    const std::string dir = cupti_directory();
    void* handle = nullptr;
    std::string why;
    for (const std::string& name : {dir.empty() ? std::string() : dir + "/libcheckpoint.so",
                                    std::string("libcheckpoint.so")}) {
      if (name.empty()) continue;
      handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle) break;
      const char* e = dlerror();
      why += std::string(why.empty() ? "" : "; ") + (e ? e : name + ": not loadable");
    }
    Library l;
    if (handle) {
      l.save = reinterpret_cast<Call>(dlsym(handle, "cuptiCheckpointSave"));
      l.restore = reinterpret_cast<Call>(dlsym(handle, "cuptiCheckpointRestore"));
      l.release = reinterpret_cast<Call>(dlsym(handle, "cuptiCheckpointFree"));
      if (!l.save || !l.restore || !l.release) why = "it lacks cuptiCheckpointSave/Restore/Free";
    }
    if (!l.save || !l.restore || !l.release) {
      throw ToolError(
          "metric_replay 'checkpoint' restores device memory between replay passes with CUPTI's "
          "checkpoint library (libcheckpoint.so, shipped beside libcupti" +
          (dir.empty() ? std::string() : " in " + dir) + "), which could not be loaded: " + why +
          ". Install CUPTI in full, or use metric_replay 'application' (a benchmark that does not "
          "depend on what earlier executions left in memory) or 'kernel' (CUPTI's kernel replay).");
    }
    return l;
  }();
  return lib;
}

}  // namespace

CuptiCheckpoint::CuptiCheckpoint(void* context, BeforeFirstSave before_first_save)
    : before_first_save_(std::move(before_first_save)) {
  (void)library();  // fail here, before any run, when the library is missing
  using cp::CUpti_Checkpoint;  // named unqualified by CUpti_Checkpoint_STRUCT_SIZE
  auto* c = new CUpti_Checkpoint{};
  c->structSize = CUpti_Checkpoint_STRUCT_SIZE;
  c->ctx = static_cast<CUcontext>(context);
  c->optimizations = cp::CUPTI_CHECKPOINT_OPT_NONE;
  handle_ = c;
}

CuptiCheckpoint::~CuptiCheckpoint() {
  release();
  delete static_cast<cp::CUpti_Checkpoint*>(handle_);
}

void CuptiCheckpoint::release() noexcept {
  if (!saved_) return;
  (void)library().release(static_cast<cp::CUpti_Checkpoint*>(handle_));
  saved_ = false;
}

void CuptiCheckpoint::save() {
  auto* c = static_cast<cp::CUpti_Checkpoint*>(handle_);
  if (saves_ == 0 && before_first_save_) {
    keep_copy_ = before_first_save_();
    c->allowOverwrite = keep_copy_ ? 1 : 0;  // read by CUPTI at the first save
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (saved_ && !keep_copy_) {
    // Saving over a checkpoint (allowOverwrite) cost twice a fresh save on the H200.
    KSCOPE_CUPTI_CHECK(library().release(c));
    saved_ = false;
  }
  const CUptiResult status = library().save(c);
  if (status == CUPTI_ERROR_OUT_OF_MEMORY) throw ToolError(checkpoint_out_of_memory(current_device_memory()));
  KSCOPE_CUPTI_CHECK(status);
  saved_ = true;
  ++saves_;
  save_ms_ += ms_since(t0);
}

void CuptiCheckpoint::restore() {
  if (!saved_) throw ToolError("internal: a device memory checkpoint was restored before it was saved");
  const auto t0 = std::chrono::steady_clock::now();
  KSCOPE_CUPTI_CHECK(library().restore(static_cast<cp::CUpti_Checkpoint*>(handle_)));
  ++restores_;
  restore_ms_ += ms_since(t0);
}

std::string CuptiCheckpoint::cost() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%d save(s) %.3f ms, %d restore(s) %.3f ms", saves_, save_ms_,
                restores_, restore_ms_);
  return buf;
}

}  // namespace kscope::cupti
