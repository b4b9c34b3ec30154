// The Olympics' events: what each ranks, in which direction, under which constraints, and
// the judging of one entry's figures against every event (qualified, or refused with a
// sentence naming the constraint and the measured value). Also the latency of an entry as a
// ratio to the baseline from the raw samples of one interleaved A/B run.
// Pure: no models, no data. Not for: rebuilding an entry's model (olympics/entry.hpp) or
// ranking a class (olympics/leaderboard.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"

namespace perflab {

// The batch an entry's latency is timed at: one image, single-stream latency (as MLPerf Tiny).
inline constexpr std::size_t kOlympicsBatch = 1;
// The fewest interleaved rounds an entry's timing may hold.
inline constexpr std::size_t kOlympicsMinRounds = 10;
// The most entries one submission may hold.
inline constexpr std::size_t kOlympicsMaxEntries = 20;
// The most fine-tuning epochs one pruning step of an entry may run.
inline constexpr std::size_t kOlympicsMaxFinetuneEpochs = 3;

enum class OlympicsMetric { latency_ratio, parameter_bytes, accuracy, all_around };
// "latency_ratio", "parameter_bytes", "accuracy", "all_around".
const char* olympics_metric_name(OlympicsMetric metric);

struct OlympicsEvent {
  std::string id;       // "latency-sprint"
  std::string name;     // "Latency sprint"
  std::string summary;  // one sentence, no numbers (the constraints carry them)
  OlympicsMetric metric = OlympicsMetric::latency_ratio;
  bool higher_is_better = false;
  double min_accuracy = 0;                        // test accuracy floor (0..1)
  std::optional<double> max_bytes_ratio;          // parameter bytes / baseline's, at most
  std::optional<double> max_latency_ratio_upper;  // the ratio interval's upper end, at most
  std::optional<double> max_latency_ratio_lower;  // the ratio interval's lower end, at most
};

// The five events, in this order: latency-sprint, memory-challenge, accuracy-contest,
// all-around, extreme-push.
const std::vector<OlympicsEvent>& olympics_events();
// The event with this id; ValueError listing the ids otherwise.
const OlympicsEvent& olympics_event(const std::string& id);

// {"events": [{id, name, summary, metric (olympics_metric_name), direction ("lower" |
// "higher"), constraints: [{field, bound ("at least" | "at most"), limit, sentence}], formula}],
// "batch", "min_rounds", "max_entries", "max_finetune_epochs", "all_around_formula"}.
// Constraint fields: "accuracy", "bytes_ratio", "latency_ratio_high", "latency_ratio_low".
nlohmann::json olympics_events_json();

// What an entry measured, or the grader recomputed: test accuracy (0..1), parameter bytes,
// the baseline's, and the latency as a ratio entry / baseline with its 95% interval.
struct OlympicsFigures {
  double accuracy = 0, parameter_bytes = 0;
  double baseline_accuracy = 0, baseline_parameter_bytes = 0;
  double latency_ratio = 1, latency_ratio_low = 1, latency_ratio_high = 1;
};
inline auto json_fields_of(const OlympicsFigures*) {
  using F = OlympicsFigures;
  return std::make_tuple(JsonField{"accuracy", &F::accuracy},
                         JsonField{"parameter_bytes", &F::parameter_bytes},
                         JsonField{"baseline_accuracy", &F::baseline_accuracy},
                         JsonField{"baseline_parameter_bytes", &F::baseline_parameter_bytes},
                         JsonField{"latency_ratio", &F::latency_ratio},
                         JsonField{"latency_ratio_low", &F::latency_ratio_low},
                         JsonField{"latency_ratio_high", &F::latency_ratio_high});
}
// ValueError naming the field (prefixed by `where`) when a figure is out of its range:
// accuracy 0..1, baseline accuracy above 0 up to 1, bytes above 0, ratios above 0 and finite
// with low ≤ ratio ≤ high.
void validate_olympics_figures(const OlympicsFigures& f, const std::string& where = "figures");
// The flat object {accuracy, parameter_bytes, baseline_accuracy, baseline_parameter_bytes,
// latency_ratio, latency_ratio_low, latency_ratio_high}; the reader refuses a missing or
// mistyped field by its path ("figures.latency_ratio is missing") and validates the ranges.
nlohmann::json to_json(const OlympicsFigures& f);
OlympicsFigures olympics_figures_from_json(const nlohmann::json& j, const std::string& where);

// The all-around score (accuracy / baseline accuracy) × √(speedup × compression), speedup
// = 1 / latency ratio, compression = baseline bytes / bytes, at one latency ratio.
double olympics_all_around_score(const OlympicsFigures& f, double latency_ratio);

// One event's verdict on one entry. score is in the event's metric (latency ratio, bytes,
// accuracy or the all-around score), its interval from the latency ratio's (a point for the
// machine-independent metrics), computed whether qualified or not.
struct EventJudgement {
  std::string event;
  bool qualified = false;
  std::vector<std::string> refusals;  // one sentence per broken constraint
  double score = 0, score_low = 0, score_high = 0;
};
// Every event, in olympics_events() order. ValueError from validate_olympics_figures.
std::vector<EventJudgement> judge_olympics_entry(const OlympicsFigures& f);
// {event, qualified, refusals, score, score_interval: [lo, hi]}.
nlohmann::json to_json(const EventJudgement& j);

// The latency of an entry from its timing: a forward A/B of the baseline (A) against the
// entry's model (B) as SessionTable::forward_ab gives it ({"batch", "mode", "a_ms", "b_ms",
// "a_first", ...}; other fields are ignored here). Requires batch kOlympicsBatch, mode
// "interleaved", at least kOlympicsMinRounds rounds, a_ms, b_ms and a_first of one length
// (and "rounds", when present, that length), every sample a positive number of ms. Runs
// analyze_ab with default options (fixed seed) and returns {ratio: median b / median a,
// interval: [lo, hi] (the comparison's bootstrap interval inverted), rounds, batch, sentence,
// warning (the comparison's, "" when none), self_reported: true}. ValueError naming the path
// (`where`.a_ms[3], ...) otherwise.
nlohmann::json olympics_latency(const nlohmann::json& timing, const std::string& where = "timing");

}  // namespace perflab
