#pragma once
// Rank 0's view of a sharded sweep: how many configs all ranks have measured, read from the
// ranks' journals when they share the output prefix's file system. Printed at INFO after rank 0's
// configs, at most every few seconds, and once at its end.

#include <chrono>
#include <string>

#include "core/logger.hpp"
#include "core/shard.hpp"

namespace kscope {

class ShardProgress {
 public:
  /// `base_prefix`: the output prefix before the rank was added; the ranks' journals are
  /// <base_prefix>rank<i>-journal-<name>-<id>.jsonl.
  ShardProgress(const Logger& log, const ShardSpec& shard, std::string base_prefix,
                std::string name, int id, std::size_t num_configs, int runs);
  /// After each of rank 0's configs: prints the combined count when a few seconds have passed.
  void update();
  /// At the end of rank 0's part: prints the combined count.
  void finish();
  /// Configs whose every measured run is in a rank's journal, over all ranks.
  [[nodiscard]] std::size_t count() const;

 private:
  void print();
  const Logger& log_;
  ShardSpec shard_;
  std::string base_prefix_, name_;
  int id_;
  std::size_t num_configs_;
  int runs_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace kscope
