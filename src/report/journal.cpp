#include "report/journal.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>
#include <utility>

#include "core/kernel_spans.hpp"
#include "core/result_tables.hpp"
#include "core/sort_if_needed.hpp"
#include "core/utf8.hpp"
#include "kscope/errors.hpp"
#include "report/journal_compact.hpp"
#include "report/json_codec.hpp"
#include "report/json_tape.hpp"
#include "report/json_text.hpp"
#include "report/result_reader.hpp"

namespace kscope::report {
namespace {

// About what a kernel record takes in a "runs" line.
constexpr std::size_t kRecordBytes = 80;

// A line's "laps" and "spans" members, from append_compact_phases' two lists (each omitted when
// empty), as pieces of the line: views of `laps` and `spans`.
void add_phase_keys(std::vector<std::string_view>& pieces, const std::string& laps,
                    const std::string& spans) {
  if (!laps.empty()) pieces.insert(pieces.end(), {",\"laps\":[", laps, "]"});
  if (!spans.empty()) pieces.insert(pieces.end(), {",\"spans\":[", spans, "]"});
}

// A "names" line, when `names` is one, goes in front of the line that uses its names, in the
// same write: a crash between them leaves the names, which load alone.
void add_names_line(std::vector<std::string_view>& pieces, const std::string& names) {
  if (!names.empty()) pieces.insert(pieces.end(), {names, "\n"});
}

}  // namespace

std::string journal_write_error(const std::string& path, int error) {
  const char* name = error == ENOSPC   ? "ENOSPC"
                     : error == EDQUOT ? "EDQUOT"
                     : error == EROFS  ? "EROFS"
                     : error == EIO    ? "EIO"
                     : error == EFBIG  ? "EFBIG"
                     : error == ENOENT ? "ENOENT"
                                       : nullptr;
  const std::string head = "cannot write the journal '" + path + "': ";
  const std::string code = name ? " (" + std::string(name) + ")" : "";
  if (error == ENOENT) {
    return head + "the file was deleted while the sweep ran" + code +
           ". The sweep stopped; what it measured went with the file. Measure again into an "
           "output_prefix that stays.";
  }
  return head + std::strerror(error) + code +
         ". The sweep stopped; the runs journaled before are kept and load. Free space or "
         "choose another output_prefix, then pass the journal as resume= to measure the rest.";
}

JournalWriter::JournalWriter(const std::string& path, const Results::Data& header) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    throw Error("cannot write the journal '" + path + "': " + std::strerror(errno) +
                ". Choose a writable output_prefix.");
  }
  // Written here, not on the journal's thread: a copy of the options would carry the caller's
  // callbacks there (Python callables take the GIL when a copy goes).
  Json line = header_json(header, "kscope.journal");
  line["schema_version"] = kJournalSchemaVersion;
  write_line(to_text(line));
}

JournalWriter::~JournalWriter() {
  worker_.reset();  // writes what is queued
  if (file_) std::fclose(file_);
}

void JournalWriter::write_line(const std::string& line) { write_pieces({line}); }

void JournalWriter::write_pieces(const std::vector<std::string_view>& pieces) {
  if (!file_) return;
  const long start = std::ftell(file_);  // where the line begins: a failed one is cut off there
  bool ok = start >= 0;
  for (const auto piece : pieces) {
    ok = ok && std::fwrite(piece.data(), 1, piece.size(), file_) == piece.size();
  }
  ok = ok && std::fputc('\n', file_) != EOF;
  // fflush hands the line to the kernel, so it survives a crash or Ctrl-C of this process. No
  // fdatasync: on the H200 VM it cost about a millisecond per append, paid on every journal write.
  ok = ok && std::fflush(file_) == 0;
  if (!ok) fail_write(start, errno);
  // A journal whose file was deleted (its directory removed) loses every line: say so at the
  // next line, not after the sweep.
  struct stat st{};
  if (::fstat(::fileno(file_), &st) == 0 && st.st_nlink == 0) fail_write(start, ENOENT);
}

void JournalWriter::fail_write(long line_start, int error) {
  // The stream's buffer may hold part of the line: the file is closed and cut back to the
  // line's start through a copy of its descriptor, so that no partial line stays on disk.
  const int fd = ::dup(::fileno(file_));
  std::fclose(file_);
  file_ = nullptr;
  if (fd >= 0) {
    if (line_start >= 0) (void)!::ftruncate(fd, line_start);
    ::close(fd);
  }
  throw Error(journal_write_error(path_, error));
}

