#include "collect/cupti/counter_collector.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "collect/cupti/cupti_checkpoint.hpp"
#include "collect/cupti/metric_catalog.hpp"
#include "collect/cupti/profiler_device.hpp"
#include "collect/cupti/profiler_host.hpp"
#include "collect/cupti/range_profiler.hpp"
#include "collect/cupti/replay_consistency.hpp"
#include "core/annotation_registry.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

// Counter data images are sized for a batch of ranges, at least these many, and twice the
// largest count seen so far (warm-up runs included).
constexpr std::size_t kMinAnnotationRanges = 16;  // auto ranges of one annotation
constexpr std::size_t kMinRunRanges = 64;         // auto ranges of one run (application replay)
constexpr std::size_t kMinUserRanges = 16;        // annotations of one run (range replay)
// The first Start after Enable fixes how many ranges a pass holds and costs ~0.75 ms per range
// on the H200, on top of ~150 ms (RangeProfiler); every further batch of a spanning session
// costs ~16 ms (Stop, decode, SetConfig, Start). For N ranges in all, batches of sqrt(16 N / 0.75)
// ranges cost least; N is guessed as two per measured run (the run's kernel and the cache flush).
constexpr std::size_t kMinSpanRanges = 32;
constexpr std::size_t kMaxInitialSpanRanges = 512;
// A spanning session is stopped and decoded at a Session flush once its batch is this old, so
// that records reach the journal; each stop and restart costs ~13 ms.
constexpr std::uint64_t kSpanDecodeIntervalNs = 2'000'000'000;
// Metric sets needing more passes than this get a warning (sm__throughput alone needs 8).
constexpr std::size_t kManyPasses = 8;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

