// What the Optimization chapter does to the models a student made, held in the session table
// (train/session_table.hpp): quantize a held float model to int8 (optimize/quantize.hpp) and
// hold the result beside it, time several held models in one interleaved run, each as its
// model file runs (int8 forward for a quantized one), and mark which of them are on the
// Pareto frontier of cost against accuracy.
// Not for: the quantization's arithmetic (optimize/quantize.hpp, model/quantization.hpp),
// evaluation (SessionTable::evaluate) or an A/B verdict (stats/ab.hpp's analyze_ab reads the
// samples these timings give).
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/model/quantization.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab {

// How many test images quantize_held_model measures each layer's error on unless told
// (`perflab quantize` uses the same first 256).
inline constexpr std::size_t kLayerErrorImages = 256;

// Quantizes held model `model_id` (a float model: ValueError for an int8 one) with its
// activations calibrated on the first `images` of held train split `train_id` by `method`,
// and holds the int8 model (its training facts with the quantization appended to the
// lineage). Each layer's error is measured on the first `error_images` of held test split
// `test_id`. Returns {"model": the new id, "source": model_id, "calibration", "calibration_images",
// "lineage", "float_parameter_bytes", "parameter_bytes" (the int8 model's stored bytes),
// "layers": [{layer, input_range: [lo, hi], input_scale, input_zero_point}],
// "layer_errors": [{layer, type, max_abs, mean_abs, float_max_abs}]}.
nlohmann::json quantize_held_model(SessionTable& table, std::size_t model_id,
                                   std::size_t train_id, std::size_t test_id, std::size_t images,
                                   Calibration method, std::size_t error_images);

// The most models one timing run takes (the Pareto frontier's made models).
inline constexpr std::size_t kMaxTimedModels = 12;

// Times the forward of each held model (its model file as it runs: logits of the first `batch`
// images of held test split `test_id`, preprocessing included) in one interleaved run
// (run_interleaved: every round one sample of each, in the order given). Returns {"batch",
// "rounds", "models": [{model, stats (to_json(Stats)), per_call_ms}]}. ValueError: no model,
// more than kMaxTimedModels, a model listed twice, batch 0 or above the split's count, and
// the Timer's refusals; CancelledError when progress returns false.
nlohmann::json time_held_models(SessionTable& table, const std::vector<std::size_t>& model_ids,
                                std::size_t test_id, std::size_t batch,
                                const TimerOptions& options, Clock& clock = default_clock(),
                                const ProgressFn& progress = {});

// A model as the frontier sees it: what it costs (latency, bytes: lower is better) and its
// accuracy (higher is better).
struct ParetoPoint {
  double cost = 0;
  double accuracy = 0;
};

// on[i] is true when no other point is at least as good in both and better in one (cost ≤,
// accuracy ≥, one strictly): the models worth choosing. Equal points are all on the frontier.
// ValueError naming the index for a cost or accuracy that is not finite, or a negative cost.
std::vector<bool> pareto_front(const std::vector<ParetoPoint>& points);

}  // namespace perflab
