#include "collect/cupti/counter_collector.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/annotation_sessions.hpp"
#include "collect/cupti/checkpoint_estimate.hpp"
#include "collect/cupti/counter_batch.hpp"
#include "collect/cupti/cupti_checkpoint.hpp"
#include "collect/cupti/kept_range_profiler.hpp"
#include "collect/cupti/launch_log.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "collect/cupti/metric_catalog.hpp"
#include "collect/cupti/profiler_device.hpp"
#include "collect/cupti/profiler_host.hpp"
#include "collect/cupti/range_profiler.hpp"
#include "collect/cupti/resident_cupti.hpp"
#include "collect/cupti/run_sessions.hpp"
#include "collect/cupti/span_sessions.hpp"
#include "core/annotation_registry.hpp"
#include "core/number_format.hpp"
#include "core/host_clock.hpp"

namespace kscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

// Metric sets needing more passes than this get a warning (sm__throughput alone needs 8).
constexpr std::size_t kManyPasses = 8;

std::string list_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

CounterCollector::CounterCollector(const SessionInfo& info) : log_(*info.options) {
  const Options& opt = *info.options;
  const int device = info.device;
  // Set-up cost by step, printed at DEBUG (it is most of a short sweep's wall time).
  std::string setup;
  auto t = Clock::now();
  auto step = [&](const char* what) {
    const auto now = Clock::now();
    setup += std::string(setup.empty() ? "" : ", ") + what + " " +
             format_significant(milliseconds(now - t), 4) + " ms";
    t = now;
  };
  keep_seconds_ = keep_counters_seconds();  // a bad value is an error before any set-up
  keep_cupti_until_exit();
  ActivityTracer::instance().release();  // kernel records stay off while the range profiler runs
  initialize_profiler();
  check_device_supported(device);
  const std::string chip = device_chip_name(device);
  void* context = primary_context(device);
  step("profiler initialisation");
  const auto availability = counter_availability(context);
  step("counter availability");
  const MetricCatalog catalog(chip, availability);
  step("catalogue");
  const std::vector<std::string> metrics = counter_metrics(opt.metrics);
  catalog.validate(metrics, opt.call_name);
  step("validation");
  MetricColumns columns;
  for (const auto& m : metrics) {
    if (std::find(columns.names.begin(), columns.names.end(), m) != columns.names.end()) continue;
    columns.names.push_back(m);
    columns.units.push_back(catalog.find(m)->unit);
  }
  host_ = std::make_unique<ProfilerHost>(chip, availability);
  step("host object");
  auto config = host_->config_image(columns.names);
  const std::size_t passes = ProfilerHost::num_passes(config);
  step("config image");
  const char* batch_env = std::getenv("KSCOPE_CUPTI_BATCH");
  plan_ = plan_collection(opt.replay_mode, opt.metric_replay, passes, parse_batch_override(batch_env));
  log_.debug("cupti metrics: chip " + chip + ", " + std::to_string(columns.names.size()) +
             " metric(s) [" + list_text(columns.names) + "], " + std::to_string(passes) +
             " replay pass(es), config image " + std::to_string(config.size()) + " bytes");
  log_.debug("cupti metrics: " + plan_.describe() +
             (batch_env && *batch_env ? std::string(" (KSCOPE_CUPTI_BATCH=") + batch_env + ")" : ""));
  if (passes > kManyPasses) {
    log_.warn("the metric set [" + list_text(columns.names) + "] needs " + std::to_string(passes) +
              " replay passes on " + chip + ": " +
              (plan_.kernel_replay ? "every annotated kernel is replayed " + std::to_string(passes) +
                                         " times (tens of ms per kernel)"
                                   : "every measured run is executed " + std::to_string(passes) +
                                         " times") +
              ". Smaller metric sets are cheaper.");
  }
  if (plan_.restore_memory) {
    // Before the first pass: a footprint whose save takes seconds (one that cannot fit twice on
    // the device goes to host memory: 182 s for 3 runs at 110 GB on an H200) is named then.
    const std::size_t measured_runs = info.num_configs * static_cast<std::size_t>(std::max(opt.runs, 1));
    // A copy that goes to host memory is kept and saved over, not allocated there again per run.
    checkpoint_ = std::make_unique<CuptiCheckpoint>(context, [this, measured_runs] {
      const DeviceMemory memory = current_device_memory();
      const std::string warning = checkpoint_warning(memory, measured_runs);
      if (!warning.empty()) log_.warn(warning);
      return estimate_checkpoint(memory).on_host;
    });
    step("checkpoint library");
  }
  const std::size_t first_ranges = first_session_ranges(plan_, info.num_configs, opt.runs);
  key_ = ProfilerKey{context, plan_.user_range, plan_.kernel_replay, first_ranges, config};
  RangeProfilerApi::Trace trace = [this](std::string_view line) { log_.debug(line); };
  profiler_ = take_range_profiler(key_);
  const bool kept = profiler_ != nullptr;
  if (kept) {
    profiler_->start_session(std::move(trace));
    step("kept range profiler");
  } else {
    profiler_ = std::make_unique<RangeProfiler>(context, std::move(trace));
    step("enable");
  }
  launches_ = std::make_unique<LaunchLog>(context);
  batch_ = std::make_unique<CounterBatch>(
      *profiler_, *host_,
      CounterBatch::Setup{std::move(config), std::move(columns), plan_.user_range,
                          plan_.kernel_replay, plan_.passes_per_run, device},
      log_);
  const SessionTools tools{*profiler_, *batch_, *launches_, plan_, device};
  switch (plan_.scope) {
    case SessionScope::kSpan: strategy_ = std::make_unique<SpanSessions>(tools); break;
    case SessionScope::kAnnotation: strategy_ = std::make_unique<AnnotationSessions>(tools); break;
    case SessionScope::kRun: strategy_ = std::make_unique<RunSessions>(tools, checkpoint_.get()); break;
  }
  if (kept) {
    batch_->adopt_profiler_images();
    log_.debug("cupti metrics: the range profiler kept by the previous session is reused (" +
               std::to_string(first_ranges) + " ranges per pass): no Enable, no first session");
  } else {
    batch_->prime(first_ranges);
    step("first (empty) session");
  }
  log_.debug("cupti metrics set-up: " + setup);
  callbacks_.subscribe(launches_.get());
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
  strategy_.reset();
  // The images go with the profiler: CUPTI points to them until Disable, and a kept object's next
  // session must configure it with the same buffers.
  if (batch_) batch_->leave_images_with_profiler();
  batch_.reset();
  if (keep_ && profiler_) {
    try {
      keep_range_profiler(std::move(profiler_), std::move(key_), keep_seconds_);
    } catch (...) {
      // Not kept: disabled below.
    }
  }
  keep_ = false;
  profiler_.reset();    // cuptiRangeProfilerDisable
  checkpoint_.reset();  // frees the saved memory
}

