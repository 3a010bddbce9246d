#pragma once
// Everything kscope prints goes through a Logger: it applies the verbosity, adds the "[kscope] "
// prefix and knows whether the output is a terminal.

#include <string>
#include <string_view>

#include "kscope/options.hpp"

namespace kscope {

class Logger {
 public:
  explicit Logger(const Options& options);

  [[nodiscard]] bool info_enabled() const { return level_ >= Verbosity::kInfo; }
  [[nodiscard]] bool debug_enabled() const { return level_ >= Verbosity::kDebug; }
  /// Whether in-place redraws (carriage return, ANSI clear) may be used.
  [[nodiscard]] bool interactive() const { return interactive_; }
  /// Options::on_progress: when set, progress goes there instead of being printed.
  [[nodiscard]] const ProgressFn& on_progress() const { return on_progress_; }

  /// "[kscope] text\n" at INFO and above.
  void info(std::string_view text) const;
  /// "[kscope] text\n" at DEBUG.
  void debug(std::string_view text) const;
  /// A warning: to Options::on_warning when set, else "[kscope] warning: text\n" at INFO+.
  void warn(std::string_view text) const;
  /// Raw text (no prefix, no newline) at INFO and above; used by the progress line.
  void raw(std::string_view text) const;
  /// A box around `lines` (the session header), at INFO and above.
  void box(const std::string& title, const std::string& subtitle) const;

 private:
  void write(std::string_view text) const;
  Verbosity level_;
  bool interactive_;
  LogSink sink_;
  std::function<void(std::string_view)> on_warning_;
  ProgressFn on_progress_;
};

}  // namespace kscope
