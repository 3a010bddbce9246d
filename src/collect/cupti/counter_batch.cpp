#include "collect/cupti/counter_batch.hpp"

#include <chrono>

#include "core/number_format.hpp"
#include "core/host_clock.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

std::string ms_text(double ms) { return format_significant(ms, 4) + " ms"; }

}  // namespace

CounterBatch::CounterBatch(RangeProfilerApi& profiler, const MetricEvaluator& evaluator, Setup setup,
                           const Logger& log)
    : profiler_(profiler), evaluator_(evaluator), setup_(std::move(setup)), log_(log) {
  for (const auto& n : setup_.columns.names) column_ptrs_.push_back(n.c_str());
}

void CounterBatch::prime(std::size_t ranges) {
  const int passes_per_run = setup_.passes_per_run;
  const auto t0 = Clock::now();
  size_image(ranges);
  profiler_.initialize_image(image_);
  profiler_.set_config(setup_.config, image_, {setup_.user_range, setup_.kernel_replay, capacity_});
  // An empty session (every pass of it, for user replay): its first Start is the expensive one,
  // so that it happens before the runs rather than right before the first measured kernel,
  // which then ran 15-25 % slow on the H200 (the GPU had idled for the Start's ~0.2-0.4 s).
  for (std::size_t pass = 0;; ++pass) {
    profiler_.start();
    if (profiler_.stop().all_passes_submitted) break;
    if (pass > static_cast<std::size_t>(passes_per_run) + 1) {
      (void)profiler_.decode();
      throw ToolError("The CUPTI range profiler still expects passes after " +
                      std::to_string(pass + 1) + " empty passes of a metric set needing " +
                      std::to_string(passes_per_run) +
                      ". Report this with a DEBUG log (verbosity kDebug).");
    }
  }
  (void)profiler_.decode();  // leaves the object ready for the first batch's SetConfig
  const double ms = ms_since(t0);
  log_.debug("cupti metrics: first (empty) session set the profiler up for " +
             std::to_string(capacity_) + " ranges per pass in " + ms_text(ms) +
             " (the first Start after Enable costs ~150 ms + ~0.75 ms per range on an H200)");
}

void CounterBatch::size_image(std::size_t ranges) {
  if (ranges == capacity_ && !image_.empty()) return;
  capacity_ = ranges;
  image_.assign(profiler_.counter_data_size(column_ptrs_, capacity_), 0);
  log_.debug("cupti metrics: counter data image for " + std::to_string(capacity_) + " ranges: " +
             std::to_string(image_.size()) + " bytes");
}

void CounterBatch::ensure_capacity(std::size_t ranges) {
  if (ranges > profiler_.range_capacity()) {
    // The first Start since Enable fixed the capacity (RangeProfiler): only a new object holds
    // more ranges per pass, and its first Start is the expensive one again.
    log_.debug("cupti metrics: " + std::to_string(ranges) + " ranges per batch needed, the profiler holds " +
               std::to_string(profiler_.range_capacity()) + ": enabling a new range profiler object");
    profiler_.reenable();
    prime(2 * ranges);  // room to grow: each new object costs another expensive first Start
  }
  size_image(profiler_.range_capacity());  // a batch uses all of it: it costs nothing more
}

void CounterBatch::open(std::size_t ranges, const RunId& run) {
  opened_ns_ = now_ns();
  ensure_capacity(ranges);
  profiler_.initialize_image(image_);
  profiler_.set_config(setup_.config, image_, {setup_.user_range, setup_.kernel_replay, capacity_});
  open_ = true;
  first_ = run;
  last_ = run;
}

std::uint64_t CounterBatch::age_ns() const { return now_ns() - opened_ns_; }

void CounterBatch::add(std::vector<ProfiledLaunch> launches, const RunId* forget_run) {
  for (auto& l : launches) {
    if (forget_run && l.run == *forget_run) l.annotation.clear();
    launches_.push_back(std::move(l));
  }
}

std::vector<DecodedRange> CounterBatch::evaluate(bool with_names) {
  const auto t0 = Clock::now();
  const std::size_t n = profiler_.num_ranges(image_);
  std::vector<DecodedRange> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (with_names) out[i].name = profiler_.range_name(image_, i);
    out[i].values.assign(column_ptrs_.size(), 0.0);
    evaluator_.evaluate(image_, i, column_ptrs_, out[i].values.data());
  }
  evaluate_ms_ += ms_since(t0);
  return out;
}

void CounterBatch::decode(const std::string& what, const std::vector<std::string>* pushed) {
  if (!open_) return;
  open_ = false;
  std::vector<ProfiledLaunch> launches;
  launches.swap(launches_);
  const std::size_t dropped = profiler_.decode();
  const auto ranges = evaluate(pushed != nullptr);
  profiler_.set_tracing(false);  // the first batch's steps were printed
  ++batches_;
  profiled_ += launches.size();
  batch_ms_ += static_cast<double>(now_ns() - opened_ns_) / 1e6;
  const SessionPlace place{first_, setup_.device, what, last_, capacity_};
  auto records = pushed ? attribute_user_ranges(*pushed, ranges, dropped, setup_.columns, place)
                        : attribute_auto_ranges(launches, ranges, dropped, setup_.columns, place);
  attributed_ += records.size();
  std::lock_guard<std::mutex> lock(records_mu_);
  for (auto& r : records) records_.push_back(std::move(r));
}

void CounterBatch::discard(bool stop_first) noexcept {
  launches_.clear();
  if (!open_) return;
  open_ = false;
  try {
    if (stop_first) (void)profiler_.stop();
    (void)profiler_.decode();  // leaves the object ready for the next SetConfig
  } catch (...) {
    // Best effort: the next SetConfig reports a broken object.
  }
}

void CounterBatch::leave_images_with_profiler() noexcept {
  profiler_.hold_images({std::move(setup_.config), std::move(image_)});
  capacity_ = 0;
}

void CounterBatch::adopt_profiler_images() {
  auto images = profiler_.take_images();
  if (images.counter_data.empty() || images.config != setup_.config) {
    profiler_.hold_images(std::move(images));  // CUPTI still points to them
    throw ToolError("The kept CUPTI range profiler holds no images for this metric set. Report this "
                    "with a DEBUG log (verbosity kDebug); KSCOPE_KEEP_COUNTERS_S=0 avoids it.");
  }
  setup_.config = std::move(images.config);
  image_ = std::move(images.counter_data);
  capacity_ = profiler_.range_capacity();  // the image was sized for it: size_image() keeps it
}

std::vector<KernelRecord> CounterBatch::take_records() {
  std::lock_guard<std::mutex> lock(records_mu_);
  std::vector<KernelRecord> out;
  out.swap(records_);
  return out;
}

std::string CounterBatch::cost() const {
  const double per_kernel = profiled_ ? batch_ms_ / static_cast<double>(profiled_) : 0;
  return std::to_string(profiled_) + " kernel(s) profiled, " + std::to_string(attributed_) +
         " attributed to annotations, in " + std::to_string(sessions_) +
         " CUPTI session(s) (Start..Stop) and " + std::to_string(batches_) + " decoded batch(es); " +
         ms_text(batch_ms_) + " inside batches (" + ms_text(per_kernel) +
         " per profiled kernel, benchmark included), metric evaluation " + ms_text(evaluate_ms_) +
         " in total";
}

}  // namespace kscope::cupti
