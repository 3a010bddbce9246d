#include "core/info_collection.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <typeinfo>

namespace kscope {
namespace {

// The failure's type as the warning names it: the binding's type ("ValueError") or the C++
// class ("std::runtime_error").
std::string type_of(const std::exception& e) {
  if (const auto* info = dynamic_cast<const InfoCollectorError*>(&e)) return info->type();
  const char* mangled = typeid(e).name();
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? demangled.get() : mangled;
}

}  // namespace

InfoCollection::InfoCollection(const std::vector<InfoCollector>& collectors, const Logger& log)
    : collectors_(collectors), log_(log), values_(collectors.size()),
      warned_(collectors.size(), false) {}

InfoValue InfoCollection::call(std::size_t index, const InfoCall& call) {
  const InfoCollector& c = collectors_[index];
  const std::string where =
      call.scope == CollectionScope::kAnnotation ? " (" + std::string(call.annotation) + ")" : "";
  try {
    InfoValue value = c.callback(call);
    if (log_.debug_enabled()) log_.debug("Collected " + c.name + where + ": " + value.to_string());
    return value;
  } catch (const std::exception& e) {
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(warn_mu_);
      first = !warned_[index];
      warned_[index] = true;
    }
    if (first) {
      log_.warn("Info collector '" + c.name + "' (" + scope_name(c.scope) + " scope) raised " +
                type_of(e) + ": " + e.what() + ". Its column will be None for failed runs.");
    }
    if (log_.debug_enabled()) {
      log_.debug("Warning: Failed to collect '" + c.name + "'" + where + ": " + e.what());
    }
    return {};
  }
}

void InfoCollection::collect_scope(CollectionScope scope, const Config* config) {
  for (std::size_t i = 0; i < collectors_.size(); ++i) {
    if (collectors_[i].scope == scope) values_[i] = call(i, InfoCall{scope, config, {}});
  }
}

void InfoCollection::collect_once() { collect_scope(CollectionScope::kOnce, nullptr); }

void InfoCollection::collect_config(const Config& config) {
  collect_scope(CollectionScope::kConfig, &config);
}

void InfoCollection::start_run(const Config& config) {
  collect_scope(CollectionScope::kRun, &config);
  std::lock_guard<std::mutex> lock(mu_);
  armed_ = &config;
  annotation_info_.clear();
}

void InfoCollection::enter_annotation(const std::string& name) {
  const Config* config = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    config = armed_;
  }
  if (config == nullptr) return;  // warm-up run, later pass of a replayed run, or no run
  AnnotationInfo entry{name, std::vector<InfoValue>(collectors_.size())};
  for (std::size_t i = 0; i < collectors_.size(); ++i) {
    if (collectors_[i].scope != CollectionScope::kAnnotation) continue;
    entry.values[i] = call(i, InfoCall{CollectionScope::kAnnotation, config, name});
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (armed_ != nullptr) annotation_info_.push_back(std::move(entry));
}

void InfoCollection::finish_run(RunLog* log) {
  std::vector<AnnotationInfo> annotations;
  {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = nullptr;
    annotations.swap(annotation_info_);
  }
  if (log == nullptr) return;
  log->info = values_;
  for (std::size_t i = 0; i < collectors_.size(); ++i) {
    if (collectors_[i].scope == CollectionScope::kRun) values_[i] = InfoValue();
  }
  log->annotation_info = std::move(annotations);
}

}  // namespace kscope