SerialWorker& JournalWriter::worker() {
  if (!worker_) worker_ = std::make_unique<SerialWorker>();
  return *worker_;
}

void JournalWriter::post(std::function<void()> task) { worker().post(std::move(task)); }

void JournalWriter::wait() {
  if (worker_) worker_->wait();
}

std::optional<std::vector<RunTelemetry>> JournalWriter::telemetry_since_last() const {
  if (!telemetry_source_) return std::nullopt;
  return telemetry_source_();
}

void JournalWriter::add_runs(std::vector<RunLog> runs) {
  std::optional<std::vector<RunTelemetry>> telemetry = telemetry_since_last();
  // Deferred: the journal's thread encodes them when it next looks (within kDeferLatency), so
  // that the sweep's thread pays no wake-up per config (~10 us on a 2-core machine).
  worker().defer([this, runs = std::move(runs), telemetry = std::move(telemetry),
                  phases = std::exchange(phases_, {})] {
    stage(runs, telemetry ? &*telemetry : nullptr, phases);
  });
}

void JournalWriter::stage(const std::vector<RunLog>& runs, const std::vector<RunTelemetry>* telemetry,
                          const std::vector<PhaseSpan>& phases) {
  for (const auto& r : runs) {
    if (!staged_.runs.empty()) staged_.runs += ',';
    append_compact(staged_.runs, r, names_);
  }
  if (telemetry) {
    staged_.has_telemetry = true;
    for (const auto& t : *telemetry) {
      if (!staged_.telemetry.empty()) staged_.telemetry += ',';
      append_compact(staged_.telemetry, t);
    }
  }
  append_compact_phases(staged_.laps, staged_.spans, phases, names_);
}

void JournalWriter::append(const std::vector<RunLog>& runs, RecordSlice records) {
  append(runs, std::move(records), telemetry_since_last());
}

void JournalWriter::append(const std::vector<RunLog>& runs, RecordSlice records,
                           const std::optional<std::vector<RunTelemetry>>& telemetry) {
  post_runs_line(runs, telemetry, std::move(records));
}

void JournalWriter::post_runs_line(std::vector<RunLog> runs,
                                   std::optional<std::vector<RunTelemetry>> telemetry,
                                   RecordSlice records) {
  // The task owns its share of the records: they stay while it reads them, however the caller
  // ends. (Captured by value, not from the references above: a const member would be copied
  // again when the task is moved into the queue.)
  post([this, runs = std::move(runs), telemetry = std::move(telemetry),
        records = std::move(records), phases = std::exchange(phases_, {})] {
    stage(runs, telemetry ? &*telemetry : nullptr, phases);
    write_runs_line(records);
  });
}

void JournalWriter::write_runs_line(const RecordSlice& records) {
  // The line is written piece by piece, the staged runs and phases where they are: a line of a
  // thousand runs is ~0.5 MB, and building it in one string copied it once more over fresh pages.
  std::string records_text;
  records_text.reserve(kRecordBytes * records.size());
  for (const KernelRecord& k : records) {
    if (!records_text.empty()) records_text += ',';
    append_compact(records_text, k, names_);
  }
  const std::string names = names_.take_line();
  std::vector<std::string_view> pieces;
  pieces.reserve(16);
  add_names_line(pieces, names);
  pieces.insert(pieces.end(), {"{\"kind\":\"runs\",\"runs\":[", staged_.runs, "],\"records\":[",
                               records_text, "]"});
  if (staged_.has_telemetry) pieces.insert(pieces.end(), {",\"telemetry\":[", staged_.telemetry, "]"});
  add_phase_keys(pieces, staged_.laps, staged_.spans);
  pieces.emplace_back("}");
  write_pieces(pieces);
  staged_ = {};
}

void JournalWriter::add_phases(const std::vector<PhaseSpan>& spans) {
  phases_.insert(phases_.end(), spans.begin(), spans.end());
}

void JournalWriter::move_to(const std::string& path) {
  wait();
  if (std::rename(path_.c_str(), path.c_str()) != 0) {
    throw Error("cannot rename the journal '" + path_ + "' to '" + path +
                "': " + std::strerror(errno) + ". Choose a writable output_prefix.");
  }
  path_ = path;
}

