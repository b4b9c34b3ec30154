// The Optimization chapter's quantization exercise (optimization.int8-my-run), graded from the
// student's own run of the quantization experiment (optimization-quantization): the uint8 code
// the percentile-calibrated model gives a drawn input of its last Linear, a fraction of the
// min/max range's top (so it may lie beyond the percentile range and clip: a computation the
// page does not show), and how many times finer the percentile calibration's activation scale
// is there. Joined
// into the chapter's list by exercise_bank_optimization.cpp; prose in
// core/exercises/optimization.json. Not for: seeding, rendering or grading (grader.cpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/kernels/int8.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// x = fraction × the min/max hi: from well inside the percentile range to beyond it.
constexpr double kFractions[] = {0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95};

VariantData draw_int8_my_run(Rng& rng, const Fragments&) {
  VariantData v;
  v.params = {{"fraction", pick(rng, kFractions)}};
  return v;
}

struct Range {
  double lo = 0, hi = 0;
  bool found = false;
};

// rows: {percentile (0: min/max, 1: percentile), linear (index among the Linears), lo, hi},
// as the page publishes them. The last Linear of each calibration is read.
void int8_my_run_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  Range last[2];
  double last_linear[2] = {-1, -1};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double p = evidence_number(e, rows, i, "percentile", false);
    const double linear = evidence_number(e, rows, i, "linear", false);
    if (p != 0 && p != 1) {
      throw ValueError("answer.evidence.rows[" + std::to_string(i) +
                       "].percentile must be 0 (min/max) or 1 (percentile), got " +
                       describe_value(rows[i]["percentile"]));
    }
    const auto k = static_cast<std::size_t>(p);
    if (linear < last_linear[k]) continue;
    last_linear[k] = linear;
    last[k] = {evidence_number(e, rows, i, "lo", false), evidence_number(e, rows, i, "hi", false),
               true};
  }
  if (!last[0].found || !last[1].found) {
    throw ValueError("your run of " + e.evidence.title + " has no " +
                     (last[0].found ? "percentile" : "min/max") + " calibration; run " +
                     e.evidence.title + " again, with both");
  }
  const ActivationQuant minmax = activation_quant_params(static_cast<float>(last[0].lo),
                                                         static_cast<float>(last[0].hi));
  const ActivationQuant percentile = activation_quant_params(static_cast<float>(last[1].lo),
                                                             static_cast<float>(last[1].hi));
  if (!(last[0].hi > 0)) {
    throw ValueError("the min/max range of your last Linear layer's input ends at " +
                     describe_value(last[0].hi) + ", not above 0; run " + e.evidence.title +
                     " again");
  }
  const float x = static_cast<float>(v.params.at("fraction").get<double>() * last[0].hi);
  std::uint8_t code = 0;
  quantize_activations(&x, 1, percentile, &code);
  v.expected_values = {static_cast<double>(code),
                       static_cast<double>(minmax.scale) / percentile.scale};
}

}  // namespace

// From ranges the page prints to 3 significant digits: the code within 1 (x / scale near 255
// moves by up to about 1 with the printed digits), the ratio within 1%.
std::vector<ExerciseCode> optimization_quantize_exercises() {
  return {{.id = "optimization.int8-my-run",
          .kind = ExerciseKind::Numeric,
          .points = 15,
          .draw = draw_int8_my_run,
          .parts = {{{0.0, 1.0}}, {{0.01, 0.0}}},
          .experiment = "optimization-quantization",
          .from_evidence = int8_my_run_from_evidence,
          .feedback_hides_answer = true}};
}

}  // namespace perflab::detail
