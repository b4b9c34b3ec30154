// The interleaved (or sequential) A/B runner over a Clock, batching as Timer does, with a
// drift check of each arm's samples against the round. Not for: more than two arms.
#include "perflab/stats/ab.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "stats_detail.hpp"

namespace perflab {

namespace {

// Refuses `rounds` rounds whose two samples of at least sample_ms each cannot fit in
// kMaxAbTotalMs, naming the most rounds that can (from 2, the fewest an A/B takes).
void check_ab_rounds_fit(int rounds, double sample_ms, const std::string& why,
                         const std::string& instead) {
  const double least_ms = 2.0 * rounds * sample_ms;
  if (!(least_ms > kMaxAbTotalMs)) return;
  const auto fit = static_cast<int>(std::floor(kMaxAbTotalMs / (2.0 * sample_ms)));
  throw ValueError(std::to_string(rounds) + " rounds of an A and a B sample of at least " +
                   detail::format_g(sample_ms, 3) + " ms each (" + why + ") take at least " +
                   detail::format_g(std::ceil(least_ms)) + " ms; one A/B may take at most " +
                   detail::format_g(kMaxAbTotalMs) + " ms: " +
                   (fit >= 2 ? "use at most " + std::to_string(fit) + " rounds, or " : "use ") +
                   instead);
}

}  // namespace

const char* ab_mode_name(AbMode mode) {
  return mode == AbMode::interleaved ? "interleaved" : "sequential";
}

void AbOptions::validate() const {
  detail::check_range("rounds", rounds, 2, 100000);
  detail::check_range("warmup", warmup, 0, 10000);
  detail::check_range("min_sample_ms", min_sample_ms, 0, 60000);
  detail::check_range("resolution_multiple", resolution_multiple, 1, 1e6);
  if (max_inner_iterations < 1) {
    throw ValueError("max_inner_iterations must be at least 1, got " +
                     std::to_string(max_inner_iterations));
  }
  detail::check_range("drift_alpha", drift_alpha, 0.0001, 0.5);
  compare.validate();
  check_ab_rounds_fit(rounds, min_sample_ms, "min_sample_ms", "a shorter min_sample_ms");
}

namespace {

Drift drift_of(const std::vector<double>& samples, const AbOptions& options) {
  const std::size_t n = samples.size();
  std::vector<double> round_index(n);
  for (std::size_t r = 0; r < n; ++r) round_index[r] = static_cast<double>(r);
  const RankCorrelation rc = spearman(round_index, samples);
  Drift d;
  d.alpha = options.drift_alpha;
  d.threshold = options.compare.threshold;
  d.rho = rc.rho;
  d.p_value = rc.p_value;
  const auto third = static_cast<std::ptrdiff_t>(n / 3);
  std::vector<double> first(samples.begin(), samples.begin() + third);
  std::vector<double> last(samples.end() - third, samples.end());
  const double before = detail::median_in_place(first), after = detail::median_in_place(last);
  d.change = before > 0 ? after / before - 1.0 : 0.0;
  d.detected = d.p_value < options.drift_alpha && std::fabs(d.change) > options.compare.threshold;
  return d;
}

// What the rule found, or why it could not have found anything, with the rule beside it.
std::string drift_sentence(const Drift& d) {
  const std::string alpha = detail::format_g(d.alpha, 3);
  const std::string beyond = "a change beyond ±" + detail::format_g(100 * d.threshold, 3) + "%";
  const std::string rounds = std::to_string(d.rounds);
  if (d.rounds < static_cast<std::size_t>(d.min_rounds)) {
    std::string text = "too few rounds to detect drift: the rule (Spearman p below " + alpha +
                       " and " + beyond + ") can fire from " + std::to_string(d.min_rounds) +
                       " rounds on, and this run has " + rounds;
    if (d.rounds >= 3) {
      std::vector<double> order(d.rounds);
      for (std::size_t r = 0; r < d.rounds; ++r) order[r] = static_cast<double>(r);
      text += " (even samples in perfect order have p = " +
              detail::format_g(spearman(order, order).p_value, 2) + " at " + rounds + " rounds)";
    }
    return text;
  }
  const std::string p =
      d.p_value < 0.001 ? "p < 0.001" : "p = " + detail::format_g(d.p_value, 2);
  const std::string found = "Spearman ρ " + detail::format_fixed(d.rho, 3) +
                            " against the round (" + p + "), " + (d.change >= 0 ? "+" : "") +
                            detail::format_fixed(100 * d.change, 1) +
                            "% from the first to the last third";
  if (d.detected) return "detected: " + found + " (the rule: p below " + alpha + " and " + beyond + ")";
  return "not detected: " + found + "; the rule needs both p below " + alpha + " (at " + rounds +
         " rounds, |ρ| of at least " + detail::format_fixed(d.critical_rho, 3) + ") and " +
         beyond;
}

std::string drift_warning(const char* arm, const Drift& r, AbMode mode) {
  const std::string p =
      r.p_value < 0.001 ? "p < 0.001" : "p = " + detail::format_g(r.p_value, 2);
  std::string text = std::string(arm) + "'s samples drift across rounds (Spearman rho " +
                     detail::format_fixed(r.rho, 2) + " against the round, " + p +
                     ", " + (r.change >= 0 ? "+" : "") + detail::format_g(100 * r.change, 2) +
                     "% from the first to the last third): the machine's speed changed during "
                     "the run";
  if (mode == AbMode::sequential) {
    text += "; in sequential mode drift reads as a difference between A and B: use interleaved";
  } else {
    text += "; interleaving spreads it over both arms, but rerun on a quieter machine";
  }
  return text;
}

}  // namespace

// Drift's JSON fields, written by to_json and read by drift_from_json; critical_rho is
// infinite below min_rounds (no order of so few rounds reaches alpha), null in JSON.
auto json_fields_of(const Drift*) {
  return std::make_tuple(
      JsonField{"rho", &Drift::rho}, JsonField{"p_value", &Drift::p_value},
      JsonField{"change", &Drift::change}, JsonField{"detected", &Drift::detected},
      JsonField{"alpha", &Drift::alpha}, JsonField{"threshold", &Drift::threshold},
      JsonField{"rounds", &Drift::rounds}, JsonField{"min_rounds", &Drift::min_rounds},
      JsonField{"critical_rho", &Drift::critical_rho, JsonRange::unbounded_as_null},
      JsonField{"sentence", &Drift::sentence});
}

nlohmann::json to_json(const Drift& drift) { return write_fields(drift); }
Drift drift_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<Drift>(j, where);
}

