// Bindings for what the Optimization chapter does to the models a student made
// (core/include/perflab/optimize/made_models.hpp), in the training module beside the session
// table that holds them: quantize a held model to int8, time held models in one interleaved
// run (one chunk per call, so the page shows progress and cancels between chunks), and the
// Pareto frontier of cost against accuracy.
// Not for: logic (core/); evaluation and the forward A/B (bind_train.cpp).
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab::wasm {
namespace {

// error_images: undefined for core's kLayerErrorImages.
val quantize_held_model_js(val model_id, val train_dataset, val test_dataset, val images,
                           val calibration, val error_images) {
  const std::size_t m = to_size(model_id, "model_id");
  const std::size_t train = to_size(train_dataset, "train_dataset");
  const std::size_t test = to_size(test_dataset, "test_dataset");
  const std::size_t n = to_size(images, "images");
  const Calibration method = calibration_from_name(to_string(calibration, "calibration"));
  const std::size_t e =
      error_images.isUndefined() ? kLayerErrorImages : to_size(error_images, "error_images");
  return to_val(quantize_held_model(session_table(), m, train, test, n, method, e));
}

val time_held_models_js(val model_ids, val dataset_id, val batch, val options) {
  const nlohmann::json ids = to_json(model_ids, "model_ids");
  if (!ids.is_array()) {
    throw ValueError("model_ids must be an array of held model ids, got " + perflab::describe(ids));
  }
  std::vector<std::size_t> list;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!ids[i].is_number_unsigned() || ids[i].get<std::size_t>() == 0) {
      throw ValueError("model_ids[" + std::to_string(i) + "] must be the id of a held model (a "
                       "positive integer), got " + perflab::describe(ids[i]));
    }
    list.push_back(ids[i].get<std::size_t>());
  }
  return to_val(time_held_models(session_table(), list, to_size(dataset_id, "dataset_id"),
                                 to_size(batch, "batch"), to_timer_options(options)));
}

// points: [{cost, accuracy}] -> [on the frontier].
val pareto_front_js(val points) {
  const nlohmann::json list = to_json(points, "points");
  if (!list.is_array()) {
    throw ValueError("points must be an array of {cost, accuracy}, got " + perflab::describe(list));
  }
  std::vector<ParetoPoint> in;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& p = list[i];
    if (!p.is_object() || !p.contains("cost") || !p["cost"].is_number() ||
        !p.contains("accuracy") || !p["accuracy"].is_number()) {
      throw ValueError("points[" + std::to_string(i) + "] must be {cost, accuracy} with numbers, "
                       "got " + perflab::describe(p));
    }
    in.push_back({p["cost"].get<double>(), p["accuracy"].get<double>()});
  }
  nlohmann::json out = nlohmann::json::array();
  for (bool on : pareto_front(in)) out.push_back(on);
  return to_val(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_made_models) {
  expose<&quantize_held_model_js>("quantizeHeldModel");
  expose<&time_held_models_js>("timeHeldModels");
  expose<&pareto_front_js>("paretoFront");
}

}  // namespace perflab::wasm
