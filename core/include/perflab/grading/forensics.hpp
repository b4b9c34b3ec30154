// Forensic checks on the measured evidence a submission carries: the rows an
// experiment-backed answer was graded from, the machine probe and the times the file records.
// Each finding is a flag with a code and a sentence naming the numbers; nothing here changes a
// score (a teacher decides). The checks compute over numbers only: the clock's grid under
// every raw sample, rates against the student's own probed roofs, stored statistics against
// what core computes from the row's own samples, and the file's chronology.
// Not for: comparing students with each other (web/src/grading/class.js does), or grading.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace perflab {

// The flag codes, as the re-grade reports them.
inline constexpr const char* kFlagOffGrid = "evidence-off-grid";      // samples between ticks
inline constexpr const char* kFlagUntimed = "evidence-untimed";       // no timer facts beside
inline constexpr const char* kFlagAboveRoof = "evidence-above-roof";  // faster than the probe
inline constexpr const char* kFlagInconsistent =
    "evidence-inconsistent";                                           // rows contradict themselves
inline constexpr const char* kFlagChronology = "evidence-chronology";  // times out of order

// A rate more than this many times the student's own probed roof is flagged: the probe's
// peak is a register-only multiply-add chain, which no kernel beats; the margin absorbs a
// probe taken on a busy machine (measured: a float kernel 1.1-1.3× over a busy probe).
inline constexpr double kRoofMargin = 2.0;
// The bandwidth roof is checked only for working sets this large (beyond any cache a student
// machine has); smaller ones are served from cache, faster than the probed memory bandwidth.
inline constexpr double kMinRoofBytes = 256.0 * 1024 * 1024;
// A browser coarsens performance.now() to whole microseconds (Chromium 5 µs cross-origin
// isolated, 100 µs otherwise; Firefox 20 µs or 1 ms): a recorded resolution of at least
// kMinCoarseTickMs within kTickMatch of a whole number of microseconds is such a grid, and
// every elapsed time (sample × calls per sample) is a whole number of its ticks. A finer or
// uneven resolution (Node, native: the clock is not coarsened) has no grid to check.
inline constexpr double kMinCoarseTickMs = 0.001;
inline constexpr double kTickMatch = 0.001;
// How far from a whole tick an elapsed time may be: rounding of the readings (at most a few
// 1e-6 ticks for a tab open a day) is far below it; a made-up number is almost never within it.
inline constexpr double kTickTolerance = 0.01;
// Stored statistics must equal what core computes from the row's samples within this
// relative difference (the same code on the same numbers gives the same result; the margin
// covers the JSON round trip).
inline constexpr double kStoredRelTolerance = 1e-9;
// Times from the student's clock are compared with this slack (a clock adjusted between a
// run and the export).
inline constexpr double kClockSlackMs = 60'000;

struct EvidenceFlag {
  std::string code;      // one of the kFlag* codes
  std::string exercise;  // the first exercise whose evidence holds it
  std::string reason;    // "benchmarking.aa-false-positives: rows[3].a_ms: ..."
};

// The flags of one submission (the page's version 2 export as JSON: machine.probe,
// exported_at, exercises[id].best_answer.evidence {experiment, rows, finished_at?}). Rows are
// recognised by their fields: an A/B run (a_ms, b_ms), a kernel's samples (samples_ms), a
// timed row's statistics (latency, stats, forward_latency or any nested object with
// median_ms, inner_iterations and resolution_ms), a throughput (samples_per_s), medians
// copied beside their timing (measured_ms, forward_ms), a roofline placement
// (peak_gflops_per_s, bandwidth_gb_per_s), a chain of Linear layers ({linear, in, out}). Evidence
// shared by several exercises is checked once and its flags name every exercise. A field that is
// absent is not checked; a field that is malformed is the grader's to refuse. ValueError when
// `submission` is not an object or its exercises are not an object.
std::vector<EvidenceFlag> evidence_forensics(const nlohmann::json& submission);
// [{code, exercise, reason}]
nlohmann::json evidence_forensics_json(const nlohmann::json& submission);

// The same checks on one piece of evidence outside a submission's exercises (an Olympics
// entry's timing: {rows: [the A/B run], finished_at}): its rows against the clock the file's
// `machine` object records (null: none) and its chronology against `exported_at` (empty:
// not known). One flag per code, as evidence_forensics words it; exercise is empty.
std::vector<EvidenceFlag> evidence_flags(const nlohmann::json& evidence,
                                         const nlohmann::json& machine,
                                         const std::string& exported_at);

// An ISO time as the page writes it (Date.toISOString: "2026-11-26T03:10:00.000Z", seconds
// and milliseconds optional) in milliseconds since 1970, or NaN for any other text.
double iso_time_ms(const std::string& text);

}  // namespace perflab
