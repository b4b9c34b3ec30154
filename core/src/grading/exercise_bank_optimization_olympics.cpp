// The Optimization chapter's exercises on the Olympics: which events a drawn entry qualifies
// for, the all-around score from two rows of a run, which of four candidate pipelines wins a
// named event, and an entry's rank when latency intervals overlap. Every answer comes from
// core's olympics module: the events' constraints from olympics_events(), the verdicts and
// scores from judge_olympics_entry (olympics/events.hpp), the ranks from the class
// leaderboard itself (olympics_leaderboard, olympics/leaderboard.hpp), the candidates' names
// from olympics_lineage_text (olympics/entry.hpp); the baseline's bytes from the zoo's
// fashion_mlp and the candidates' from prune_structured and quantize_int8. Feedback says
// right or wrong only (Exercise::feedback_hides_answer).
// Joined into the chapter's list by exercise_bank_optimization.cpp; prose in
// core/exercises/optimization.json. Not for: seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/quantization.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/olympics/leaderboard.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/optimize/structured.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// The test split the grader recomputes accuracy on: accuracies are counts out of it.
constexpr double kTestImages = 10'000;

// The baseline's parameter bytes: the zoo's fashion_mlp, float32.
double baseline_bytes() {
  static const double bytes = [] {
    return static_cast<double>(model_from_json(zoo_spec("fashion_mlp")).parameter_count() *
                               sizeof(float));
  }();
  return bytes;
}

// The events' bounds as core states them, read once: the lowest and highest accuracy floors
// in use, the tightest bytes cap, the bound on the interval's upper end and on its lower end.
struct EventBounds {
  double low_floor = 1, high_floor = 0;
  double bytes_cap = 1;
  double upper_cap = 1, lower_cap = 0;
};

EventBounds event_bounds() {
  EventBounds b;
  for (const OlympicsEvent& e : olympics_events()) {
    if (e.min_accuracy > 0) {
      b.low_floor = std::min(b.low_floor, e.min_accuracy);
      b.high_floor = std::max(b.high_floor, e.min_accuracy);
    }
    if (e.max_bytes_ratio) b.bytes_cap = std::min(b.bytes_cap, *e.max_bytes_ratio);
    if (e.max_latency_ratio_upper) b.upper_cap = *e.max_latency_ratio_upper;
    if (e.max_latency_ratio_lower) b.lower_cap = *e.max_latency_ratio_lower;
  }
  if (!(b.low_floor < b.high_floor && b.upper_cap < b.lower_cap && b.bytes_cap < 1)) {
    throw Error(
        "the Olympics exercises draw entries around two accuracy floors, a bytes cap "
        "below the baseline's and an upper-end bound below the lower-end one; "
        "olympics_events() no longer has them");
  }
  return b;
}

// Which events the figures qualify for, one bit per event in olympics_events() order.
unsigned qualified_mask(const OlympicsFigures& f) {
  unsigned mask = 0;
  const std::vector<EventJudgement> verdicts = judge_olympics_entry(f);
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (verdicts[i].qualified) mask |= 1u << i;
  }
  return mask;
}

