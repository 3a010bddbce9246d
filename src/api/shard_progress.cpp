#include "api/shard_progress.hpp"

#include <filesystem>
#include <map>
#include <set>

#include "report/journal.hpp"

namespace kscope {
namespace {
constexpr auto kEvery = std::chrono::seconds(5);
}  // namespace

ShardProgress::ShardProgress(const Logger& log, const ShardSpec& shard, std::string base_prefix,
                             std::string name, int id, std::size_t num_configs, int runs)
    : log_(log),
      shard_(shard),
      base_prefix_(std::move(base_prefix)),
      name_(std::move(name)),
      id_(id),
      num_configs_(num_configs),
      runs_(runs),
      last_(std::chrono::steady_clock::now()) {}

std::size_t ShardProgress::count() const {
  // One listing of the prefix's directory, not a lookup per rank: a sweep may have 10^6 ranks
  // (shard "0/1000000" spent 3 s stating the journals of ranks that never started).
  namespace fs = std::filesystem;
  // "out/" is a directory; "out/run-" a directory and the start of the file names.
  const bool directory = base_prefix_.empty() || base_prefix_.back() == '/';
  const fs::path prefix(base_prefix_);
  fs::path dir = directory ? prefix : prefix.parent_path();
  if (dir.empty()) dir = ".";
  const std::string start = (directory ? std::string() : prefix.filename().string()) + "rank";
  const std::string end = "-journal-" + name_ + "-" + std::to_string(id_) + ".jsonl";
  std::set<std::size_t> done;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), last; !ec && it != last; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (file.size() <= start.size() + end.size() || file.compare(0, start.size(), start) != 0 ||
        file.compare(file.size() - end.size(), end.size(), end) != 0) {
      continue;
    }
    const std::string rank = file.substr(start.size(), file.size() - start.size() - end.size());
    if (rank.size() > 18 || rank.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(rank) >= shard_.count || !it->is_regular_file(ec)) {
      continue;  // another sweep's ranks, or not a journal
    }
    try {
      const auto contents = report::read_journal(it->path().string());
      std::map<std::size_t, int> runs;
      for (const auto& log : contents.runs) {
        if (!log.run.warmup) ++runs[log.run.config];
      }
      for (const auto& [config, n] : runs) {
        if (n >= runs_) done.insert(config);
      }
    } catch (const std::exception&) {
      // A journal being written can end in half a line; the next count reads it whole.
    }
  }
  return done.size();
}

void ShardProgress::print() {
  if (!log_.info_enabled()) return;  // reading every rank's journal is for the line only
  log_.info("All " + std::to_string(shard_.count) + " ranks: " + std::to_string(count()) +
            " of " + std::to_string(num_configs_) + " configs measured");
  last_ = std::chrono::steady_clock::now();
}

void ShardProgress::update() {
  if (std::chrono::steady_clock::now() - last_ >= kEvery) print();
}

void ShardProgress::finish() { print(); }

}  // namespace kscope
