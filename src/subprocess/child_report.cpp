#include "subprocess/child_report.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kscope/errors.hpp"
#include "report/json_codec.hpp"

namespace kscope::subprocess {
namespace {

using report::Json;
constexpr const char* kKind = "kscope.child_report";

}  // namespace

void write_child_report(const std::string& path, const ChildReport& r) {
  Json runs = Json::array();
  for (const auto& run : r.runs) runs.push_back(report::to_json(run));
  Json trace = Json::array();
  for (const auto& e : r.trace) {
    trace.push_back(Json{{"annotation", e.annotation},
                         {"config", e.run.config},
                         {"run", e.run.run},
                         {"warmup", e.run.warmup}});
  }
  const Json j{{"kind", kKind},         {"runs", runs},
               {"trace", trace},        {"metadata", report::to_json(r.metadata)},
               {"error", r.error},      {"error_kind", r.error_kind},
               {"failures", report::failures_to_json(r.failures)},
               {"session_seconds", r.session_seconds}};
  // Written to a temporary name and renamed, so the parent never reads half a report.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << report::to_text(j) << "\n";
    if (!out) {
      throw Error("cannot write the child report '" + tmp + "': " + std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw Error("cannot move the child report to '" + path + "': " + std::strerror(errno));
  }
}

std::optional<ChildReport> read_child_report(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  try {
    const Json j = Json::parse(text.str());
    if (j.value("kind", "") != kKind) {
      throw Error("'" + path + "' is not a kscope child report");
    }
    ChildReport r;
    for (const auto& run : j.at("runs")) r.runs.push_back(report::run_log_from_json(report::JsonField(run)));
    for (const auto& e : j.at("trace")) {
      r.trace.push_back(AnnotationEntry{
          e.at("annotation").get<std::string>(),
          RunId{e.at("config").get<std::size_t>(), e.at("run").get<std::size_t>(),
                e.at("warmup").get<bool>()}});
    }
    r.metadata = report::metadata_from_json(report::JsonField(j.at("metadata")));
    r.error = j.at("error").get<std::string>();
    r.error_kind = j.at("error_kind").get<std::string>();
    if (j.contains("failures")) {
      for (const auto& f : j.at("failures")) {
        r.failures.push_back(report::config_failure_from_json(report::JsonField(f)));
      }
    }
    r.session_seconds = j.value("session_seconds", 0.0);
    return r;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("cannot read the child report '" + path + "': " + e.what() +
                ". It is written by the re-executed program at the end of its session; a "
                "program that crashed while writing it leaves it incomplete.");
  }
}

}  // namespace kscope::subprocess