// "Latency sprint, Accuracy contest and All-around": the events of a mask, by core's names.
std::string events_text(unsigned mask, const Fragments& fragments) {
  std::vector<std::string> names;
  const auto& events = olympics_events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (mask & (1u << i)) names.push_back(events[i].name);
  }
  if (names.empty()) return fragments.render("no-event", json::object());
  std::string text = names.front();
  for (std::size_t i = 1; i < names.size(); ++i) {
    text += (i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return text;
}

// A latency interval as the events read it: the ratio and its 95% interval's ends, to two
// decimals (as the page prints ratios).
struct Latency {
  double ratio = 1, low = 1, high = 1;
};

// A ratio as the page prints it, to two decimals: "0.50".
std::string two_decimals(double x) { return format_fixed(x, 2); }

// A row of figures as a prompt shows it: its ratio and interval ends to two decimals.
json shown_ratios(json row) {
  for (const char* key : {"ratio", "low", "high"})
    row[key] = two_decimals(row.at(key).get<double>());
  return row;
}

OlympicsFigures figures_of(double accuracy, double bytes, double baseline_accuracy,
                           const Latency& l) {
  OlympicsFigures f;
  f.accuracy = accuracy;
  f.parameter_bytes = bytes;
  f.baseline_accuracy = baseline_accuracy;
  f.baseline_parameter_bytes = baseline_bytes();
  f.latency_ratio = l.ratio;
  f.latency_ratio_low = l.low;
  f.latency_ratio_high = l.high;
  return f;
}

// An accuracy as a count of the test images over their number: four decimals.
double accuracy_of(double x) { return std::round(x * kTestImages) / kTestImages; }

// The baseline's test accuracy: near the pretrained fashion_mlp's, drawn so that no figure
// can be copied off the page.
double draw_baseline_accuracy(Rng& rng) {
  return static_cast<double>(rng.integer(8850, 9020)) / kTestImages;
}

// ---- optimization.olympics-qualify ----------------------------------------------------

// Where the drawn latency interval sits against the two latency bounds: wholly under the
// upper-end bound; its ratio under it but its upper end above (the point says "twice as
// fast", the interval does not); between the bounds; its ratio above the lower-end bound but
// its lower end under it (the point says "slower", the interval allows "not slower"); wholly
// above.
enum class LatencyPlace { clear_fast, straddles_upper, between, straddles_lower, slower };

Latency draw_latency(Rng& rng, LatencyPlace place, const EventBounds& b) {
  const auto hundredths = [&](double lo, double hi) {
    return static_cast<double>(rng.integer(static_cast<std::int64_t>(std::ceil(lo * 100)),
                                           static_cast<std::int64_t>(std::floor(hi * 100)))) /
           100;
  };
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Latency l;
    switch (place) {
      case LatencyPlace::clear_fast:
        l.high = hundredths(b.upper_cap * 0.6, b.upper_cap);
        l.ratio = l.high - hundredths(0.01, 0.06);
        l.low = l.ratio - hundredths(0.01, 0.06);
        break;
      case LatencyPlace::straddles_upper:
        l.ratio = hundredths(b.upper_cap - 0.05, b.upper_cap);
        l.high = std::max(l.ratio, b.upper_cap) + hundredths(0.01, 0.06);
        l.low = l.ratio - hundredths(0.01, 0.06);
        break;
      case LatencyPlace::between:
        l.ratio = hundredths(b.upper_cap + 0.08, b.lower_cap - 0.08);
        l.high = l.ratio + hundredths(0.01, 0.07);
        l.low = l.ratio - hundredths(0.01, 0.07);
        break;
      case LatencyPlace::straddles_lower:
        l.ratio = hundredths(b.lower_cap + 0.01, b.lower_cap + 0.05);
        l.low = std::min(l.ratio, b.lower_cap) - hundredths(0.0, 0.05);
        l.high = l.ratio + hundredths(0.01, 0.06);
        break;
      case LatencyPlace::slower:
        l.low = hundredths(b.lower_cap + 0.01, b.lower_cap + 0.4);
        l.ratio = l.low + hundredths(0.01, 0.06);
        l.high = l.ratio + hundredths(0.01, 0.06);
        break;
    }
    l = {round_to(l.ratio, 2), round_to(l.low, 2), round_to(l.high, 2)};
    if (l.low > 0 && l.low <= l.ratio && l.ratio <= l.high) return l;
  }
  throw Error("optimization.olympics-qualify: no latency interval after 1000 draws");
}

