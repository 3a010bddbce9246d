#include "core/logger.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace kscope {
namespace {
constexpr std::string_view kPrefix = "[kscope] ";

// Width in terminal columns of UTF-8 text (each code point counts one).
std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string repeat(std::string_view unit, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += unit;
  return out;
}
}  // namespace

Logger::Logger(const Options& options)
    : level_(options.verbosity),
      sink_(options.log),
      on_warning_(options.on_warning),
      on_progress_(options.on_progress) {
  interactive_ = options.interactive.value_or(!options.log && isatty(STDOUT_FILENO) != 0);
}

void Logger::write(std::string_view text) const {
  if (sink_) {
    sink_(text);
  } else {
    std::cout << text;
    std::cout.flush();
  }
}

void Logger::info(std::string_view text) const {
  if (info_enabled()) write(std::string(kPrefix) + std::string(text) + "\n");
}

void Logger::debug(std::string_view text) const {
  if (debug_enabled()) write(std::string(kPrefix) + std::string(text) + "\n");
}

void Logger::warn(std::string_view text) const {
  if (on_warning_) {
    on_warning_(text);
  } else if (info_enabled()) {
    write(std::string(kPrefix) + "warning: " + std::string(text) + "\n");
  }
}

void Logger::raw(std::string_view text) const {
  if (info_enabled()) write(text);
}

void Logger::box(const std::string& title, const std::string& subtitle) const {
  if (!info_enabled()) return;
  const std::size_t inner = std::max<std::size_t>(76, std::max(columns(title), columns(subtitle)) + 2);
  auto centred = [&](const std::string& s) {
    const std::size_t w = columns(s);
    const std::size_t left = (inner - w) / 2;
    return std::string(kPrefix) + "║" + std::string(left, ' ') + s +
           std::string(inner - w - left, ' ') + "║\n";
  };
  std::string out = std::string(kPrefix) + "╔" + repeat("═", inner) + "╗\n";
  out += centred(title);
  if (!subtitle.empty()) out += centred(subtitle);
  out += std::string(kPrefix) + "╚" + repeat("═", inner) + "╝\n";
  write(out);
}

}  // namespace kscope
