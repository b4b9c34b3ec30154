// The Olympics' five events, the judging of an entry's figures against each, and an entry's
// latency ratio from the raw samples of its interleaved A/B run. Every number an event
// uses is written once, in olympics_events(); sentences and JSON are built from it.
#include "perflab/olympics/events.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/suite/model_bench.hpp"

namespace perflab {

namespace {

// "0.50×": a ratio as the events' sentences print it.
std::string times(double ratio) { return format_fixed(ratio, 2) + "×"; }
std::string fixed2(double value) { return format_fixed(value, 2); }

std::string accuracy_constraint(double min_accuracy) {
  return "a test accuracy of at least " + format_number(min_accuracy, 4);
}
std::string bytes_constraint(double ratio) {
  return "parameter bytes at most " + times(ratio) + " the baseline's";
}
std::string upper_constraint(double ratio) {
  return "a latency at most " + times(ratio) +
         " the baseline's (the upper end of the 95% interval)";
}
std::string lower_constraint(double ratio) {
  return std::string(ratio == 1.0 ? "a latency not above the baseline's" : "a latency") +
         ": at most " + times(ratio) + " the baseline's at the lower end of the 95% interval";
}

std::string latency_text(const OlympicsFigures& f) {
  return times(f.latency_ratio) + " (" + fixed2(f.latency_ratio_low) + "-" +
         times(f.latency_ratio_high) + ")";
}

const char* kAllAroundFormula =
    "all-around score = (accuracy / baseline accuracy) × √(speedup × compression), where "
    "speedup = 1 / latency ratio and compression = baseline parameter bytes / parameter "
    "bytes; the baseline scores 1.00, its interval comes from the latency ratio's";

std::string event_formula(const OlympicsEvent& e) {
  switch (e.metric) {
    case OlympicsMetric::latency_ratio:
      return "score = latency ratio: median forward time of the entry / the baseline's, "
             "timed in one interleaved run on one machine (lower is better; two entries "
             "whose 95% intervals overlap tie)";
    case OlympicsMetric::parameter_bytes:
      return "score = parameter bytes as stored (int8 codes and their scales for a "
             "quantized layer), recomputed by the grader (lower is better)";
    case OlympicsMetric::accuracy:
      return "score = test accuracy on the 10,000 test images, recomputed by the grader "
             "(higher is better)";
    case OlympicsMetric::all_around:
      return kAllAroundFormula;
  }
  return "";
}

void check_positive(double v, const std::string& field) {
  if (!(std::isfinite(v) && v > 0)) {
    throw ValueError(field + " must be a finite number above 0, got " + format_number(v, 6));
  }
}

}  // namespace

const char* olympics_metric_name(OlympicsMetric metric) {
  switch (metric) {
    case OlympicsMetric::latency_ratio: return "latency_ratio";
    case OlympicsMetric::parameter_bytes: return "parameter_bytes";
    case OlympicsMetric::accuracy: return "accuracy";
    case OlympicsMetric::all_around: return "all_around";
  }
  return "";
}

const std::vector<OlympicsEvent>& olympics_events() {
  using M = OlympicsMetric;
  static const std::vector<OlympicsEvent> events = {
      {"latency-sprint", "Latency sprint",
       "The fastest single-image forward, as a ratio to the baseline's timed in the same "
       "interleaved run, among models that stay accurate.",
       M::latency_ratio, false, 0.85, std::nullopt, std::nullopt, std::nullopt},
      {"memory-challenge", "Memory challenge",
       "The fewest parameter bytes among accurate models at most half the baseline's size.",
       M::parameter_bytes, false, 0.85, 0.50, std::nullopt, std::nullopt},
      {"accuracy-contest", "Accuracy contest",
       "The best test accuracy at or under the baseline's size and latency.", M::accuracy,
       true, 0.0, 1.00, std::nullopt, 1.00},
      {"all-around", "All-around",
       "The best combined score of speed, size and accuracy, each relative to the baseline.",
       M::all_around, true, 0.80, std::nullopt, std::nullopt, std::nullopt},
      {"extreme-push", "Extreme push",
       "The fastest model that is clearly at least twice as fast as the baseline, with a "
       "lower accuracy floor.",
       M::latency_ratio, false, 0.80, std::nullopt, 0.50, std::nullopt},
  };
  return events;
}

const OlympicsEvent& olympics_event(const std::string& id) {
  std::string ids;
  for (const OlympicsEvent& e : olympics_events()) {
    if (e.id == id) return e;
    ids += (ids.empty() ? "" : ", ") + e.id;
  }
  throw ValueError("unknown Olympics event " + describe(id) + "; the events are " + ids);
}

nlohmann::json olympics_events_json() {
  nlohmann::json events = nlohmann::json::array();
  for (const OlympicsEvent& e : olympics_events()) {
    nlohmann::json constraints = nlohmann::json::array();
    if (e.min_accuracy > 0) {
      constraints.push_back({{"field", "accuracy"},
                             {"bound", "at least"},
                             {"limit", e.min_accuracy},
                             {"sentence", accuracy_constraint(e.min_accuracy)}});
    }
    if (e.max_bytes_ratio) {
      constraints.push_back({{"field", "bytes_ratio"},
                             {"bound", "at most"},
                             {"limit", *e.max_bytes_ratio},
                             {"sentence", bytes_constraint(*e.max_bytes_ratio)}});
    }
    if (e.max_latency_ratio_lower) {
      constraints.push_back({{"field", "latency_ratio_low"},
                             {"bound", "at most"},
                             {"limit", *e.max_latency_ratio_lower},
                             {"sentence", lower_constraint(*e.max_latency_ratio_lower)}});
    }
    if (e.max_latency_ratio_upper) {
      constraints.push_back({{"field", "latency_ratio_high"},
                             {"bound", "at most"},
                             {"limit", *e.max_latency_ratio_upper},
                             {"sentence", upper_constraint(*e.max_latency_ratio_upper)}});
    }
    events.push_back({{"id", e.id},
                      {"name", e.name},
                      {"summary", e.summary},
                      {"metric", olympics_metric_name(e.metric)},
                      {"direction", e.higher_is_better ? "higher" : "lower"},
                      {"constraints", constraints},
                      {"formula", event_formula(e)}});
  }
  return {{"events", events},
          {"batch", kOlympicsBatch},
          {"min_rounds", kOlympicsMinRounds},
          {"max_entries", kOlympicsMaxEntries},
          {"max_finetune_epochs", kOlympicsMaxFinetuneEpochs},
          {"all_around_formula", kAllAroundFormula}};
}

void validate_olympics_figures(const OlympicsFigures& f, const std::string& where) {
  if (!(f.accuracy >= 0 && f.accuracy <= 1)) {
    throw ValueError(where + ".accuracy must be 0 to 1, got " + format_number(f.accuracy, 6));
  }
  if (!(f.baseline_accuracy > 0 && f.baseline_accuracy <= 1)) {
    throw ValueError(where + ".baseline_accuracy must be above 0 and at most 1, got " +
                     format_number(f.baseline_accuracy, 6));
  }
  check_positive(f.parameter_bytes, where + ".parameter_bytes");
  check_positive(f.baseline_parameter_bytes, where + ".baseline_parameter_bytes");
  check_positive(f.latency_ratio, where + ".latency_ratio");
  check_positive(f.latency_ratio_low, where + ".latency_ratio_low");
  check_positive(f.latency_ratio_high, where + ".latency_ratio_high");
  if (!(f.latency_ratio_low <= f.latency_ratio && f.latency_ratio <= f.latency_ratio_high)) {
    throw ValueError(where + ": the latency ratio " + format_number(f.latency_ratio, 6) +
                     " must lie in its interval, latency_ratio_low " +
                     format_number(f.latency_ratio_low, 6) + " to latency_ratio_high " +
                     format_number(f.latency_ratio_high, 6));
  }
}

nlohmann::json to_json(const OlympicsFigures& f) { return write_fields(f); }

OlympicsFigures olympics_figures_from_json(const nlohmann::json& j, const std::string& where) {
  const OlympicsFigures f = read_fields<OlympicsFigures>(j, where);
  validate_olympics_figures(f, where);
  return f;
}

double olympics_all_around_score(const OlympicsFigures& f, double latency_ratio) {
  const double speedup = 1.0 / latency_ratio;
  const double compression = f.baseline_parameter_bytes / f.parameter_bytes;
  return f.accuracy / f.baseline_accuracy * std::sqrt(speedup * compression);
}

std::vector<EventJudgement> judge_olympics_entry(const OlympicsFigures& f) {
  validate_olympics_figures(f);
  const double bytes_ratio = f.parameter_bytes / f.baseline_parameter_bytes;
  std::vector<EventJudgement> out;
  for (const OlympicsEvent& e : olympics_events()) {
    EventJudgement j;
    j.event = e.id;
    if (f.accuracy < e.min_accuracy) {
      j.refusals.push_back(e.id + " needs " + accuracy_constraint(e.min_accuracy) +
                           "; this entry's is " + format_number(f.accuracy, 4));
    }
    if (e.max_bytes_ratio && f.parameter_bytes > *e.max_bytes_ratio * f.baseline_parameter_bytes) {
      const double allowed = std::floor(*e.max_bytes_ratio * f.baseline_parameter_bytes);
      j.refusals.push_back(e.id + " needs " + bytes_constraint(*e.max_bytes_ratio) + " (" +
                           report_number(allowed) + " bytes of " +
                           report_number(f.baseline_parameter_bytes) + "); this entry has " +
                           report_number(f.parameter_bytes) + " (" + times(bytes_ratio) + ")");
    }
    if (e.max_latency_ratio_lower && f.latency_ratio_low > *e.max_latency_ratio_lower) {
      j.refusals.push_back(e.id + " needs " + lower_constraint(*e.max_latency_ratio_lower) +
                           "; this entry's is " + latency_text(f));
    }
    if (e.max_latency_ratio_upper && f.latency_ratio_high > *e.max_latency_ratio_upper) {
      j.refusals.push_back(e.id + " needs " + upper_constraint(*e.max_latency_ratio_upper) +
                           "; this entry's is " + latency_text(f));
    }
    j.qualified = j.refusals.empty();
    switch (e.metric) {
      case OlympicsMetric::latency_ratio:
        j.score = f.latency_ratio;
        j.score_low = f.latency_ratio_low;
        j.score_high = f.latency_ratio_high;
        break;
      case OlympicsMetric::parameter_bytes:
        j.score = j.score_low = j.score_high = f.parameter_bytes;
        break;
      case OlympicsMetric::accuracy:
        j.score = j.score_low = j.score_high = f.accuracy;
        break;
      case OlympicsMetric::all_around:
        // A slower end of the latency interval gives the lower end of the score's.
        j.score = olympics_all_around_score(f, f.latency_ratio);
        j.score_low = olympics_all_around_score(f, f.latency_ratio_high);
        j.score_high = olympics_all_around_score(f, f.latency_ratio_low);
        break;
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json to_json(const EventJudgement& j) {
  return {{"event", j.event},
          {"qualified", j.qualified},
          {"refusals", j.refusals},
          {"score", j.score},
          {"score_interval", {j.score_low, j.score_high}}};
}

nlohmann::json olympics_latency(const nlohmann::json& timing, const std::string& where) {
  if (!timing.is_object()) {
    throw ValueError(where + " must be an object (a forward A/B of the baseline against the "
                             "entry's model), got " + describe(timing));
  }
  const std::size_t batch = json_unsigned(json_member(timing, where, "batch"), where + ".batch",
                                          1000000);
  if (batch != kOlympicsBatch) {
    throw ValueError(where + ".batch is " + std::to_string(batch) +
                     "; an Olympics latency is timed at batch " + std::to_string(kOlympicsBatch));
  }
  const nlohmann::json& mode = json_member(timing, where, "mode");
  if (mode != "interleaved") {
    throw ValueError(where + ".mode is " + describe(mode) +
                     "; an Olympics latency needs \"interleaved\" rounds (the baseline and the "
                     "entry timed in turn, so a machine's drift reaches both)");
  }
  std::vector<double> a_ms, b_ms;
  std::vector<bool> a_first;
  read_json_value(json_member(timing, where, "a_ms"), where + ".a_ms", a_ms, JsonRange::any);
  check_sample_size(static_cast<double>(a_ms.size()), where + ".a_ms");
  read_json_value(json_member(timing, where, "b_ms"), where + ".b_ms", b_ms, JsonRange::any);
  check_sample_size(static_cast<double>(b_ms.size()), where + ".b_ms");
  const nlohmann::json& first = json_member(timing, where, "a_first");
  if (!first.is_array()) throw_json_field_type(first, where + ".a_first", "an array");
  check_sample_size(static_cast<double>(first.size()), where + ".a_first");
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (!first[i].is_boolean()) {
      throw_json_field_type(first[i], where + ".a_first[" + std::to_string(i) + "]",
                            "true or false");
    }
    a_first.push_back(first[i].get<bool>());
  }
  if (a_ms.size() != b_ms.size() || a_ms.size() != a_first.size()) {
    throw ValueError(where + " holds " + std::to_string(a_ms.size()) + " a_ms, " +
                     std::to_string(b_ms.size()) + " b_ms and " +
                     std::to_string(a_first.size()) +
                     " a_first: one of each per round is needed");
  }
  if (timing.contains("rounds")) {
    const std::size_t rounds =
        json_unsigned(timing["rounds"], where + ".rounds", kMaxSampleValues);
    if (rounds != a_ms.size()) {
      throw ValueError(where + ".rounds is " + std::to_string(rounds) + " but the timing holds " +
                       std::to_string(a_ms.size()) + " rounds of samples");
    }
  }
  if (a_ms.size() < kOlympicsMinRounds) {
    throw ValueError(where + " holds " + std::to_string(a_ms.size()) +
                     " rounds; an Olympics latency needs at least " +
                     std::to_string(kOlympicsMinRounds));
  }
  for (const auto* arm : {&a_ms, &b_ms}) {
    const std::string name = where + (arm == &a_ms ? ".a_ms" : ".b_ms");
    for (std::size_t i = 0; i < arm->size(); ++i) {
      check_positive((*arm)[i], name + "[" + std::to_string(i) + "]");
    }
  }
  const AbResult r = analyze_ab(a_ms, b_ms, a_first);
  const Comparison& c = r.comparison;
  // The comparison's ratio is median A / median B (baseline over entry); the entry's latency
  // ratio is its inverse, and the interval's ends swap. The inverse is taken of the
  // comparison's own ratio, not recomputed as median B / median A: that rounds differently,
  // and a ratio equal to an end of its interval then fell just outside it (1 timing in ~300
  // on a 1 ms clock), which judging refuses. A percentile bootstrap interval need not hold
  // its point estimate at all, so the ends are widened to hold it.
  const double ratio = 1.0 / c.ratio;
  const double low = std::min(1.0 / c.ratio_interval.high, ratio);
  const double high = std::max(1.0 / c.ratio_interval.low, ratio);
  const std::string sentence =
      "the entry's forward at batch " + std::to_string(batch) + " took " + times(ratio) +
      " the baseline's time (95% CI " + fixed2(low) + "-" + times(high) + ") over " +
      std::to_string(a_ms.size()) +
      " interleaved rounds on the student's machine (self-reported: only that machine can "
      "measure it)";
  return {{"ratio", ratio},
          {"interval", {low, high}},
          {"rounds", a_ms.size()},
          {"batch", batch},
          {"sentence", sentence},
          {"warning", c.warning},
          {"self_reported", true}};
}

}  // namespace perflab