std::string list_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Ranges per pass the first (empty) session sets the profiler up for: what the first batch of
// the plan's scope asks for before any run was seen.
std::size_t first_session_ranges(const CollectionPlan& plan, std::size_t configs, int runs) {
  switch (plan.scope) {
    case SessionScope::kSpan: {
      const double ranges = 2.0 * static_cast<double>(configs) * std::max(runs, 1);
      const auto best = static_cast<std::size_t>(std::ceil(std::sqrt(16.0 * ranges / 0.75)));
      return std::clamp<std::size_t>((best + 15) / 16 * 16, kMinSpanRanges, kMaxInitialSpanRanges);
    }
    case SessionScope::kRun:
      return plan.user_range ? kMinUserRanges : kMinRunRanges;
    case SessionScope::kAnnotation:
      break;
  }
  return plan.decode_per_run ? kMinRunRanges : kMinAnnotationRanges;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

CounterCollector::CounterCollector(const SessionInfo& info)
    : log_(*info.options), device_(info.device) {
  const Options& opt = *info.options;
  // Set-up cost by step, printed at DEBUG (it is most of a short sweep's wall time).
  std::string setup;
  auto t = Clock::now();
  auto step = [&](const char* what) {
    const auto now = Clock::now();
    setup += std::string(setup.empty() ? "" : ", ") + what + " " + fixed(ms_between(t, now), 1) + " ms";
    t = now;
  };
  initialize_profiler();
  check_device_supported(device_);
  const std::string chip = device_chip_name(device_);
  void* context = primary_context(device_);
  step("profiler initialisation");
  const auto availability = counter_availability(context);
  context_ = context;
  step("counter availability");
  const MetricCatalog catalog(chip, availability);
  step("catalogue");
  catalog.validate(opt.metrics, opt.call_name);
  step("validation");
  for (const auto& m : opt.metrics) {
    if (std::find(columns_.names.begin(), columns_.names.end(), m) != columns_.names.end()) continue;
    columns_.names.push_back(m);
    columns_.units.push_back(catalog.find(m)->unit);
  }
  for (const auto& n : columns_.names) column_ptrs_.push_back(n.c_str());
  host_ = std::make_unique<ProfilerHost>(chip, availability);
  step("host object");
  config_ = host_->config_image(columns_.names);
  const std::size_t passes = ProfilerHost::num_passes(config_);
  step("config image");
  const char* batch = std::getenv("KSCOPE_CUPTI_BATCH");
  plan_ = plan_collection(opt.replay_mode, opt.metric_replay, passes, parse_batch_override(batch));
  log_.debug("cupti metrics: chip " + chip + ", " + std::to_string(columns_.names.size()) +
             " metric(s) [" + list_text(columns_.names) + "], " + std::to_string(passes) +
             " replay pass(es), config image " + std::to_string(config_.size()) + " bytes");
  log_.debug("cupti metrics: " + plan_.describe() +
             (batch && *batch ? std::string(" (KSCOPE_CUPTI_BATCH=") + batch + ")" : ""));
  if (passes > kManyPasses) {
    log_.warn("the metric set [" + list_text(columns_.names) + "] needs " + std::to_string(passes) +
              " replay passes on " + chip + ": " +
              (plan_.kernel_replay ? "every annotated kernel is replayed " + std::to_string(passes) +
                                         " times (tens of ms per kernel)"
                                   : "every measured run is executed " + std::to_string(passes) +
                                         " times") +
              ". Smaller metric sets are cheaper.");
  }
  if (plan_.restore_memory) {
    checkpoint_ = std::make_unique<CuptiCheckpoint>(context);
    step("checkpoint library");
  }
  profiler_ = std::make_unique<RangeProfiler>(context, [this](std::string_view line) { log_.debug(line); });
  step("enable");
  prime(first_session_ranges(plan_, info.num_configs, opt.runs));
  step("first (empty) session");
  log_.debug("cupti metrics set-up: " + setup);
  callbacks_.subscribe(this);
  listener_token_ = AnnotationRegistry::instance().add_listener(
      [this](bool entering, const std::string& name) { on_annotation(entering, name); });
  hooked_ = true;
}

CounterCollector::~CounterCollector() { shutdown(); }

void CounterCollector::shutdown() noexcept {
  if (hooked_) {
    AnnotationRegistry::instance().remove_listener(listener_token_);
    callbacks_.unsubscribe();
    hooked_ = false;
  }
  profiler_.reset();  // cuptiRangeProfilerDisable
  checkpoint_.reset();  // frees the saved memory
}

void CounterCollector::prepare_pass(const RunId& run, int pass) {
  if (!checkpoint_ || run.warmup) return;
  if (pass == 0) {
    checkpoint_->save();
  } else {
    checkpoint_->restore();
  }
}

void CounterCollector::prime(std::size_t ranges) {
  const auto t0 = Clock::now();
  size_image(ranges);
  profiler_->initialize_image(image_);
  profiler_->set_config(config_, image_, {plan_.user_range, plan_.kernel_replay, capacity_});
  // An empty session (every pass of it, for user replay): its first Start is the expensive one,
  // so that it happens before the runs rather than right before the first measured kernel,
  // which then ran 15-25 % slow on the H200 (the GPU had idled for the Start's ~0.2-0.4 s).
  for (std::size_t pass = 0;; ++pass) {
    profiler_->start();
    if (profiler_->stop().all_passes_submitted) break;
    if (pass > static_cast<std::size_t>(plan_.passes_per_run) + 1) {
      (void)profiler_->decode();
      throw ToolError("The CUPTI range profiler still expects passes after " +
                      std::to_string(pass + 1) + " empty passes of a metric set needing " +
                      std::to_string(plan_.passes_per_run) +
                      ". Report this with a DEBUG log (verbosity kDebug).");
    }
  }
  (void)profiler_->decode();  // leaves the object ready for the first batch's SetConfig
  log_.debug("cupti metrics: first (empty) session set the profiler up for " +
             std::to_string(capacity_) + " ranges per pass in " + fixed(ms_between(t0, Clock::now()), 1) +
             " ms (the first Start after Enable costs ~150 ms + ~0.75 ms per range on an H200)");
}

void CounterCollector::size_image(std::size_t ranges) {
  if (ranges == capacity_ && !image_.empty()) return;
  capacity_ = ranges;
  image_.assign(profiler_->counter_data_size(column_ptrs_, capacity_), 0);
  log_.debug("cupti metrics: counter data image for " + std::to_string(capacity_) + " ranges: " +
             std::to_string(image_.size()) + " bytes");
}

void CounterCollector::ensure_capacity(std::size_t ranges) {
  if (ranges > profiler_->range_capacity()) {
    // The first Start since Enable fixed the capacity (RangeProfiler): only a new object holds
    // more ranges per pass, and its first Start is the expensive one again.
    log_.debug("cupti metrics: " + std::to_string(ranges) + " ranges per batch needed, the profiler holds " +
               std::to_string(profiler_->range_capacity()) + ": enabling a new range profiler object");
    profiler_->reenable();
    prime(2 * ranges);  // room to grow: each new object costs another expensive first Start
  }
  size_image(profiler_->range_capacity());  // a batch uses all of it: it costs nothing more
}

void CounterCollector::on_launch(const LaunchEvent& event) noexcept {
  // The range profiler profiles one context: launches into another one have no range.
  if (event.context && context_ && event.context != context_) return;
  try {
    if (event.entering) {
      // The kernel's name is documented for the launch callbacks; keep the entry's copy in case
      // the exit does not carry it.
      std::lock_guard<std::mutex> lock(mu_);
      if (profiling_ && event.symbol) entry_symbols_[event.correlation_id] = event.symbol;
      return;
    }
    std::string symbol = event.symbol ? event.symbol : "";
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = entry_symbols_.find(event.correlation_id);
      if (it != entry_symbols_.end()) {
        if (symbol.empty()) symbol = std::move(it->second);
        entry_symbols_.erase(it);
      }
    }
    if (!event.succeeded) return;  // count launches that happened
    auto& registry = AnnotationRegistry::instance();
    const auto snap = registry.snapshot();
    const std::string annotation = snap.annotation >= 0 ? registry.name_of(snap.annotation) : "";
    std::lock_guard<std::mutex> lock(mu_);
    if (in_run_) {
      ++run_launches_;
      if (!annotation.empty()) ++session_launches_;
    }
    if (!profiling_) return;
    // A spanning session also sees the launches between runs (the cache flush) and outside
    // annotations: profiled, so they take a range, but never attributed.
    ++cycle_launches_;
    ProfiledLaunch l;
    if (in_run_ && measured_) l.annotation = annotation;
    l.mangled = std::move(symbol);
    l.graph = event.graph;
    l.sequence = ++next_sequence_;
    l.run = run_;
    if (l.graph) graph_in_session_ = true;
    launches_.push_back(std::move(l));
  } catch (...) {
    // Never throw through CUPTI; a launch missing here shows up as a range count mismatch.
  }
}

