// The Optimization chapter's exercises on the Olympics: which events a drawn entry qualifies
// for, and the all-around score from two rows of a run. Every answer comes from core's
// olympics module: the events' constraints from olympics_events(), the verdicts and scores
// from judge_olympics_entry (olympics/events.hpp); the baseline's bytes from the zoo's
// fashion_mlp. Feedback says right or wrong only (Exercise::feedback_hides_answer).
// Joined into the chapter's list by exercise_bank_optimization.cpp; prose in
// core/exercises/optimization.json. Not for: seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/model/quantization.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"
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
    throw Error("the Olympics exercises draw entries around two accuracy floors, a bytes cap "
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
    case 0: accuracy = b.low_floor - static_cast<double>(rng.integer(1, 400)) / kTestImages; break;
    case 1:
      accuracy = rng.integer(0, 5) == 0
                     ? b.low_floor
                     : b.low_floor + static_cast<double>(rng.integer(1, 499)) / kTestImages;
      break;
    default:
      accuracy = rng.integer(0, 5) == 0
                     ? b.high_floor
                     : std::min(b.high_floor + static_cast<double>(rng.integer(1, 450)) /
                                                   kTestImages,
                                baseline_accuracy);
  }
  accuracy = accuracy_of(accuracy);
  // Parameter bytes under or over the tightest cap, as a share of the baseline's.
  const bool small = rng.integer(0, 1) == 1;
  const double share = small ? rng.uniform(0.1, b.bytes_cap - 0.005)
                             : rng.uniform(b.bytes_cap + 0.005, 0.97);
  const double bytes = std::round(share * baseline_bytes());
  const auto place = static_cast<LatencyPlace>(rng.integer(0, 4));
  const Latency latency = draw_latency(rng, place, b);

  const OlympicsFigures f = figures_of(accuracy, bytes, baseline_accuracy, latency);
  const unsigned right = qualified_mask(f);
  // The other choices: what the usual misreadings give (the ratio for both ends, one end for
  // both bounds, the accuracy taken relative to the baseline's), then other sets.
  std::vector<unsigned> wrong;
  const auto consider = [&](unsigned mask) {
    if (mask != right && std::find(wrong.begin(), wrong.end(), mask) == wrong.end()) {
      wrong.push_back(mask);
    }
  };
  std::vector<unsigned> misread;
  for (double end : {latency.ratio, latency.low, latency.high}) {
    misread.push_back(qualified_mask(figures_of(accuracy, bytes, baseline_accuracy, {end, end, end})));
  }
  misread.push_back(qualified_mask(
      figures_of(std::min(1.0, accuracy / baseline_accuracy), bytes, baseline_accuracy, latency)));
  shuffle(misread, rng);
  for (unsigned mask : misread) consider(mask);
  const auto all_masks = static_cast<std::int64_t>((1u << olympics_events().size()) - 1);
  while (wrong.size() < 3) consider(static_cast<unsigned>(rng.integer(0, all_masks)));
  wrong.resize(3);

  std::vector<unsigned> shown = wrong;
  shown.push_back(right);
  shuffle(shown, rng);
  VariantData v;
  v.params = {{"accuracy", accuracy},
              {"baseline_accuracy", baseline_accuracy},
              {"bytes", static_cast<std::int64_t>(bytes)},
              {"baseline_bytes", static_cast<std::int64_t>(baseline_bytes())},
              {"ratio", latency.ratio},
              {"low", latency.low},
              {"high", latency.high}};
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
    const double b_median =
        std::max(0.01, round_to(a_median * rng.uniform(0.15, 1.4), 3));
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
        !apart(all_around_of(by_means), score) ||
        !apart(relative * compression / ratio, score) || !apart(accuracy * std::sqrt(compression / ratio), score) ||
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
  throw Error("optimization.olympics-score: no variant that tells the slips apart after 1000 draws");
}

}  // namespace

std::vector<ExerciseCode> optimization_olympics_exercises() {
  using enum ExerciseKind;
  return {
      {.id = "optimization.olympics-qualify", .kind = Choice, .points = 10,
       .draw_try = draw_olympics_qualify, .feedback_hides_answer = true},
      // From figures printed to three decimals of a millisecond: 1% leaves room for rounding
      // on the way, and every slip the draw keeps apart lands at least 3% off.
      {.id = "optimization.olympics-score", .kind = Numeric, .points = 10,
       .draw = draw_olympics_score, .tolerance = {0.01, 0.0}, .feedback_hides_answer = true},
  };
}

}  // namespace perflab::detail
