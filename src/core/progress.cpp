#include "core/progress.hpp"

#include "core/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace kscope {
namespace {
constexpr int kBarWidth = 30;
constexpr auto kTerminalRedraw = std::chrono::milliseconds(100);
constexpr auto kPlainLineEvery = std::chrono::seconds(5);
}  // namespace

std::string format_eta(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return "--:--:--";
  auto s = static_cast<long long>(std::llround(seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  return buf;
}

Progress::Progress(const Logger& log, std::size_t num_configs, std::size_t runs_per_config)
    : log_(log),
      num_configs_(num_configs),
      runs_per_config_(runs_per_config),
      total_runs_(num_configs * runs_per_config),
      start_(Clock::now()) {}

std::string Progress::line() const {
  const double frac = total_runs_ == 0 ? 1.0 : static_cast<double>(done_runs_) / total_runs_;
  const int filled = static_cast<int>(frac * kBarWidth);
  std::string bar;
  for (int i = 0; i < kBarWidth; ++i) bar += i < filled ? "█" : "-";
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double eta = done_runs_ == 0 ? -1.0 : elapsed / done_runs_ * (total_runs_ - done_runs_);
  std::string pct = format_fixed(100.0 * frac, 2) + "%";
  if (pct.size() < 7) pct.insert(0, 7 - pct.size(), ' ');  // "%6.2f%%": aligned to 7 columns
  std::string out = "Config " + std::to_string(config_ + 1) + "/" + std::to_string(num_configs_);
  if (!label_.empty()) out += " (" + label_ + ")";
  out += " [" + bar + "] " + pct + " ETA " + format_eta(eta);
  return out;
}

void Progress::draw(bool force) {
  if (!log_.info_enabled()) return;
  const auto now = Clock::now();
  // A display of the caller's or a terminal line is redrawn often; plain lines rarely.
  const bool live = log_.on_progress() || log_.interactive();
  if (!force && (live ? drawn_ && now - last_draw_ < kTerminalRedraw
                      : now - last_draw_ < kPlainLineEvery)) {
    return;
  }
  if (log_.on_progress()) {
    log_.on_progress()(
        ProgressUpdate{config_, num_configs_, done_runs_, total_runs_, label_, finished_});
  } else if (log_.interactive()) {
    // \r + clear-to-end-of-line redraws the one progress line in place.
    log_.raw("\r\033[2K[kscope] " + line());
  } else {
    log_.raw("[kscope] " + line() + "\n");
  }
  drawn_ = true;
  last_draw_ = now;
}

void Progress::start_config(std::size_t index, const std::string& label) {
  config_ = index;
  label_ = label;
  draw(true);
}

void Progress::run_done() {
  ++done_runs_;
  draw(false);
}

void Progress::skip_config() {
  // The failed config's remaining runs will not happen: count it as done.
  const std::size_t config_end = (config_ + 1) * runs_per_config_;
  if (done_runs_ < config_end) done_runs_ = config_end;
  draw(false);
}

void Progress::finish() {
  done_runs_ = total_runs_;
  finished_ = true;
  draw(true);
  if (log_.info_enabled() && log_.interactive() && !log_.on_progress()) log_.raw("\n");
}

}  // namespace kscope