VariantData draw_olympics_qualify(Rng& rng, const Fragments& fragments, const ChoiceTry&) {
  const EventBounds b = event_bounds();
  const double baseline_accuracy = draw_baseline_accuracy(rng);
  // Accuracy under the lower floor, between the floors, or at or above the higher one
  // (sometimes exactly on a floor: "at least" includes it).
  double accuracy = 0;
  switch (rng.integer(0, 2)) {
    case 0:
      accuracy = b.low_floor - static_cast<double>(rng.integer(1, 400)) / kTestImages;
      break;
    case 1:
      accuracy = rng.integer(0, 5) == 0
                     ? b.low_floor
                     : b.low_floor + static_cast<double>(rng.integer(1, 499)) / kTestImages;
      break;
    default:
      accuracy =
          rng.integer(0, 5) == 0
              ? b.high_floor
              : std::min(b.high_floor + static_cast<double>(rng.integer(1, 450)) / kTestImages,
                         baseline_accuracy);
  }
  accuracy = accuracy_of(accuracy);
  // Parameter bytes under or over the tightest cap, as a share of the baseline's.
  const bool small = rng.integer(0, 1) == 1;
  const double share =
      small ? rng.uniform(0.1, b.bytes_cap - 0.005) : rng.uniform(b.bytes_cap + 0.005, 0.97);
  const double bytes = std::round(share * baseline_bytes());
  const auto place = static_cast<LatencyPlace>(rng.integer(0, 4));
  const Latency latency = draw_latency(rng, place, b);

  const OlympicsFigures f = figures_of(accuracy, bytes, baseline_accuracy, latency);
  const unsigned right = qualified_mask(f);
  // The other choices make a square with the right set: it with one event toggled (in or out),
  // with another toggled, and with both, so that no set stands out by its distance to the
  // others (a set one event away from all three others would give itself away). The two
  // events come from the usual misreadings where one lands one or two events away (the
  // ratio for both ends, one end for both bounds, the accuracy taken relative to the
  // baseline's), else at random.
  std::vector<unsigned> misread;
  for (double end : {latency.ratio, latency.low, latency.high}) {
    misread.push_back(
        right ^ qualified_mask(figures_of(accuracy, bytes, baseline_accuracy, {end, end, end})));
  }
  misread.push_back(right ^ qualified_mask(figures_of(std::min(1.0, accuracy / baseline_accuracy),
                                                      bytes, baseline_accuracy, latency)));
  shuffle(misread, rng);
  const auto events = static_cast<std::int64_t>(olympics_events().size());
  const auto bits = [](unsigned x) { return std::popcount(x); };
  unsigned toggle_a = 0, toggle_b = 0;
  for (unsigned d : misread) {
    if (bits(d) == 2 && toggle_a == 0) {
      toggle_a = d & (~d + 1);  // its lowest event
      toggle_b = d ^ toggle_a;
    }
  }
  for (unsigned d : misread) {
    if (bits(d) != 1 || d == toggle_a || d == toggle_b) continue;
    if (toggle_a == 0) {
      toggle_a = d;
    } else if (toggle_b == 0) {
      toggle_b = d;
    }
  }
  while (toggle_a == 0 || toggle_a == toggle_b) toggle_a = 1u << rng.integer(0, events - 1);
  while (toggle_b == 0 || toggle_b == toggle_a) toggle_b = 1u << rng.integer(0, events - 1);
  std::vector<unsigned> shown = {right, right ^ toggle_a, right ^ toggle_b,
                                 right ^ toggle_a ^ toggle_b};
  shuffle(shown, rng);
  VariantData v;
  v.params = {{"accuracy", accuracy},
              {"baseline_accuracy", baseline_accuracy},
              {"bytes", static_cast<std::int64_t>(bytes)},
              {"baseline_bytes", static_cast<std::int64_t>(baseline_bytes())},
              {"latency", {latency.ratio, latency.low, latency.high}},
              {"ratio", two_decimals(latency.ratio)},
              {"low", two_decimals(latency.low)},
              {"high", two_decimals(latency.high)}};
  const char* const names[] = {"set_a", "set_b", "set_c", "set_d"};
  for (std::size_t i = 0; i < shown.size(); ++i) {
    v.params[names[i]] = events_text(shown[i], fragments);
    if (shown[i] == right) v.correct_choice = static_cast<int>(i);
  }
  return v;
}