void JournalWriter::write_now(std::string line) {
  post([this, line = std::move(line)] { write_line(line); });
  wait();
}

void JournalWriter::append_metadata(const Metadata& metadata) {
  write_now(to_text(Json{{"kind", "metadata"}, {"metadata", to_json(metadata)}}));
}

void JournalWriter::append_findings(const std::vector<Finding>& findings) {
  write_now(to_text(Json{{"kind", "findings"}, {"findings", findings_to_json(findings)}}));
}

void JournalWriter::append_failure(const ConfigFailure& failure) {
  write_now(to_text(Json{{"kind", "failed"}, {"failure", to_json(failure)}}));
}

void JournalWriter::config_stopped(const ConfigStop& stop) {
  Json line = to_json(stop);
  line["kind"] = "stop";
  const std::string text = to_text(line);
  post([this, text] { write_line(text); });
}

void JournalWriter::close(const std::string& error) {
  if (closed_) return;
  closed_ = true;
  post([this, error, phases = std::exchange(phases_, {})] {
    std::string line = "{\"kind\":\"end\",\"error\":";
    append_json_string(line, error);
    std::string laps, spans;
    append_compact_phases(laps, spans, phases, names_);
    const std::string names = names_.take_line();
    std::vector<std::string_view> pieces;
    add_names_line(pieces, names);
    pieces.emplace_back(line);
    add_phase_keys(pieces, laps, spans);
    pieces.emplace_back("}");
    write_pieces(pieces);
    std::fclose(file_);
    file_ = nullptr;
  });
}

void JournalWriter::finish() { wait(); }