void CounterCollector::on_annotation(bool entering, const std::string& name) noexcept {
  try {
    if (!launches_->note_annotation(entering)) return;
    strategy_->on_annotation(entering, name);
  } catch (...) {
    launches_->fail(std::current_exception());
    strategy_->stop_open_session();
  }
}

void CounterCollector::prepare_pass(const RunId& run, int pass) { strategy_->prepare_pass(run, pass); }

void CounterCollector::before_run(const RunId& run, int pass) {
  launches_->begin_run(run);
  strategy_->before_run(run, pass);
}

void CounterCollector::after_run(const RunId& run, int pass) {
  launches_->end_run();
  strategy_->after_run(run, pass);
}

std::vector<KernelRecord> CounterCollector::flush() {
  if (strategy_) strategy_->flush();
  return batch_ ? batch_->take_records() : std::vector<KernelRecord>{};
}

std::vector<KernelRecord> CounterCollector::end() {
  strategy_->finish(launches_->failed());
  strategy_->stop_open_session();
  batch_->discard(false);  // every complete batch was decoded
  if (log_.debug_enabled()) {
    std::string steps;
    for (const auto& [call, time] : profiler_->step_times()) {
      steps += "\n  " + call + ": " + std::to_string(time.calls) + " call(s), " +
               format_significant(time.milliseconds, 4) + " ms";
    }
    log_.debug("cupti metrics cost: " + batch_->cost() +
               (checkpoint_ ? "; device memory checkpoint: " + checkpoint_->cost() : "") +
               "; CUPTI calls:" + steps);
  }
  auto records = batch_->take_records();
  auto launches = std::move(launches_);  // the pending error outlives the shutdown
  keep_ = decide_keeping(launches->failed());
  shutdown();
  launches->rethrow();
  return records;
}

bool CounterCollector::decide_keeping(bool failed) const {
  if (keep_seconds_ <= 0 || failed) return false;
  if (profiler_->range_capacity() != key_.ranges) {
    log_.debug("cupti metrics: the range profiler is not kept: it grew to " +
               std::to_string(profiler_->range_capacity()) + " ranges per pass during the sweep");
    return false;
  }
  log_.debug("cupti metrics: the range profiler stays enabled for " +
             format_significant(keep_seconds_, 4) +
             " s (KSCOPE_KEEP_COUNTERS_S) for the next metrics sweep of this shape; until then "
             "other processes cannot profile this GPU's counters");
  return true;
}

void CounterCollector::abort() noexcept {
  if (strategy_) strategy_->stop_open_session();
  shutdown();
}

}  // namespace kscope::cupti