// ---- optimization.olympics-score ------------------------------------------------------

// The score of the event whose metric is the all-around score, by judge_olympics_entry.
double all_around_of(const OlympicsFigures& f) {
  const auto& events = olympics_events();
  const std::vector<EventJudgement> verdicts = judge_olympics_entry(f);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].metric == OlympicsMetric::all_around) return verdicts[i].score;
  }
  throw Error("optimization.olympics-score: olympics_events() has no all-around event");
}

// Far enough from the answer that the tolerance (1%) cannot take one for the other.
bool apart(double wrong, double right) { return std::fabs(wrong - right) > 0.03 * right; }

VariantData draw_olympics_score(Rng& rng, const Fragments&) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const double baseline_accuracy = draw_baseline_accuracy(rng);
    const double accuracy =
        accuracy_of(baseline_accuracy - static_cast<double>(rng.integer(-30, 900)) / kTestImages);
    const double bytes = std::round(rng.uniform(0.08, 0.9) * baseline_bytes());
    // Medians per single-image forward, three decimals of a millisecond; means pulled up by
    // the slow rounds every run has, by different amounts in the two arms.
    const double a_median = static_cast<double>(rng.integer(60, 600)) / 1000;
    const double b_median = std::max(0.01, round_to(a_median * rng.uniform(0.15, 1.4), 3));
    const double a_mean = round_to(a_median * rng.uniform(1.02, 1.3), 3);
    const double b_mean = round_to(b_median * rng.uniform(1.02, 1.3), 3);
    const double ratio = b_median / a_median;
    const OlympicsFigures f = figures_of(accuracy, bytes, baseline_accuracy, {ratio, ratio, ratio});
    const double score = all_around_of(f);
    // The usual slips must fall outside the tolerance: the latency ratio where the speedup
    // belongs, the means instead of the medians, no square root, the accuracy not relative
    // to the baseline's, the compression upside down.
    const double mean_ratio = b_mean / a_mean;
    const OlympicsFigures by_means =
        figures_of(accuracy, bytes, baseline_accuracy, {mean_ratio, mean_ratio, mean_ratio});
    const double compression = baseline_bytes() / bytes;
    const double relative = accuracy / baseline_accuracy;
    if (!apart(relative * std::sqrt(ratio * compression), score) ||
        !apart(all_around_of(by_means), score) || !apart(relative * compression / ratio, score) ||
        !apart(accuracy * std::sqrt(compression / ratio), score) ||
        !apart(relative * std::sqrt(1 / (ratio * compression)), score)) {
      continue;
    }
    VariantData v;
    v.params = {{"a_median_ms", a_median},
                {"a_mean_ms", a_mean},
                {"b_median_ms", b_median},
                {"b_mean_ms", b_mean},
                {"rounds", rng.integer(12, 40)},
                {"accuracy", accuracy},
                {"baseline_accuracy", baseline_accuracy},
                {"bytes", static_cast<std::int64_t>(bytes)},
                {"baseline_bytes", static_cast<std::int64_t>(baseline_bytes())}};
    v.expected_value = score;
    return v;
  }
  throw Error(
      "optimization.olympics-score: no variant that tells the slips apart after 1000 draws");
}

// ---- ranks by the leaderboard ----------------------------------------------------------