namespace {

// What the "kind" of a line after the header may be, in schema 1.0 and in 2.0.
constexpr const char* kKinds = "\"runs\", \"metadata\", \"findings\", \"failed\", \"stop\" or \"end\"";
constexpr const char* kCompactKinds =
    "\"names\", \"runs\", \"metadata\", \"findings\", \"failed\", \"stop\" or \"end\"";

// How a journal's lines are read: schema 1.0's objects, or 2.0's arrays with its name tables.
struct LineFormat {
  bool compact = false;
  JournalNameReader names;
};

// A "runs" or "end" line's host phases, ordered by start: schema 1.0's "phase_laps" and
// "phases", 2.0's "laps" and "spans".
template <class F>
std::vector<PhaseSpan> line_phases(const F& line, const LineFormat& format) {
  std::vector<PhaseSpan> laps;
  std::vector<PhaseSpan> spans;
  if (format.compact) {
    if (const auto l = line.find("laps")) laps = compact_laps_from_json(*l, format.names);
    if (const auto p = line.find("spans")) spans = compact_spans_from_json(*p, format.names);
  } else {
    if (const auto l = line.find("phase_laps")) laps = phase_laps_from_json(*l);
    if (const auto p = line.find("phases")) spans = phases_from_json(*p);
  }
  // The laps, then the spans, stably by start: each comes in order, so they are merged.
  const auto by_start = [](const PhaseSpan& a, const PhaseSpan& b) { return a.start_ns < b.start_ns; };
  stable_sort_if_needed(laps, by_start);
  stable_sort_if_needed(spans, by_start);
  if (spans.empty()) return laps;
  std::vector<PhaseSpan> out;
  out.reserve(laps.size() + spans.size());
  std::merge(std::make_move_iterator(laps.begin()), std::make_move_iterator(laps.end()),
             std::make_move_iterator(spans.begin()), std::make_move_iterator(spans.end()),
             std::back_inserter(out), by_start);
  return out;
}

// Reads one "runs" line into `c`; a line that does not follow the schema changes nothing.
template <class F>
void read_runs_line(const F& line, const LineFormat& format, JournalContents* c) {
  const std::size_t configs = c->data.configs.size();
  // Schema 2.0's runs and records are arrays: element 0 is their config.
  const auto check_config = [&](const F& row, std::size_t config) {
    if (format.compact && config >= configs) {
      row.element(0).fail("a config index below " + std::to_string(configs) +
                          " (the number of configs in the header)");
    }
    if (!format.compact) check_config_index(row, config, configs);
  };
  std::vector<RunLog> runs;
  for (const auto& r : line.at("runs").items()) {
    runs.push_back(format.compact ? compact_run_from_json(r, format.names) : run_log_from_json(r));
    check_config(r, runs.back().run.config);
  }
  std::vector<KernelRecord> records;
  for (const auto& k : line.at("records").items()) {
    records.push_back(format.compact ? compact_record_from_json(k, format.names)
                                     : kernel_record_from_json(k));
    check_config(k, records.back().run.config);
  }
  std::vector<RunTelemetry> telemetry;
  if (const auto t = line.find("telemetry")) {
    telemetry = format.compact ? compact_telemetry_from_json(*t) : telemetry_from_json(*t);
  }
  std::vector<PhaseSpan> phases = line_phases(line, format);
  for (auto& p : phases) c->phases.push_back(std::move(p));
  for (auto& r : runs) c->runs.push_back(std::move(r));
  for (auto& k : records) c->records.push_back(std::move(k));
  for (auto& t : telemetry) c->telemetry.push_back(std::move(t));
}

// The records of runs the journal knows finished (a "runs" line names them); the records of an
// unfinished run are incomplete. Linear in records + runs.
std::vector<KernelRecord> finished_records(std::vector<KernelRecord> records,
                                           const std::vector<RunLog>& runs) {
  std::set<RunId> finished;
  for (const auto& r : runs) finished.insert(r.run);
  std::vector<KernelRecord> out;
  out.reserve(records.size());
  for (auto& k : records) {
    if (finished.count(k.run) != 0) out.push_back(std::move(k));
  }
  return out;
}


// Reads line `line_no` (`field`, parsed) into `c`: FileFormatError when it does not follow the
// schema. A TapeField reads it fast or throws TapeMiss, and the line is read again as a tree.
template <class F>
void read_line(const F& field, std::size_t line_no, const std::string& path, LineFormat* format,
               JournalContents* c, bool* ended_ok) {
  Results::Data& d = c->data;
  if (line_no == 1) {
    const auto kind = field.is_object() ? field.find("kind") : std::nullopt;
    if (!kind || !kind->is_string() || kind->template get<std::string>() != "kscope.journal") {
      if constexpr (std::is_same_v<F, TapeField>) {
        throw TapeMiss{};
      } else {
        const Json& j = field.tree();
        throw FileFormatError("is not a kscope journal (expected a first line whose kind is "
                              "\"kscope.journal\", found " +
                              (j.is_object() ? describe(j.value("kind", Json())) : describe(j)) +
                              ")");
      }
    }
    format->compact = header_from_json(field, &d, kJournalSchemaVersion) == 2;
    if (const auto options = field.find("options")) {
      c->combined = options->value("combine_kernel_metrics", false);
    } else {
      // kscope writes them: what resume compares, and what the tables' options show.
      d.load_warnings.push_back("journal '" + path +
                                "': its header (line 1) has no \"options\"; the result "
                                "shows kscope's defaults in their place, and resume cannot "
                                "check that they are the sweep's");
    }
    return;
  }
  const std::string kind = field.at("kind").template get<std::string>();
  if (kind == "runs") {
    read_runs_line(field, *format, c);
  } else if (kind == "names" && format->compact) {
    format->names.read_line(field);
  } else if (kind == "findings") {
    for (auto& f : findings_from_json(field.at("findings"))) d.findings.push_back(std::move(f));
  } else if (kind == "metadata") {
    d.metadata = metadata_from_json(field.at("metadata"));
  } else if (kind == "failed") {
    const auto failure = field.at("failure");
    append_checked(failure, config_failure_from_json(failure), &d.failures, d.configs.size());
  } else if (kind == "stop") {
    append_checked(field, config_stop_from_json(field), &d.stops, d.configs.size());
  } else if (kind == "end") {
    std::vector<PhaseSpan> phases = line_phases(field, *format);
    for (auto& p : phases) c->phases.push_back(std::move(p));
    *ended_ok = field.value("error", std::string()).empty();
  } else {
    field.at("kind").fail(format->compact ? kCompactKinds : kKinds);
  }
}

// How far `c` had got: a line the tape declines is read again as a tree from there.
struct ContentsSize {
  explicit ContentsSize(const JournalContents& c)
      : phases(c.phases.size()), runs(c.runs.size()), records(c.records.size()),
        telemetry(c.telemetry.size()), findings(c.data.findings.size()),
        failures(c.data.failures.size()), stops(c.data.stops.size()) {}
  void restore(JournalContents* c) const {
    c->phases.resize(phases);
    c->runs.resize(runs);
    c->records.resize(records);
    c->telemetry.resize(telemetry);
    c->data.findings.resize(findings);
    c->data.failures.resize(failures);
    c->data.stops.resize(stops);
  }
  std::size_t phases, runs, records, telemetry, findings, failures, stops;
};

}  // namespace

