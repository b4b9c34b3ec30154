// The Olympics over the session table: a held model's pipeline, and the process's one open
// checker (like session_table(), the wasm module's state between calls).
#include "perflab/olympics/session.hpp"

#include <memory>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/olympics/entry.hpp"

namespace perflab {

namespace {
std::unique_ptr<OlympicsChecker>& open_checker() {
  static std::unique_ptr<OlympicsChecker> checker;
  return checker;
}
}  // namespace

nlohmann::json olympics_pipeline_of_held(SessionTable& table, std::size_t model_id) {
  const std::string what = "model " + std::to_string(model_id);
  const std::vector<OlympicsStep> steps =
      olympics_pipeline_of(read_model_file(table.model_file(model_id), what), what);
  return {{"pipeline", olympics_pipeline_json(steps)},
          {"pipeline_key", olympics_pipeline_key(steps)},
          {"lineage_text", olympics_lineage_text(steps)}};
}

nlohmann::json olympics_checker_open(SessionTable& table, std::size_t base_model_id,
                                     std::size_t train_dataset_id, std::size_t test_dataset_id) {
  std::vector<std::uint8_t> base = table.model_file(base_model_id);
  std::shared_ptr<const LabeledImages> train = table.images(train_dataset_id, "train");
  std::shared_ptr<const LabeledImages> test = table.images(test_dataset_id, "test");
  auto checker =
      std::make_unique<OlympicsChecker>(std::move(base), std::move(train), std::move(test));
  nlohmann::json baseline = checker->baseline();
  open_checker() = std::move(checker);
  return baseline;
}

nlohmann::json olympics_check_open(const nlohmann::json& entry, const std::string& exported_at,
                                   const nlohmann::json& machine) {
  if (!open_checker()) {
    throw ValueError("no Olympics checker is open: open one on the baseline model and the two "
                     "Fashion-MNIST splits first (olympicsCheckerOpen)");
  }
  return open_checker()->check(entry, exported_at, machine);
}

}  // namespace perflab