// Each entry's rank in the event `e` (index into olympics_events()), every entry a student of
// its own, by the class leaderboard itself (olympics_leaderboard: a latency-based score beats
// another only when the intervals do not overlap; equal deterministic scores tie); 0 for an
// entry that does not qualify. The checks hold what the leaderboard reads of a checker's.
std::vector<int> event_ranks(std::size_t e, const std::vector<OlympicsFigures>& entries) {
  json rows = json::array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const OlympicsFigures& f = entries[i];
    json events = json::array();
    for (const EventJudgement& j : judge_olympics_entry(f)) {
      json verdict = to_json(j);
      verdict["entered"] = true;
      events.push_back(std::move(verdict));
    }
    const std::string id = "entry-" + std::to_string(i);
    rows.push_back({{"student", id},
                    {"check",
                     {{"entry", id},
                      {"name", id},
                      {"valid", true},
                      {"lineage_text", id},
                      {"accuracy", f.accuracy},
                      {"parameter_bytes", f.parameter_bytes},
                      {"bytes_ratio", f.parameter_bytes / f.baseline_parameter_bytes},
                      {"latency",
                       {{"ratio", f.latency_ratio},
                        {"interval", {f.latency_ratio_low, f.latency_ratio_high}}}},
                      {"events", events},
                      {"flags", json::array()}}}});
  }
  const json board = olympics_leaderboard(rows);
  std::vector<int> ranks(entries.size(), 0);
  for (const json& row : board.at("events").at(e).at("rows")) {
    const std::string student = row.at("student");
    ranks.at(std::stoul(student.substr(std::string("entry-").size()))) = row.at("rank").get<int>();
  }
  return ranks;
}

// ---- optimization.olympics-choose -----------------------------------------------------

// The candidates' pipelines: a structured prune of one of these fractions with some epochs
// of fine-tuning, and/or an int8 quantize.
constexpr double kPruneFractions[] = {0.25, 0.5, 0.75, 0.9};
// The page's training subset: what a fine-tuning and a calibration read.
constexpr std::size_t kTrainImages = 12'000;
constexpr std::size_t kCalibrationImages = 512;

std::vector<OlympicsStep> pipeline_of(double fraction, std::size_t epochs, bool int8,
                                      Calibration calibration) {
  std::vector<OlympicsStep> steps;
  if (fraction > 0) {
    OlympicsStep prune;
    prune.fraction = fraction;
    prune.finetune_epochs = epochs;
    prune.train_images = epochs > 0 ? kTrainImages : 0;
    steps.push_back(prune);
  }
  if (int8) {
    OlympicsStep quantize;
    quantize.transform = OlympicsTransform::quantize;
    quantize.calibration = calibration;
    quantize.calibration_images = kCalibrationImages;
    quantize.train_images = kCalibrationImages;
    steps.push_back(quantize);
  }
  return steps;
}

// What a pipeline's model keeps of the baseline's: its parameter bytes (int8 codes, scales
// and float32 biases once quantized) and its forward FLOPs as a share of the baseline's.
struct Shrunk {
  double bytes = 0, flops_share = 1;
};

// fashion_mlp pruned by `fraction` (0: not pruned) and maybe quantized, by core's own
// transforms; the sizes depend on the shapes only, so the zoo's untrained weights do.
Shrunk shrunk(double fraction, bool int8) {
  Model base = model_from_json(zoo_spec("fashion_mlp"));
  Shrunk out;
  std::optional<StructuredPrune> p;
  if (fraction > 0) {
    p = prune_structured(base, fraction);
    out.flops_share = p->report.flops_after / p->report.flops_before;
  }
  Model& pruned = p ? p->model : base;
  if (!int8) {
    out.bytes = static_cast<double>(pruned.parameter_count() * sizeof(float));
    return out;
  }
  LabeledImages blank;  // calibration reads one image; the bytes do not depend on it
  blank.count = 1;
  blank.rows = blank.cols = 28;
  blank.pixels.assign(28 * 28, 0);
  blank.labels = {0};
  Quantization q = quantize_int8(pruned, blank, Preprocessing{}, 1, Calibration::MinMax);
  out.bytes = static_cast<double>(quantized_parameter_bytes(pruned, q));
  return out;
}

