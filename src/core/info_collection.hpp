#pragma once
// Calls a session's info collectors (include/kscope/info_collector.hpp) at the moments the
// Session names, keeps what they returned for the current run and hands it over with the run's
// RunLog. A collector that throws a std::exception gets an empty value for that call and one
// warning per profile() call ("Info collector 'x' (run scope) raised ...").

#include <mutex>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/logger.hpp"
#include "kscope/info_collector.hpp"

namespace kscope {

class InfoCollection {
 public:
  InfoCollection(const std::vector<InfoCollector>& collectors, const Logger& log);

  [[nodiscard]] bool empty() const { return collectors_.empty(); }

  /// ONCE collectors (once per profile() call).
  void collect_once();
  /// CONFIG collectors, before the config's runs.
  void collect_config(const Config& config);
  /// Before a measured run: RUN collectors, then ANNOTATION collectors are armed for `config`.
  void start_run(const Config& config);
  /// At the entry of annotation `name` (any thread): the ANNOTATION collectors, when armed.
  void enter_annotation(const std::string& name);
  /// After the run: disarms, and moves this run's values into `log` (when not null).
  void finish_run(RunLog* log);

 private:
  InfoValue call(std::size_t index, const InfoCall& call);
  void collect_scope(CollectionScope scope, const Config* config);

  const std::vector<InfoCollector>& collectors_;
  const Logger& log_;
  std::vector<InfoValue> values_;  // ONCE, CONFIG and RUN values of the current run
  std::mutex mu_;                  // guards what follows: annotations may open on any thread
  const Config* armed_ = nullptr;  // config of the current measured run; null: not collecting
  std::vector<AnnotationInfo> annotation_info_;
  std::mutex warn_mu_;
  std::vector<bool> warned_;  // per collector: warned in this profile() call
};

}  // namespace kscope
