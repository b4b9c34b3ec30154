// The Optimization chapter's KV cache exercise (optimization.kv-cache-growth), graded from the
// student's own run of the KV cache experiment (optimization-kv-cache): how fast a recomputed
// generation's time grows between the run's two longest lengths (the log-log slope of the
// recompute medians, which the page does not show), and the length at which the cache of the
// decoder the run measured needs more bytes than its weights (kv_cache_limit_tokens with the
// weights' bytes as the budget, optimize/kv_cache.hpp). Experiment-backed, it draws nothing:
// the run is the variant.
// Joined into the chapter's list by exercise_bank_optimization.cpp; prose in
// core/exercises/optimization.json. Not for: seeding, rendering or grading (grader.cpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/optimize/kv_cache.hpp"
#include "perflab/optimize/kv_cache_point.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// rows[i].recompute.median_ms, above 0.
double recompute_median(const Exercise& e, const json& rows, std::size_t i) {
  const json& row = rows.at(i);
  if (!row.contains("recompute") || !row.at("recompute").is_object() ||
      !row.at("recompute").contains("median_ms")) {
    throw ValueError(evidence_row_at(i) + " has no recompute.median_ms; rows of " +
                     e.evidence.experiment + " carry it (this exercise reads " +
                     e.evidence.what + "): send the rows of that experiment as they are");
  }
  const json& x = row.at("recompute").at("median_ms");
  if (!x.is_number() || !std::isfinite(x.get<double>()) || !(x.get<double>() > 0)) {
    throw ValueError(evidence_row_at(i) + ".recompute.median_ms must be a finite number above 0, got " +
                     describe_value(x) + "; run " + e.evidence.title + " again");
  }
  return x.get<double>();
}

void kv_cache_growth_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  // One median per length (a length measured twice: its last row, as the table shows it).
  std::map<double, double> median_at;
  KvDecoderConfig config;
  json decoder;
  double weights = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double n = evidence_number(e, rows, i, "tokens");
    median_at[n] = recompute_median(e, rows, i);
    if (!rows[i].contains("decoder")) {
      throw ValueError(evidence_row_at(i) + " has no field \"decoder\"; rows of " + e.evidence.experiment +
                       " carry it: send the rows of that experiment as they are");
    }
    const double bytes = evidence_number(e, rows, i, "parameter_bytes");
    if (i == 0) {
      decoder = rows[i].at("decoder");
      config = kv_decoder_config_from_json(decoder);
      weights = bytes;
    } else if (rows[i].at("decoder") != decoder || bytes != weights) {
      throw ValueError(evidence_row_at(i) + " measured another decoder than rows[0]; run " +
                       e.evidence.title + " again, all of it with one decoder");
    }
  }
  if (median_at.size() < 2) {
    throw ValueError("your run of " + e.evidence.title + " has " +
                     std::to_string(median_at.size()) +
                     " length; the slope needs two: run it with its whole plan");
  }
  const auto longest = std::prev(median_at.end());
  const auto before = std::prev(longest);
  const double slope = std::log(longest->second / before->second) /
                       std::log(longest->first / before->first);
  v.expected_values = {slope, static_cast<double>(kv_cache_limit_tokens(
                                  config, static_cast<std::size_t>(weights)))};
}

}  // namespace

// The slope is read from medians the table prints to 3 significant digits: each off by at
// most 0.5%, the slope over a doubling by at most 2·0.005 / ln 2 = 0.014; 0.03 leaves room
// for a student who reads the CSV instead. The length: within 0.5%, because the page prints
// the weights' bytes to 3 significant digits (2.01 MiB: ±0.25%); the CSV has them exact.
std::vector<ExerciseCode> optimization_kv_exercises() {
  return {{.id = "optimization.kv-cache-growth",
          .kind = ExerciseKind::Numeric,
          .points = 15,
          .draw = draw_nothing,
          .parts = {{{0.0, 0.03}}, {{0.005, 0.5}}},
          .experiment = "optimization-kv-cache",
          .from_evidence = kv_cache_growth_from_evidence,
          .feedback_hides_answer = true}};
}

}  // namespace perflab::detail