// shrunk() for every fraction (and none) with and without int8, computed once.
const Shrunk& shrunk_of(double fraction, bool int8) {
  static const std::vector<Shrunk> table = [] {
    std::vector<Shrunk> t;
    for (bool q : {false, true}) {
      t.push_back(shrunk(0, q));
      for (double f : kPruneFractions) t.push_back(shrunk(f, q));
    }
    return t;
  }();
  std::size_t i = 0;
  while (i < std::size(kPruneFractions) && kPruneFractions[i] != fraction) ++i;
  const std::size_t column = fraction == 0 ? 0 : i + 1;
  return table[(int8 ? std::size(kPruneFractions) + 1 : 0) + column];
}

struct Candidate {
  std::vector<OlympicsStep> pipeline;
  double accuracy = 0, bytes = 0;
  Latency latency;
};

// A plausible candidate: the accuracy a prune of this size loses (most of it won back by
// fine-tuning), a little more for int8; a latency near the share of FLOPs kept plus the
// fixed cost of a forward, int8's kernels faster or slower depending on the machine.
Candidate draw_candidate(Rng& rng, double baseline_accuracy) {
  static const double lost_raw[][2] = {{0.01, 0.05}, {0.06, 0.15}, {0.2, 0.4}, {0.4, 0.6}};
  static const double lost_tuned[][2] = {{0.0, 0.012}, {0.005, 0.03}, {0.02, 0.06}, {0.04, 0.1}};
  const auto which = rng.integer(-1, static_cast<std::int64_t>(std::size(kPruneFractions)) - 1);
  const double fraction = which < 0 ? 0.0 : kPruneFractions[which];
  const auto epochs = which < 0 ? std::size_t{0} : static_cast<std::size_t>(rng.integer(0, 3));
  const bool int8 = which < 0 || rng.integer(0, 1) == 1;
  const Calibration calibration = rng.integer(0, 1) ? Calibration::Percentile : Calibration::MinMax;
  Candidate c;
  c.pipeline = pipeline_of(fraction, epochs, int8, calibration);
  double lost = 0;
  if (which >= 0) {
    const auto k = static_cast<std::size_t>(which);
    lost = epochs == 0 ? rng.uniform(lost_raw[k][0], lost_raw[k][1])
                       : rng.uniform(lost_tuned[k][0], lost_tuned[k][1]) /
                             (1 + 0.3 * static_cast<double>(epochs - 1));
  }
  if (int8) lost += rng.uniform(0.0, 0.004);
  c.accuracy = accuracy_of(std::max(0.1, baseline_accuracy - lost));
  const Shrunk& s = shrunk_of(fraction, int8);
  c.bytes = s.bytes;
  double ratio = 0.08 + s.flops_share * rng.uniform(0.85, 1.3);
  if (int8) ratio *= rng.uniform(0.5, 1.35);
  ratio = std::max(0.05, round_to(ratio, 2));
  c.latency = {ratio, std::max(0.01, round_to(ratio * (1 - rng.uniform(0.02, 0.12)), 2)),
               round_to(ratio * (1 + rng.uniform(0.02, 0.12)), 2)};
  return c;
}

constexpr std::size_t kCandidates = 4;

