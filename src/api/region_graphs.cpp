#include "api/region_graphs.hpp"

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/annotation_registry.hpp"
#include "kscope/annotation.hpp"

namespace kscope {
namespace {

// The captured regions of the config being measured.
class Recording {
 public:
  explicit Recording(RegionCapture capture) : capture_(std::move(capture)) {}
  Recording(const Recording&) = delete;             // non-copyable
  Recording& operator=(const Recording&) = delete;  // non-copyable
  ~Recording() { forget(); }

  void execute(const Benchmark& fn, const Config& config) {
    if (config_ != config.index()) {
      forget();
      config_ = config.index();
    }
    const std::optional<RunId> run = AnnotationRegistry::instance().current_run();
    if (!run || run->warmup) {
      fn(config);
    } else if (!regions_.empty()) {
      replay();
    } else {
      capture(fn, config);
    }
  }

 private:
  void replay() {
    for (std::size_t i = 0; i < regions_.size(); ++i) {
      const Annotation region(regions_[i]);  // its cache flush, NVTX range and attribution
      capture_.replay(i);
    }
  }

  // Runs `fn` with every region captured; keeps the regions unless one failed or a capture did.
  void capture(const Benchmark& fn, const Config& config) {
    std::vector<std::string> captured;
    std::optional<std::string> open;
    std::exception_ptr error;
    bool region_failed = false;
    AnnotationRegistry& registry = AnnotationRegistry::instance();
    registry.set_capture_hooks(
        {[&](const std::string& name) {
           capture_.begin(name);
           open = name;
         },
         // Runs in kscope::end_annotation (an Annotation's destructor too): keeps what it throws.
         [&](bool failed) noexcept {
           if (!open) return;
           try {
             capture_.end(failed || error != nullptr);
             if (failed) {
               region_failed = true;
             } else {
               captured.push_back(*open);
             }
           } catch (...) {
             if (!error) error = std::current_exception();
           }
           open.reset();
         }});
    struct Unhook {
      AnnotationRegistry& registry;
      ~Unhook() { registry.set_capture_hooks({}); }
    } unhook{registry};
    try {
      fn(config);
    } catch (...) {
      capture_.clear();
      throw;
    }
    if (error || region_failed || captured.empty()) {
      capture_.clear();
      if (error) std::rethrow_exception(error);
      return;
    }
    regions_ = std::move(captured);
  }

  void forget() noexcept {
    if (regions_.empty()) return;
    regions_.clear();
    try {
      capture_.clear();
    } catch (...) {
    }
  }

  RegionCapture capture_;
  std::optional<std::size_t> config_;
  std::vector<std::string> regions_;  // captured, in order; empty: capture at the next run
};

}  // namespace

Benchmark replaying_regions(Benchmark fn, RegionCapture capture) {
  auto recording = std::make_shared<Recording>(std::move(capture));
  return [fn = std::move(fn), recording](const Config& config) { recording->execute(fn, config); };
}

Benchmark session_benchmark(const Benchmark& fn, const Options& options) {
  return options.cuda_graph ? replaying_regions(fn, options.region_capture) : fn;
}

}  // namespace kscope
