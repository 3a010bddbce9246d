// kscope::compare_directories: the results of two directories, one per session, compared as
// two sets (`kscope compare DIR_A DIR_B`, kscope.compare() of two directories; docs/compare.md).
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "kscope/compare.hpp"
#include "kscope/errors.hpp"
#include "report/result_reader.hpp"

namespace kscope {
namespace {

std::vector<Results> load_directory(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_regular_file() && (p.extension() == ".json" || p.extension() == ".jsonl")) {
      files.push_back(p);
    }
  }
  if (ec) throw Error("cannot read the directory '" + directory + "': " + ec.message());
  if (files.empty()) {
    throw Error("'" + directory + "' holds no kscope results (no .json or .jsonl file)");
  }
  std::sort(files.begin(), files.end());
  // Per session: its .json files, and its journals, each with the paths it came from.
  struct Found {
    std::vector<std::pair<std::string, Results>> json, journals;
  };
  std::map<std::string, Found> sessions;
  for (const auto& p : files) {
    Results r = report::load_results(p.string(), report::kCompareTables);
    const std::string name = r.name();
    auto& list = p.extension() == ".json" ? sessions[name].json : sessions[name].journals;
    list.emplace_back(p.string(), std::move(r));
  }
  std::vector<Results> out;
  for (auto& [name, found] : sessions) {
    auto& chosen = found.json.empty() ? found.journals : found.json;
    if (chosen.size() > 1) {
      throw InvalidArgument("'" + directory + "' holds two results of session '" + name + "': '" +
                            chosen[0].first + "' and '" + chosen[1].first +
                            "'; keep one per session, or compare the files");
    }
    out.push_back(std::move(chosen.front().second));
  }
  return out;
}

}  // namespace

Comparison compare_directories(const std::string& base, const std::string& next,
                               const CompareOptions& options) {
  const bool base_dir = std::filesystem::is_directory(base);
  const bool new_dir = std::filesystem::is_directory(next);
  if (!base_dir || !new_dir) {
    const bool one = base_dir || new_dir;
    throw InvalidArgument(
        "BASE and NEW must both be result files or both be directories: " +
        (one ? "'" + (base_dir ? base : next) + "' is a directory, '" + (base_dir ? next : base) +
                   "' is not"
             : std::string("neither is a directory")));
  }
  const std::vector<Results> a = load_directory(base);
  const std::vector<Results> b = load_directory(next);
  Comparison c = compare(a, b, options);
  for (const auto* side : {&a, &b}) {
    for (const auto& r : *side) {
      for (const auto& w : r.load_warnings()) c.warnings.push_back(w);
    }
  }
  c.base_name = base;
  c.new_name = next;
  return c;
}

}  // namespace kscope