VariantData draw_olympics_choose(Rng& rng, const Fragments& fragments, const ChoiceTry&) {
  const auto& events = olympics_events();
  const auto e =
      static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(events.size()) - 1));
  const OlympicsEvent& event = events[e];
  // Most variants set a trap: the candidate best in the event's own metric breaks one of
  // its constraints. In the others it is the winner.
  const bool trap = rng.integer(0, 3) != 0;
  for (int attempt = 0; attempt < 2000; ++attempt) {
    const double baseline_accuracy = draw_baseline_accuracy(rng);
    std::vector<Candidate> candidates;
    std::vector<std::string> keys;
    while (candidates.size() < kCandidates) {
      Candidate c = draw_candidate(rng, baseline_accuracy);
      const std::string key = olympics_pipeline_key(c.pipeline);
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      keys.push_back(key);
      candidates.push_back(std::move(c));
    }
    std::vector<OlympicsFigures> figures;
    std::vector<EventJudgement> verdicts;
    for (const Candidate& c : candidates) {
      figures.push_back(figures_of(c.accuracy, c.bytes, baseline_accuracy, c.latency));
      verdicts.push_back(judge_olympics_entry(figures.back())[e]);
    }
    const std::vector<int> ranks = event_ranks(e, figures);
    if (std::count(ranks.begin(), ranks.end(), 1) != 1) continue;  // one winner, alone
    const auto winner =
        static_cast<std::size_t>(std::find(ranks.begin(), ranks.end(), 1) - ranks.begin());
    std::size_t naive = 0;  // the best score in the event's metric, constraints aside
    for (std::size_t i = 1; i < verdicts.size(); ++i) {
      const bool better = event.higher_is_better ? verdicts[i].score > verdicts[naive].score
                                                 : verdicts[i].score < verdicts[naive].score;
      if (better) naive = i;
    }
    if (trap == verdicts[naive].qualified) continue;
    // A bytes share printed to three decimals must not look under a cap it is over.
    bool clear = true;
    for (const Candidate& c : candidates) {
      for (const OlympicsEvent& other : events) {
        if (other.max_bytes_ratio &&
            std::fabs(c.bytes / baseline_bytes() - *other.max_bytes_ratio) < 0.001) {
          clear = false;
        }
      }
    }
    if (!clear) continue;

    std::vector<std::size_t> order(kCandidates);
    for (std::size_t i = 0; i < kCandidates; ++i) order[i] = i;
    shuffle(order, rng);
    VariantData v;
    std::string table;
    json rows = json::array();
    const char* const names[] = {"pipeline_a", "pipeline_b", "pipeline_c", "pipeline_d"};
    for (std::size_t shown = 0; shown < kCandidates; ++shown) {
      const Candidate& c = candidates[order[shown]];
      const std::string lineage = olympics_lineage_text(c.pipeline);
      const json row = {{"lineage", lineage},
                        {"accuracy", c.accuracy},
                        {"bytes", static_cast<std::int64_t>(c.bytes)},
                        {"bytes_ratio", round_to(c.bytes / baseline_bytes(), 3)},
                        {"ratio", c.latency.ratio},
                        {"low", c.latency.low},
                        {"high", c.latency.high}};
      rows.push_back(row);
      table += fragments.render("row", shown_ratios(row)) + (shown + 1 < kCandidates ? "; " : "");
      v.params[names[shown]] = lineage;
      if (order[shown] == winner) v.correct_choice = static_cast<int>(shown);
    }
    v.params["event"] = event.name;
    v.params["baseline_accuracy"] = baseline_accuracy;
    v.params["baseline_bytes"] = static_cast<std::int64_t>(baseline_bytes());
    v.params["candidates"] = rows;
    v.params["table"] = table;
    return v;
  }
  throw Error("optimization.olympics-choose: no candidates with one clear winner after 2000 draws");
}

// ---- optimization.olympics-ties -------------------------------------------------------

constexpr std::size_t kTieEntries = 6;
constexpr const char* kTieNames[kTieEntries] = {"A", "B", "C", "D", "E", "F"};