// An A/B's rounds: the schedule by name, the round count (a_ms' length, checked when read),
// each arm's samples and order, both drifts and the comparison. What the rounds were timed
// with (inner_iterations_a/b, resolution_ms) is runAB's to add: analyze_ab never knows it.
auto json_fields_of(const AbResult*) {
  using R = AbResult;
  const JsonComputed<R> mode{
      "mode", [](const R& r) -> nlohmann::json { return ab_mode_name(r.mode); },
      [](const nlohmann::json& v, const std::string& field, R& r) {
        constexpr AbMode kModes[] = {AbMode::interleaved, AbMode::sequential};
        r.mode = json_enum(v, field, kModes, ab_mode_name);
      }};
  const JsonComputed<R> rounds{
      "rounds", [](const R& r) -> nlohmann::json { return r.a_ms.size(); },
      [](const nlohmann::json& v, const std::string& field, R& r) {
        std::size_t n = 0;
        read_json_value(v, field, n, JsonRange::any);
        if (n != r.a_ms.size() || n != r.b_ms.size() || n != r.a_first.size()) {
          throw ValueError(field + " is " + std::to_string(n) + ", but a_ms, b_ms and a_first hold " +
                           std::to_string(r.a_ms.size()) + ", " + std::to_string(r.b_ms.size()) +
                           " and " + std::to_string(r.a_first.size()) + " values");
        }
      }};
  const JsonComputed<R> a_first{
      "a_first",
      [](const R& r) -> nlohmann::json {
        nlohmann::json out = nlohmann::json::array();
        for (bool f : r.a_first) out.push_back(f);
        return out;
      },
      [](const nlohmann::json& v, const std::string& field, R& r) {
        if (!v.is_array()) throw_json_field_type(v, field, "an array");
        r.a_first.clear();
        for (std::size_t i = 0; i < v.size(); ++i) {
          bool f = false;
          read_json_value(v[i], field + "[" + std::to_string(i) + "]", f, JsonRange::any);
          r.a_first.push_back(f);
        }
      }};
  // Comparison's list lives in compare.cpp: its own to_json and reader, through one field.
  const JsonComputed<R> comparison{
      "comparison", [](const R& r) { return to_json(r.comparison); },
      [](const nlohmann::json& v, const std::string& field, R& r) {
        r.comparison = comparison_from_json(v, field);
      }};
  return std::make_tuple(mode, JsonField{"a_ms", &R::a_ms, JsonRange::non_negative},
                         JsonField{"b_ms", &R::b_ms, JsonRange::non_negative}, a_first, rounds,
                         JsonField{"drift_a", &R::drift_a}, JsonField{"drift_b", &R::drift_b},
                         comparison);
}

