#include "api/child_session.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "api/session_tables.hpp"
#include "core/logger.hpp"
#include "core/session.hpp"
#include "cuda/device.hpp"
#include "cuda/gpu_run_environment.hpp"
#include "subprocess/child_collector.hpp"
#include "subprocess/child_report.hpp"
#include "subprocess/error_relay.hpp"

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

  subprocess::ChildReport report;
  try {
    const Logger log(options);
    ChildDevice dev = device(options);
    report.metadata = dev.metadata;
    subprocess::ChildCollector collector;
    Session session(collector, *dev.environment, nullptr, log);
    const std::string dir =
        std::filesystem::path(marker.report_path).parent_path().string();
    SessionInfo info{std::string(name), id, configs.size(), &options, dev.device,
                     dir.empty() ? std::string() : dir + "/"};
    Session::Output out = session.run(info, configs, fn);
    report.runs = std::move(out.runs);
    report.trace = collector.trace();
  } catch (const std::exception& e) {
    report.error = e.what();
    report.error_kind = subprocess::error_kind(e);
  } catch (...) {
    report.error = "unknown exception in the benchmark";
    report.error_kind = "exception";
  }
  end_child_process(report, marker.report_path);
}

}  // namespace kscope