VariantData draw_olympics_ties(Rng& rng, const Fragments& fragments) {
  const auto& events = olympics_events();
  // The event ranked by the latency ratio alone, with no latency constraint: every entry
  // below qualifies for it by its accuracy.
  std::size_t e = 0;
  while (e < events.size() &&
         !(events[e].metric == OlympicsMetric::latency_ratio &&
           !events[e].max_latency_ratio_upper && !events[e].max_latency_ratio_lower)) {
    ++e;
  }
  if (e == events.size())
    throw Error("optimization.olympics-ties: no latency event without a latency bound");
  const OlympicsEvent& event = events[e];
  for (int attempt = 0; attempt < 2000; ++attempt) {
    std::vector<Latency> entries;
    for (std::size_t i = 0; i < kTieEntries; ++i) {
      const double ratio = static_cast<double>(rng.integer(25, 110)) / 100;
      const double below = static_cast<double>(rng.integer(1, 12)) / 100;
      const double above = static_cast<double>(rng.integer(1, 12)) / 100;
      entries.push_back(
          {ratio, std::max(0.01, round_to(ratio - below, 2)), round_to(ratio + above, 2)});
    }
    // No two ratios equal (the order of the ratios is the slip the question tells apart) and
    // no interval's end on another's (touching or overlapping would be a matter of rounding).
    bool clear = true;
    for (std::size_t i = 0; i < kTieEntries && clear; ++i) {
      for (std::size_t j = 0; j < kTieEntries && clear; ++j) {
        if (i == j) continue;
        if (entries[i].ratio == entries[j].ratio || entries[i].high == entries[j].low ||
            entries[i].low == entries[j].low || entries[i].high == entries[j].high) {
          clear = false;
        }
      }
    }
    if (!clear) continue;
    const auto asked = static_cast<std::size_t>(rng.integer(0, kTieEntries - 1));
    std::vector<OlympicsFigures> figures;
    for (const Latency& l : entries) {
      const double accuracy = accuracy_of(event.min_accuracy + rng.uniform(0.0, 0.04));
      figures.push_back(
          figures_of(accuracy, std::round(baseline_bytes() * 0.5), accuracy + 0.01, l));
    }
    const std::vector<int> ranks = event_ranks(e, figures);
    if (std::find(ranks.begin(), ranks.end(), 0) != ranks.end()) {
      throw Error(
          "optimization.olympics-ties: an entry above the event's accuracy floor did not qualify");
    }
    // The order of the ratios alone must give another rank in most variants.
    int by_ratio = 1;
    for (const Latency& l : entries) by_ratio += l.ratio < entries[asked].ratio ? 1 : 0;
    if (by_ratio == ranks[asked] && rng.integer(0, 4) != 0) continue;

    VariantData v;
    std::string list;
    json rows = json::array();
    for (std::size_t i = 0; i < kTieEntries; ++i) {
      const json row = {{"name", kTieNames[i]},
                        {"ratio", entries[i].ratio},
                        {"low", entries[i].low},
                        {"high", entries[i].high}};
      rows.push_back(row);
      list += fragments.render("entry", shown_ratios(row)) + (i + 1 < kTieEntries ? "; " : "");
    }
    v.params = {
        {"event", event.name}, {"entries", rows}, {"list", list}, {"asked", kTieNames[asked]}};
    v.expected_value = ranks[asked];
    return v;
  }
  throw Error(
      "optimization.olympics-ties: no intervals clear of each other's ends after 2000 draws");
}

}  // namespace

std::vector<ExerciseCode> optimization_olympics_exercises() {
  using enum ExerciseKind;
  return {
      {.id = "optimization.olympics-qualify",
       .kind = Choice,
       .points = 10,
       .draw_try = draw_olympics_qualify,
       .feedback_hides_answer = true},
      // From figures printed to three decimals of a millisecond: 1% leaves room for rounding
      // on the way, and every slip the draw keeps apart lands at least 3% off.
      {.id = "optimization.olympics-score",
       .kind = Numeric,
       .points = 10,
       .draw = draw_olympics_score,
       .tolerance = {0.01, 0.0},
       .feedback_hides_answer = true},
      {.id = "optimization.olympics-choose",
       .kind = Choice,
       .points = 10,
       .draw_try = draw_olympics_choose,
       .feedback_hides_answer = true},
      // A rank: exact.
      {.id = "optimization.olympics-ties",
       .kind = Numeric,
       .points = 10,
       .draw = draw_olympics_ties,
       .tolerance = {0.0, 0.5},
       .feedback_hides_answer = true},
  };
}

}  // namespace perflab::detail