JournalContents read_journal(const std::string& path, bool as_trees) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open journal '" + path + "': " + std::strerror(errno));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
  std::size_t last = lines.size();  // the last non-empty line, 1-based (0: none)
  while (last > 0 && lines[last - 1].empty()) --last;
  if (last == 0 || lines[0].empty()) {
    throw FileFormatError("journal '" + path + "' is empty or has no header line");
  }

  JournalContents c;
  Results::Data& d = c.data;
  LineFormat format;
  std::vector<std::string> skipped;
  bool ended_ok = false;
  JsonTape tape;
  for (std::size_t line_no = 1; line_no <= last; ++line_no) {
    const std::string& line = lines[line_no - 1];
    if (line.empty()) continue;
    const std::string where = "'" + path + "' line " + std::to_string(line_no);
    const auto bad = first_invalid_utf8(line);
    // A last line cut inside a character ends with part of it: that is a cut line (below).
    if (bad && !(line_no == last && line.size() - *bad < 4)) {
      const std::string what = "is not UTF-8 text (byte " + escape_invalid_utf8(line.substr(*bad, 1)) +
                               " at column " + std::to_string(*bad + 1) + ")";
      if (line_no == 1) throw FileFormatError(where + " " + what);
      skipped.push_back("line " + std::to_string(line_no) + " " + what);
      continue;
    }
    if (!as_trees && tape.parse(line)) {
      const ContentsSize before(c);
      try {
        read_line(TapeField(tape, 0), line_no, path, &format, &c, &ended_ok);
        continue;
      } catch (const TapeMiss&) {
        before.restore(&c);
      } catch (const FileFormatError&) {  // the tree's reading says it
        before.restore(&c);
      }
    }
    Json j;
    try {
      j = parse_json(line, path, line_no);
    } catch (const FileFormatError&) {
      if (line_no == 1) throw;
      // A last line cut short: the process ended (or the disk filled) while writing it.
      skipped.push_back("line " + std::to_string(line_no) +
                        (line_no == last ? " is cut short (the process ended while writing it)"
                                         : " is not JSON (cut or corrupted)"));
      continue;
    }
    try {
      read_line(JsonField(j), line_no, path, &format, &c, &ended_ok);
    } catch (const FileFormatError& e) {
      if (line_no == 1) throw FileFormatError(where + " " + e.what());
      skipped.push_back("line " + std::to_string(line_no) + " " + e.what());
    }
  }
  d.journal_path = path;
  d.checked = names_a_checking_tool(d);
  // A journal with skipped lines misses what they held: it is not a complete result.
  d.complete = ended_ok && skipped.empty();
  for (const auto& s : skipped) {
    d.load_warnings.push_back("journal '" + path + "': " + s +
                              " (the line was skipped; the result lacks what it held)");
  }

  c.records = finished_records(std::move(c.records), c.runs);
  return c;
}

bool is_result_file(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  if (!in || !std::getline(in, first) || first.find("\"kscope.journal\"") != std::string::npos) {
    return false;
  }
  // A result kscope wrote reads streamed with every table skipped; anything else as a tree.
  if (read_result_streamed(path, ResultTables{false, false, false, false})) return true;
  const std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Json j = Json::parse(first + "\n" + rest, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.value("kind", Json()) == "kscope.results";
}

Results load_journal(const std::string& path, bool as_trees) {
  JournalContents c = read_journal(path, as_trees);
  Results::Data& d = c.data;
  d.telemetry = std::move(c.telemetry);
  d.timeline.phases = PhaseSpans(c.phases.begin(), c.phases.end());
  std::vector<PhaseSpan>().swap(c.phases);
  d.timeline.kernels = kernel_spans(c.records);
  try {
    build_tables(std::move(c.records), std::move(c.runs), &d);
  } catch (const ExtractionError& e) {
    throw ExtractionError(std::string(e.what()) + "\n(while loading journal '" + path + "'" +
                          (c.combined ? "; the session combined kernels with "
                                        "combine_kernel_metrics, a function a journal cannot store"
                                      : "") +
                          ")");
  }
  return Results(std::move(d));
}

}  // namespace kscope::report
