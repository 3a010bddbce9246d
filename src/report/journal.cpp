#include "report/journal.hpp"


#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/extraction.hpp"
#include "core/info_columns.hpp"
#include "core/telemetry_summary.hpp"
#include "core/transformation.hpp"
#include "kscope/errors.hpp"
#include "report/json_codec.hpp"

namespace kscope::report {

JournalWriter::JournalWriter(const std::string& path, const Results::Data& header) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    throw Error("cannot write the journal '" + path + "': " + std::strerror(errno) +
                ". Choose a writable output_prefix.");
  }
  write_line(header_json(header, "kscope.journal").dump());
}

JournalWriter::~JournalWriter() {
  if (file_) std::fclose(file_);
}

void JournalWriter::write_line(const std::string& line) {
  if (!file_) return;
  std::fputs(line.c_str(), file_);
  std::fputc('\n', file_);
  // fflush hands the line to the kernel, so it survives a crash or Ctrl-C of this process. No
  // fdatasync: on the H200 VM it cost about a millisecond per append, paid on every journal write.
  std::fflush(file_);
}

void JournalWriter::append(const std::vector<RunLog>& runs,
                           const std::vector<KernelRecord>& records) {
  Json runs_json = Json::array();
  for (const auto& r : runs) runs_json.push_back(to_json(r));
  Json records_json = Json::array();
  for (const auto& k : records) records_json.push_back(to_json(k));
  Json line{{"kind", "runs"}, {"runs", runs_json}, {"records", records_json}};
  if (telemetry_source_) line["telemetry"] = telemetry_to_json(telemetry_source_());
  write_line(line.dump());
}

void JournalWriter::close(const std::string& error) {
  if (!file_) return;
  write_line(Json{{"kind", "end"}, {"error", error}}.dump());
  std::fclose(file_);
  file_ = nullptr;
}

Results load_journal(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open journal '" + path + "': " + std::strerror(errno));
  Results::Data d;
  d.journal_path = path;
  d.complete = false;
  std::vector<RunLog> runs;
  std::vector<KernelRecord> records;
  std::vector<RunTelemetry> telemetry;
  std::string line;
  std::size_t line_no = 0;
  bool have_header = false;
  bool combined = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const std::exception&) {
      // A line cut short by a crash ends the usable part of the journal.
      break;
    }
    const std::string kind = j.value("kind", "");
    if (line_no == 1) {
      if (kind != "kscope.journal") {
        throw Error("'" + path + "' is not a kscope journal (first line kind '" + kind + "')");
      }
      header_from_json(j, &d);
      combined = j.at("options").value("combine_kernel_metrics", false);
      have_header = true;
    } else if (kind == "runs") {
      for (const auto& r : j.at("runs")) runs.push_back(run_log_from_json(r));
      for (const auto& k : j.at("records")) records.push_back(kernel_record_from_json(k));
      if (j.contains("telemetry")) {
        for (auto& t : telemetry_from_json(j["telemetry"])) telemetry.push_back(std::move(t));
      }
    } else if (kind == "end") {
      d.complete = j.value("error", "").empty();
    }
  }
  if (!have_header) throw Error("journal '" + path + "' is empty or has no header line");
  ExtractionSettings settings{d.options.metrics, d.options.ignore_kernel_list, {}};
  // Keep only runs the journal knows finished: records of an unfinished run are incomplete.
  std::vector<KernelRecord> finished;
  for (auto& k : records) {
    for (const auto& r : runs) {
      if (r.run == k.run) {
        finished.push_back(std::move(k));
        break;
      }
    }
  }
  try {
    const auto extracted = extract(finished, runs, settings);
    d.raw = build_raw_rows(extracted, d.options.metrics, {}, d.configs);
    d.processed = aggregate(d.raw, d.options.normalize_against);
    d.info_columns = add_info_columns(d.options.info_collectors, runs, d.raw, d.processed);
    add_telemetry_columns(d.processed, summarize_telemetry(telemetry));
    d.telemetry = std::move(telemetry);
  } catch (const ExtractionError& e) {
    throw ExtractionError(std::string(e.what()) + "\n(while loading journal '" + path + "'" +
                          (combined ? "; the session combined kernels with "
                                      "combine_kernel_metrics, a function a journal cannot store"
                                    : "") +
                          ")");
  }
  return Results(std::move(d));
}

}  // namespace kscope::report