void CounterCollector::on_annotation(bool entering, const std::string& name) noexcept {
  try {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!in_run_) return;
      if (entering) {
        ++run_annotations_;
        session_launches_ = 0;
      } else {
        max_annotation_launches_ = std::max(max_annotation_launches_, session_launches_);
      }
      if (!measured_ || run_done_ || error_) return;
      if (plan_.user_range && !profiling_) return;
    }
    if (plan_.user_range) {
      if (entering) {
        profiler_->push_range(name);
        std::lock_guard<std::mutex> lock(mu_);
        range_open_ = true;
        pushed_.push_back(name);
      } else {
        bool open = false;
        {
          std::lock_guard<std::mutex> lock(mu_);
          std::swap(open, range_open_);
        }
        if (open) profiler_->pop_range();
      }
    } else if (plan_.scope == SessionScope::kAnnotation) {
      if (entering) {
        start_annotation_session(name);
      } else {
        finish_annotation_session();
      }
    }
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
    stop_open_session();
  }
}

void CounterCollector::open_batch(std::size_t ranges, const RunId& run) {
  batch_start_ns_ = now_ns();
  ensure_capacity(ranges);
  profiler_->initialize_image(image_);
  profiler_->set_config(config_, image_, {plan_.user_range, plan_.kernel_replay, capacity_});
  batch_open_ = true;
  batch_first_ = run;
  batch_last_ = run;
}

void CounterCollector::start_session(const std::string& what) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    launches_.clear();
    entry_symbols_.clear();
    session_what_ = what;
    graph_in_session_ = false;
    profiling_ = true;
  }
  try {
    profiler_->start();
  } catch (...) {
    std::lock_guard<std::mutex> lock(mu_);
    profiling_ = false;
    throw;
  }
  ++sessions_;
}

