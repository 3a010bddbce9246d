#include "core/annotation_registry.hpp"

#include "kscope/errors.hpp"

namespace kscope {

AnnotationRegistry& AnnotationRegistry::instance() {
  static AnnotationRegistry registry;
  return registry;
}

int AnnotationRegistry::intern(std::string_view name) {
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  const int id = static_cast<int>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  return id;
}

std::uint64_t AnnotationRegistry::begin(std::string_view name) {
  Listener listener;
  std::uint64_t payload = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ >= 0) {
      throw AnnotationError("Nested annotations are not supported. Cannot enter annotation '" +
                            std::string(name) + "' while another annotation is active ('" +
                            names_[open_] + "' is open).");
    }
    const int id = intern(name);
    if (in_run_) {
      if (used_.count(id) != 0) {
        throw AnnotationError("Annotation name '" + std::string(name) +
                              "' has already been used in this profiling run. Each annotation "
                              "must have a unique name.");
      }
      used_.insert(id);
      log_.entered.emplace_back(name);
    }
    open_ = id;
    payload = nvtx_payload(run_, in_run_);
    listener = listener_;
  }
  if (listener) listener(true, std::string(name));
  return payload;
}

void AnnotationRegistry::end(bool failed) {
  Listener listener;
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ < 0) return;
    name = names_[open_];
    if (failed && in_run_) log_.failed.push_back(name);
    open_ = -1;
    listener = listener_;
  }
  if (listener) listener(false, name);
}

std::string AnnotationRegistry::current_name() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_ >= 0 ? names_[open_] : std::string();
}

AnnotationRegistry::Snapshot AnnotationRegistry::snapshot() {
  std::lock_guard<std::mutex> lock(mu_);
  Snapshot s;
  s.annotation = open_;
  s.in_run = in_run_;
  s.run = run_;
  s.sequence = ++sequence_;
  return s;
}

std::string AnnotationRegistry::name_of(int id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return id >= 0 && id < static_cast<int>(names_.size()) ? names_[id] : std::string();
}

void AnnotationRegistry::start_run(const RunId& run) {
  std::lock_guard<std::mutex> lock(mu_);
  used_.clear();
  in_run_ = true;
  run_ = run;
  log_ = RunLog{};
  log_.run = run;
}

RunLog AnnotationRegistry::finish_run() {
  std::lock_guard<std::mutex> lock(mu_);
  if (open_ >= 0) {
    log_.failed.push_back(names_[open_]);
    open_ = -1;
  }
  in_run_ = false;
  RunLog out = std::move(log_);
  log_ = RunLog{};
  return out;
}

void AnnotationRegistry::set_listener(Listener listener) {
  std::lock_guard<std::mutex> lock(mu_);
  listener_ = std::move(listener);
}

std::uint64_t AnnotationRegistry::nvtx_payload(const RunId& run, bool in_run) {
  if (!in_run || run.warmup) return 0;
  return (std::uint64_t{1} << 63) | ((static_cast<std::uint64_t>(run.config) & 0x7FFFFFFFu) << 32) |
         (static_cast<std::uint64_t>(run.run) & 0xFFFFFFFFu);
}

bool AnnotationRegistry::decode_payload(std::uint64_t payload, RunId* run) {
  if ((payload >> 63) == 0) return false;
  run->config = static_cast<std::size_t>((payload >> 32) & 0x7FFFFFFFu);
  run->run = static_cast<std::size_t>(payload & 0xFFFFFFFFu);
  run->warmup = false;
  return true;
}

}  // namespace kscope
