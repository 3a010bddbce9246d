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
  std::set<std::size_t> done;
  for (std::size_t r = 0; r < shard_.count; ++r) {
    const std::string path = base_prefix_ + "rank" + std::to_string(r) + "-journal-" + name_ +
                             "-" + std::to_string(id_) + ".jsonl";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) continue;  // not started, or elsewhere
    try {
      const auto contents = report::read_journal(path);
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
  log_.info("All " + std::to_string(shard_.count) + " ranks: " + std::to_string(count()) +
            " of " + std::to_string(num_configs_) + " configs measured");
  last_ = std::chrono::steady_clock::now();
}

void ShardProgress::update() {
  if (std::chrono::steady_clock::now() - last_ >= kEvery) print();
}

void ShardProgress::finish() { print(); }

}  // namespace kscope