void CounterCollector::start_annotation_session(const std::string& name) {
  const std::size_t want = std::max(kMinAnnotationRanges, 2 * max_annotation_launches_);
  if (batch_open_ && batch_.size() + want > capacity_)
    decode_batch("the annotations before '" + name + "'");
  if (!batch_open_) {
    open_batch(plan_.decode_per_run ? std::max({want, kMinRunRanges, 2 * max_run_launches_}) : want,
               run_);
  }
  batch_last_ = run_;
  start_session("annotation '" + name + "'");
}

void CounterCollector::finish_annotation_session() {
  std::vector<ProfiledLaunch> launches;
  std::string what;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!profiling_) return;
    profiling_ = false;
    launches.swap(launches_);
    what = session_what_;
  }
  const auto stop = profiler_->stop();
  for (auto& l : launches) batch_.push_back(std::move(l));
  if (!stop.all_passes_submitted) {
    discard_batch(false);
    throw ToolError("The CUPTI range profiler expected more passes for " + what + " (pass index " +
                    std::to_string(stop.pass_index) + " after Stop) although " + plan_.describe() +
                    ". Report this with a DEBUG log (verbosity kDebug).");
  }
  if (!plan_.decode_per_run) decode_batch(what);
}

std::size_t CounterCollector::span_ranges_per_run() const {
  std::lock_guard<std::mutex> lock(mu_);
  // A cycle is a measured run plus what was launched since the previous run ended (the cache
  // flush); before the first profiled cycle only the runs themselves are known, the warm-up runs
  // until a measured run was seen (they may launch far more: autotuning).
  const std::size_t run = max_measured_launches_ > 0 ? max_measured_launches_ : max_run_launches_;
  return 2 * std::max(max_cycle_launches_, run + 1);
}

void CounterCollector::before_span_run(const RunId& run) {
  const std::size_t want = span_ranges_per_run();
  bool open = false;
  std::size_t used = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    open = profiling_;
    used = launches_.size();
  }
  // Warm-up runs are never profiled: they are where autotuning floods, lazy initialisation and
  // CUDA graph capture happen, none of it attributed, all of it able to break the k-th launch =
  // k-th range rule. Closing the span before them costs one Start/Stop pair per config.
  if (open && !run.warmup && used + want <= capacity_) {
    batch_last_ = run;
    return;
  }
  if (open) {
    close_span(false);  // a warm-up run, or the image might not hold this run
  } else {
    discard_batch(false);  // a batch whose Start failed
  }
  if (run.warmup) return;
  open_batch(want, run);
  start_session("a batch of measured runs");
}

void CounterCollector::after_span_run() {
  try {
    rethrow_pending_error();
    std::vector<ProfiledLaunch> launches;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (graph_in_session_) launches = launches_;
    }
    // Fail at the run that launched a graph rather than at the end of the batch.
    if (!launches.empty()) {
      check_no_graph_launch(launches,
                            {batch_first_, device_, "a batch of measured runs", batch_last_});
    }
  } catch (...) {
    stop_open_session();
    throw;
  }
}

void CounterCollector::close_span(bool drop_unfinished_run) {
  std::vector<ProfiledLaunch> launches;
  RunId unfinished;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!profiling_) return;
    profiling_ = false;
    launches.swap(launches_);
    unfinished = run_;
  }
  const auto stop = profiler_->stop();
  for (auto& l : launches) {
    if (drop_unfinished_run && l.run == unfinished) l.annotation.clear();
    batch_.push_back(std::move(l));
  }
  if (!stop.all_passes_submitted) {
    discard_batch(false);
    throw ToolError(
        "The CUPTI range profiler expected more passes after a session of one-pass "
        "metrics (pass index " +
        std::to_string(stop.pass_index) +
        " after Stop). Report this with a DEBUG log (verbosity kDebug).");
  }
  decode_batch("a batch of measured runs");
}

void CounterCollector::decode_batch(const std::string& what) {
  if (!batch_open_) return;
  batch_open_ = false;
  std::vector<ProfiledLaunch> launches;
  launches.swap(batch_);
  const std::size_t dropped = profiler_->decode();
  const auto ranges = evaluate_ranges(false);
  profiler_->set_tracing(false);  // the first batch's steps were printed
  ++batches_;
  profiled_kernels_ += launches.size();
  batch_ms_ += static_cast<double>(now_ns() - batch_start_ns_) / 1e6;
  auto records = attribute_auto_ranges(launches, ranges, dropped, columns_,
                                       {batch_first_, device_, what, batch_last_, capacity_});
  attributed_ += records.size();
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& r : records) pending_.push_back(std::move(r));
}