nlohmann::json to_json(const AbResult& result) { return write_fields(result); }
AbResult ab_result_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<AbResult>(j, where);
}

int drift_min_rounds(double drift_alpha) {
  detail::check_range("drift_alpha", drift_alpha, 0.0001, 0.5);
  std::size_t n = 3;
  // From 10 rounds on the critical rho comes from the t quantile and is below 1: the loop ends.
  while (!(spearman_critical_rho(n, drift_alpha) <= 1.0)) ++n;
  return static_cast<int>(n);
}

AbResult run_ab(const std::function<void()>& a, const std::function<void()>& b,
                const AbOptions& options, Clock& clock, const ProgressFn& progress) {
  options.validate();
  const double deadline_ms = clock.now_ms() + kMaxAbTotalMs;
  AbResult result;
  result.mode = options.mode;
  result.resolution_ms = measure_resolution_ms(clock);
  // Every sample lasts at least resolution_multiple ticks, even past the deadline (calibrate_batch).
  const double floor_ms = options.resolution_multiple * result.resolution_ms;
  const double target_ms = std::max(floor_ms, options.min_sample_ms);
  if (target_ms > options.min_sample_ms) {  // the clock's ticks set the samples' length
    check_ab_rounds_fit(options.rounds, target_ms,
                        detail::format_g(options.resolution_multiple) + " ticks of a " +
                            detail::format_g(result.resolution_ms, 3) + " ms clock",
                        "a finer clock");
  }

  for (int i = 0; i < options.warmup && clock.now_ms() < deadline_ms; ++i) a();
  for (int i = 0; i < options.warmup && clock.now_ms() < deadline_ms; ++i) b();

  const BatchPlan plan_a =
      calibrate_batch(clock, a, target_ms, options.max_inner_iterations, deadline_ms, floor_ms);
  const BatchPlan plan_b =
      calibrate_batch(clock, b, target_ms, options.max_inner_iterations, deadline_ms, floor_ms);
  result.inner_iterations_a = plan_a.inner_iterations;
  result.inner_iterations_b = plan_b.inner_iterations;

  auto rounds = static_cast<std::size_t>(options.rounds);
  result.a_ms.reserve(rounds);
  result.b_ms.reserve(rounds);
  const auto sample = [&](bool arm_a) {
    const BatchPlan& plan = arm_a ? plan_a : plan_b;
    const double per_call = time_batch_ms(clock, arm_a ? a : b, plan.inner_iterations) /
                            static_cast<double>(plan.inner_iterations);
    (arm_a ? result.a_ms : result.b_ms).push_back(per_call);
  };
  const auto report = [&](std::size_t done, std::size_t total, const char* unit) {
    if (progress && !progress(static_cast<double>(done) / static_cast<double>(total))) {
      throw CancelledError("cancelled after " + std::to_string(done) + " of " +
                           std::to_string(total) + " " + unit);
    }
  };

  std::vector<bool> order = ab_round_order(options.mode, options.rounds, options.seed);
  // The rounds stop before one that the last one's length says would pass kMaxAbTotalMs (at
  // least one runs); sequential mode stops A so at half of what is left, so that B gets as
  // many samples in about as long.
  const double rounds_start_ms = clock.now_ms();
  if (options.mode == AbMode::interleaved) {
    for (std::size_t r = 0; r < rounds; ++r) {
      const double round_start_ms = clock.now_ms();
      sample(order[r]);
      sample(!order[r]);
      report(r + 1, rounds, "rounds");
      const double now_ms = clock.now_ms();
      if (r + 1 < rounds && now_ms + (now_ms - round_start_ms) > deadline_ms) rounds = r + 1;
    }
  } else {
    const double a_until_ms = rounds_start_ms + 0.5 * (deadline_ms - rounds_start_ms);
    for (std::size_t i = 0; i < rounds; ++i) {
      const double sample_start_ms = clock.now_ms();
      sample(true);
      report(i + 1, 2 * rounds, "samples");
      const double now_ms = clock.now_ms();
      if (i + 1 < rounds && now_ms + (now_ms - sample_start_ms) > a_until_ms) rounds = i + 1;
    }
    for (std::size_t i = 0; i < rounds; ++i) {
      sample(false);
      report(rounds + i + 1, 2 * rounds, "samples");
    }
  }
  order.resize(rounds);

  std::vector<std::string> warnings;
  if (rounds < static_cast<std::size_t>(options.rounds)) {
    const double round_ms = (clock.now_ms() - rounds_start_ms) / static_cast<double>(rounds);
    // One call a sample: the calls themselves are long. Otherwise the samples' length is.
    const bool long_calls = plan_a.inner_iterations == 1 || plan_b.inner_iterations == 1;
    warnings.push_back("the A/B ran " + std::to_string(rounds) + " of its " +
                       std::to_string(options.rounds) + " rounds, the most that fit its limit of " +
                       detail::format_g(kMaxAbTotalMs) + " ms (a round of A and B took about " +
                       detail::format_g(round_ms, 3) + " ms): " +
                       (long_calls ? "a smaller size runs them all"
                                   : "fewer rounds, or a shorter min_sample_ms, run them all"));
  }
  for (const auto* plan : {&plan_a, &plan_b}) {
    if (plan->below_target()) {
      warnings.push_back(std::string(plan == &plan_a ? "A" : "B") + "'s samples last " +
                         detail::format_g(plan->batch_ms, 3) + " ms, under the " +
                         detail::format_g(target_ms, 3) + " ms target at max_inner_iterations " +
                         std::to_string(options.max_inner_iterations) +
                         ": check the work is not optimised away, or raise max_inner_iterations");
    }
  }
  AbResult analysed = analyze_ab(result.a_ms, result.b_ms, order, options, warnings);
  analysed.inner_iterations_a = result.inner_iterations_a;
  analysed.inner_iterations_b = result.inner_iterations_b;
  analysed.resolution_ms = result.resolution_ms;
  return analysed;
}

