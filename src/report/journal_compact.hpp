#pragma once
// The lines of a compact journal (schema 2.0, docs/output-schema.md#the-journal): runs, kernel
// records, telemetry and host phases as JSON arrays whose names are indices into the journal's name tables
// (journal_names), numbers in their shortest form. Appended straight to a string as json_text's
// encoders are; read back with the same checks as schema 1.0's objects.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"
#include "kscope/timeline.hpp"
#include "report/journal_names.hpp"
#include "report/json_field.hpp"

namespace kscope::report {

/// [config, run, [entered], [failed]] (annotation indices), then [info values] and
/// [[annotation, [info values]], ...] when the run has them.
void append_compact(std::string& out, const RunLog& r, JournalNameWriter& names);
/// [config, run, annotation, kernel, device, sequence, [metric, value, ...]], then start_ns,
/// end_ns - start_ns (end_ns without a start) and stream when the tool timed the kernel.
void append_compact(std::string& out, const KernelRecord& k, JournalNameWriter& names);
/// [config, run, device, before, after, cooling_wait_s], each reading [sm_clock_mhz,
/// memory_clock_mhz, temperature_c, headroom_c, power_w, clock_event_reasons, age_ms] or null.
void append_compact(std::string& out, const RunTelemetry& t);
/// Host phases: every run of contiguous laps of one execution goes to `laps` as [config, run,
/// start_ns, [phase, duration_ns, ...]] (then warmup, pass when either is set); every other span
/// to `spans` as [phase, config, run, annotation, start_ns, duration_ns] (null where absent;
/// then warmup, pass, part when any is set). Comma-separated elements, no brackets.
void append_compact_phases(std::string& laps, std::string& spans,
                           const std::vector<PhaseSpan>& phases, JournalNameWriter& names);

/// The readers read a JsonField or a TapeField (json_tape.hpp).
template <class F>
[[nodiscard]] RunLog compact_run_from_json(const F& j, const JournalNameReader& names);
template <class F>
[[nodiscard]] KernelRecord compact_record_from_json(const F& j, const JournalNameReader& names);
template <class F>
[[nodiscard]] std::vector<RunTelemetry> compact_telemetry_from_json(const F& j);
/// A line's "laps" and "spans" back as spans, in the order they are listed.
template <class F>
[[nodiscard]] std::vector<PhaseSpan> compact_laps_from_json(const F& j,
                                                            const JournalNameReader& names);
template <class F>
[[nodiscard]] std::vector<PhaseSpan> compact_spans_from_json(const F& j,
                                                             const JournalNameReader& names);

}  // namespace kscope::report