void CounterCollector::discard_batch(bool stop_first) noexcept {
  batch_.clear();
  if (!batch_open_) return;
  batch_open_ = false;
  try {
    if (stop_first) (void)profiler_->stop();
    (void)profiler_->decode();  // leaves the object ready for the next SetConfig
  } catch (...) {
    // Best effort: the next SetConfig reports a broken object.
  }
}

std::vector<DecodedRange> CounterCollector::evaluate_ranges(bool with_names) {
  const auto t0 = Clock::now();
  const std::size_t n = profiler_->num_ranges(image_);
  std::vector<DecodedRange> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (with_names) out[i].name = profiler_->range_name(image_, i);
    out[i].values.assign(column_ptrs_.size(), 0.0);
    host_->evaluate(image_, i, column_ptrs_, out[i].values.data());
  }
  evaluate_ms_ += ms_between(t0, Clock::now());
  return out;
}

std::vector<std::string> CounterCollector::pass_trace() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> trace;
  if (plan_.user_range) {
    for (const auto& name : pushed_) {
      const auto kernels = std::count_if(launches_.begin(), launches_.end(),
                                         [&](const ProfiledLaunch& l) { return l.annotation == name; });
      trace.push_back("annotation '" + name + "' with " + std::to_string(kernels) + " kernel launch(es)");
    }
  } else {
    for (const auto& l : launches_) {
      trace.push_back("kernel '" + l.mangled + "' " +
                      (l.annotation.empty() ? "outside annotations" : "in annotation '" + l.annotation + "'"));
    }
  }
  return trace;
}

void CounterCollector::before_run(const RunId& run, int pass) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    run_ = run;
    in_run_ = true;
    measured_ = !run.warmup;
    run_launches_ = 0;
    run_annotations_ = 0;
    if (pass == 0) run_done_ = false;
  }
  if (plan_.scope == SessionScope::kSpan) {
    before_span_run(run);
    return;
  }
  if (!measured_ || plan_.scope != SessionScope::kRun || run_done_) return;
  if (pass == 0) {
    open_batch(plan_.user_range ? std::max(kMinUserRanges, 2 * max_run_annotations_)
                                : std::max(kMinRunRanges, 2 * max_run_launches_),
               run);
    first_trace_.clear();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    pushed_.clear();
  }
  start_session(plan_.user_range ? "the annotations of the run" : "the run");
}

void CounterCollector::after_run(const RunId& run, int pass) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_run_ = false;
    max_run_launches_ = std::max(max_run_launches_, run_launches_);
    if (measured_) max_measured_launches_ = std::max(max_measured_launches_, run_launches_);
    max_run_annotations_ = std::max(max_run_annotations_, run_annotations_);
    max_cycle_launches_ = std::max(max_cycle_launches_, cycle_launches_);
    cycle_launches_ = 0;
  }
  if (plan_.scope == SessionScope::kSpan) {
    after_span_run();
    return;
  }
  if (plan_.scope == SessionScope::kAnnotation) {
    stop_open_session();  // an annotation left open: the registry reports its run as failed
    try {
      rethrow_pending_error();
    } catch (...) {
      discard_batch(false);
      throw;
    }
    decode_batch("the annotations of the run");
    return;
  }
  rethrow_pending_error();
  if (!measured_ || run_done_) return;
  bool open = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::swap(open, range_open_);
  }
  if (open) profiler_->pop_range();
  {
    std::lock_guard<std::mutex> lock(mu_);
    profiling_ = false;
  }
  const auto stop = profiler_->stop();
  if (!plan_.user_range) {
    std::lock_guard<std::mutex> lock(mu_);
    check_no_graph_launch(launches_, {run, device_, session_what_});
  }
  const auto trace = pass_trace();
  if (pass == 0) {
    first_trace_ = trace;
  } else {
    check_same_as_first_pass(first_trace_, trace, pass, run,
                             plan_.user_range       ? UserReplay::kRange
                             : plan_.restore_memory ? UserReplay::kCheckpoint
                                                    : UserReplay::kApplication);
  }
  if (!stop.all_passes_submitted) {
    if (pass + 1 < plan_.passes_per_run) return;
    batch_open_ = false;
    (void)profiler_->decode();
    throw ToolError("The CUPTI range profiler still expects passes after " +
                    std::to_string(plan_.passes_per_run) + " executions of config " +
                    std::to_string(run.config) + " run " + std::to_string(run.run) +
                    " (pass index " + std::to_string(stop.pass_index) +
                    "). Report this with a DEBUG log (verbosity kDebug).");
  }
  run_done_ = true;
  batch_open_ = false;
  const std::size_t dropped = profiler_->decode();
  const auto ranges = evaluate_ranges(plan_.user_range);
  std::vector<KernelRecord> records;
  std::size_t kernels = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const SessionPlace place{run, device_, session_what_, std::nullopt, capacity_};
    kernels = launches_.size();
    records = plan_.user_range ? attribute_user_ranges(pushed_, ranges, dropped, columns_, place)
                               : attribute_auto_ranges(launches_, ranges, dropped, columns_, place);
  }
  profiler_->set_tracing(false);
  ++batches_;
  profiled_kernels_ += kernels;
  attributed_ += records.size();
  batch_ms_ += static_cast<double>(now_ns() - batch_start_ns_) / 1e6;
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& r : records) pending_.push_back(std::move(r));
}