std::vector<bool> ab_round_order(AbMode mode, int rounds, std::uint64_t seed) {
  detail::check_range("rounds", rounds, 1, 100000);
  const auto n = static_cast<std::size_t>(rounds);
  if (mode == AbMode::sequential) return std::vector<bool>(n, true);
  Rng rng(seed);
  std::vector<bool> order;
  order.reserve(n);
  for (std::size_t r = 0; r < n; ++r) order.push_back((rng.next_u64() >> 63) != 0);
  return order;
}

AbResult analyze_ab(const std::vector<double>& a_ms, const std::vector<double>& b_ms,
                    const std::vector<bool>& a_first, const AbOptions& options,
                    const std::vector<std::string>& warnings) {
  options.validate();
  if (a_ms.size() != b_ms.size() || a_first.size() != a_ms.size()) {
    throw ValueError("a_ms, b_ms and a_first must hold one value per round, got " +
                     std::to_string(a_ms.size()) + ", " + std::to_string(b_ms.size()) + " and " +
                     std::to_string(a_first.size()) + " values");
  }
  if (options.mode == AbMode::sequential) {
    for (std::size_t r = 0; r < a_first.size(); ++r) {
      if (!a_first[r]) {
        throw ValueError("a_first[" + std::to_string(r) +
                         "] is false, but in sequential mode all of A runs before B");
      }
    }
  }
  AbResult result;
  result.mode = options.mode;
  result.a_ms = a_ms;
  result.b_ms = b_ms;
  result.a_first = a_first;
  result.comparison = compare_samples(a_ms, b_ms, options.compare, "a_ms", "b_ms");

  std::vector<std::string> all = warnings;
  if (a_ms.size() >= 3) {
    result.drift_a = drift_of(a_ms, options);
    result.drift_b = drift_of(b_ms, options);
    if (result.drift_a.detected) all.push_back(drift_warning("A", result.drift_a, options.mode));
    if (result.drift_b.detected) all.push_back(drift_warning("B", result.drift_b, options.mode));
  }
  const int min_rounds = drift_min_rounds(options.drift_alpha);
  for (Drift* d : {&result.drift_a, &result.drift_b}) {  // the rule, even with too few rounds
    d->alpha = options.drift_alpha;
    d->threshold = options.compare.threshold;
    d->rounds = a_ms.size();
    d->min_rounds = min_rounds;
    d->critical_rho = spearman_critical_rho(a_ms.size(), options.drift_alpha);
    d->sentence = drift_sentence(*d);
  }
  std::string& w = result.comparison.warning;
  for (const std::string& text : all) w += (w.empty() ? "" : "; ") + text;
  return result;
}

}  // namespace perflab
