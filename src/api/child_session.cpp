#include "api/child_session.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "api/region_graphs.hpp"
#include "api/session_tables.hpp"
#include "core/logger.hpp"
#include "core/session.hpp"
#include "cuda/device.hpp"
#include "cuda/gpu_run_environment.hpp"
#include "subprocess/child_collector.hpp"
#include "subprocess/child_report.hpp"
#include "subprocess/child_scope.hpp"
#include "subprocess/error_relay.hpp"
#include "subprocess/parent_watch.hpp"

namespace kscope {
namespace {

[[noreturn]] void end_child_process(const subprocess::ChildReport& report,
                                    const std::string& path) {
  int status = report.error.empty() ? 0 : 1;
  try {
    subprocess::write_child_report(path, report);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[kscope] %s\n", e.what());
    status = 1;
  }
  if (!report.error.empty()) std::fprintf(stderr, "[kscope] error: %s\n", report.error.c_str());
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // _Exit: no static destructors or atexit handlers of the user's program run after the marked
  // session, exactly as if the program had stopped there.
  std::_Exit(status);
}

}  // namespace

ChildDevice gpu_child_device(const Options& options) {
  ChildDevice d;
  d.device = cuda::require_device();
  d.metadata = cuda::device_metadata(d.device);
  d.environment = std::make_unique<cuda::GpuRunEnvironment>(d.device, options);
  d.release = [] { cuda::reset_device(); };
  return d;
}

Results run_child_session(const subprocess::ChildMarker& marker, std::string_view name, int id,
                          const std::vector<Config>& configs, const Benchmark& fn,
                          const Options& options, const ChildDeviceFactory& device) {
  if (!marker.matches(name, id)) {
    Results::Data d = session_data(name, id, options, configs);
    d.metadata.tool = options.tool;
    d.complete = false;
    return Results(std::move(d));
  }

  // Killed with the tool that re-runs it (ncu, compute-sanitizer): no orphan keeps the GPU.
  const subprocess::ParentWatch parent_watch;
  subprocess::ChildReport report;
  // The parent may narrow the session down (subprocess/child_scope.hpp; the sanitizer tool).
  subprocess::ChildCollector collector;
  std::vector<Config> selected;
  std::function<void()> release;
  try {
    const subprocess::ChildScope scope = subprocess::ChildScope::from_environment();
    selected = scope.select(configs);
    const Options run_options = scope.apply(options);
    const Logger log(run_options);
    ChildDevice dev = device(run_options);
    if (scope.release_device) release = dev.release;
    report.metadata = dev.metadata;
    if (scope.stop_at > 0) {
      collector.set_boundary_hook([&](std::size_t boundary) {
        if (boundary != scope.stop_at) return;
        // The parent wants what ran before this boundary: let it finish, then end here.
        try {
          dev.environment->synchronize();
        } catch (...) {
        }
        report.trace = collector.trace();
        if (release) release();
        end_child_process(report, marker.report_path);
      });
    }
    Session session(collector, *dev.environment, nullptr, log);
    const auto started = std::chrono::steady_clock::now();
    if (scope.budget_ms > 0) {
      session.set_after_config([&] {
        return std::chrono::steady_clock::now() - started >=
               std::chrono::milliseconds(scope.budget_ms);
      });
    }
    const std::string dir =
        std::filesystem::path(marker.report_path).parent_path().string();
    SessionInfo info{std::string(name), id, selected.size(), &run_options, dev.device,
                     dir.empty() ? std::string() : dir + "/"};
    Session::Output out = session.run(info, selected, session_benchmark(fn, run_options));
    report.session_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report.runs = std::move(out.runs);
    report.failures = std::move(out.failures);
  } catch (const std::exception& e) {
    report.error = e.what();
    report.error_kind = subprocess::error_kind(e);
  } catch (...) {
    report.error = "unknown exception in the benchmark";
    report.error_kind = "exception";
  }
  // Also after an error: the annotations entered until then.
  report.trace = collector.trace();
  if (release) release();
  end_child_process(report, marker.report_path);
}

}  // namespace kscope