void CounterCollector::stop_open_session() noexcept {
  bool open = false, range = false;
  std::vector<ProfiledLaunch> launches;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::swap(open, profiling_);
    std::swap(range, range_open_);
    launches.swap(launches_);
  }
  if (!open || !profiler_) return;
  try {
    if (range) profiler_->pop_range();
    (void)profiler_->stop();
    if (plan_.scope == SessionScope::kAnnotation) {
      // Its ranges are in the image: keep the launches so that the batch still maps. The
      // registry reports the annotation's run as failed, so its values become NaN.
      for (auto& l : launches) batch_.push_back(std::move(l));
    } else {
      discard_batch(false);  // a run or span session: its batch cannot be attributed
    }
  } catch (...) {
    discard_batch(false);
  }
}

void CounterCollector::rethrow_pending_error() {
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::swap(e, error_);
  }
  if (e) std::rethrow_exception(e);
}

std::vector<KernelRecord> CounterCollector::flush() {
  if (plan_.scope == SessionScope::kSpan && batch_open_) {
    bool unfinished = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      unfinished = in_run_;  // only on the Session's error path: the run threw
    }
    if (unfinished || now_ns() - batch_start_ns_ >= kSpanDecodeIntervalNs) close_span(unfinished);
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<KernelRecord> out;
  out.swap(pending_);
  return out;
}

std::vector<KernelRecord> CounterCollector::end() {
  bool failed = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    failed = error_ != nullptr;
  }
  if (plan_.scope == SessionScope::kSpan && !failed) close_span(false);
  stop_open_session();
  discard_batch(false);  // after_run decoded every complete batch
  if (log_.debug_enabled() && profiler_) {
    const double per_kernel =
        profiled_kernels_ ? batch_ms_ / static_cast<double>(profiled_kernels_) : 0;
    std::string steps;
    for (const auto& [call, t] : profiler_->step_times()) {
      steps += "\n  " + call + ": " + std::to_string(t.calls) + " call(s), " +
               fixed(t.milliseconds, 3) + " ms";
    }
    log_.debug("cupti metrics cost: " + std::to_string(profiled_kernels_) +
               " kernel(s) profiled, " + std::to_string(attributed_) +
               " attributed to annotations, in " + std::to_string(sessions_) +
               " CUPTI session(s) (Start..Stop) and " + std::to_string(batches_) +
               " decoded batch(es); " + fixed(batch_ms_, 3) + " ms inside batches (" +
               fixed(per_kernel, 3) +
               " ms per profiled kernel, benchmark included), metric evaluation " +
               fixed(evaluate_ms_, 3) + " ms in total" +
               (checkpoint_ ? "; device memory checkpoint: " + checkpoint_->cost() : "") +
               "; CUPTI calls:" + steps);
  }
  shutdown();
  rethrow_pending_error();
  return flush();
}

void CounterCollector::abort() noexcept {
  stop_open_session();
  shutdown();
}

}  // namespace kscope::cupti
