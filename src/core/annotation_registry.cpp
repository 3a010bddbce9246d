#include "core/annotation_registry.hpp"

#include <algorithm>

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

std::vector<AnnotationRegistry::Listener> AnnotationRegistry::listeners() const {
  std::vector<Listener> out;
  out.reserve(listeners_.size());
  for (const auto& entry : listeners_) out.push_back(entry.second);
  return out;
}

void AnnotationRegistry::notify(const std::vector<Listener>& listeners, bool entering,
                                const std::string& name) {
  for (const auto& l : listeners) l(entering, name);
}

void AnnotationRegistry::check_can_open(std::string_view name) const {
  if (open_ >= 0) {
    throw AnnotationError("Nested annotations are not supported. Cannot enter annotation '" +
                          std::string(name) + "' while another annotation is active ('" +
                          names_[open_] + "' is open).");
  }
  if (!in_run_) return;
  const auto it = ids_.find(std::string(name));
  if (it != ids_.end() && used_.count(it->second) != 0) {
    throw AnnotationError("Annotation name '" + std::string(name) +
                          "' has already been used in this profiling run. Each annotation "
                          "must have a unique name.");
  }
}

std::uint64_t AnnotationRegistry::begin(std::string_view name) {
  if (name.empty()) {
    // "" is also what current_name() says when none is open: such a region could never close.
    throw AnnotationError(
        "Invalid annotation name '': an annotation needs a non-empty name (it becomes the "
        "Annotation column).");
  }
  if (const auto nul = name.find('\0'); nul != std::string_view::npos) {
    std::string shown;
    for (char c : name) shown += c == '\0' ? std::string("\\x00") : std::string(1, c);
    throw AnnotationError("Invalid annotation name '" + shown +
                          "': it contains a NUL character (at position " + std::to_string(nul) +
                          "), which NVTX, the tables and CSV cannot carry. Rename it.");
  }
  // The entry hook (ANNOTATION-scope info collectors) runs after the checks and before the
  // annotation opens, so that whatever it launches is not attributed to the annotation.
  EntryHook hook;
  std::function<void(const std::string&)> capture;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_run_ && (entry_hook_ || capture_hooks_.opened)) {
      check_can_open(name);
      hook = entry_hook_;
      capture = capture_hooks_.opened;
    }
  }
  if (hook) hook(std::string(name));
  if (capture) capture(std::string(name));
  std::vector<Listener> listeners;
  std::uint64_t payload = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    check_can_open(name);
    const int id = intern(name);
    if (in_run_) {
      used_.insert(id);
      log_.entered.emplace_back(name);
    }
    open_ = id;
    payload = nvtx_payload(run_, in_run_);
    listeners = this->listeners();
  }
  notify(listeners, true, std::string(name));
  return payload;
}

void AnnotationRegistry::end(bool failed) {
  std::vector<Listener> listeners;
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ < 0) return;
    name = names_[open_];
    if (failed && in_run_) log_.failed.push_back(name);
    open_ = -1;
    listeners = this->listeners();
  }
  notify(listeners, false, name);
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
  std::vector<Listener> listeners;
  std::string left_open;
  RunLog out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ >= 0) {
      left_open = names_[open_];
      log_.failed.push_back(left_open);
      open_ = -1;
      listeners = this->listeners();
    }
    in_run_ = false;
    out = std::move(log_);
    log_ = RunLog{};
  }
  if (!left_open.empty()) notify(listeners, false, left_open);
  return out;
}

std::size_t AnnotationRegistry::add_listener(Listener listener) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::size_t token = next_token_++;
  listeners_.emplace_back(token, std::move(listener));
  return token;
}

void AnnotationRegistry::set_entry_hook(EntryHook hook) {
  std::lock_guard<std::mutex> lock(mu_);
  entry_hook_ = std::move(hook);
}

void AnnotationRegistry::set_capture_hooks(CaptureHooks hooks) {
  std::lock_guard<std::mutex> lock(mu_);
  capture_hooks_ = std::move(hooks);
}

void AnnotationRegistry::closing(bool failed) {
  std::function<void(bool)> hook;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ < 0 || !in_run_) return;
    hook = capture_hooks_.closing;
  }
  if (hook) hook(failed);
}

std::optional<RunId> AnnotationRegistry::current_run() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_run_) return std::nullopt;
  return run_;
}

void AnnotationRegistry::remove_listener(std::size_t token) noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                  [token](const auto& e) { return e.first == token; }),
                   listeners_.end());
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
