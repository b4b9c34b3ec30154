// The Olympics over the session table's held models and data sets, for the wasm bindings (the
// page's worker and the grader's modules): a held model's pipeline, and the process's one open
// checker (olympics/entry.hpp's OlympicsChecker) on a held base model and two held splits,
// which checks entries one call at a time. The bindings only convert types.
// Not for: the checking itself (entry.hpp), the events (events.hpp), ranking (leaderboard.hpp).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/train/session_table.hpp"

namespace perflab {

// {pipeline (olympics_pipeline_json), pipeline_key, lineage_text} of held model `model_id`,
// from its model file's lineage (olympics_pipeline_of, naming "model <id>"): ValueError for a
// model that is not held, or whose lineage holds a step an entry cannot (a distillation, a
// magnitude prune).
nlohmann::json olympics_pipeline_of_held(SessionTable& table, std::size_t model_id);

// Opens the process's checker on held model `base_model_id`'s model file, held training split
// `train_dataset_id` (an entry's train_images are its first images) and held test split
// `test_dataset_id`, replacing the one open before (which stays open when this throws: a model
// or data set not held, a set of the other split, OlympicsChecker's refusals). The splits are
// shared with the table: dropping them later does not disturb the checker. Returns the base's
// {accuracy, correct, images, parameter_bytes, checksum} on the test split.
nlohmann::json olympics_checker_open(SessionTable& table, std::size_t base_model_id,
                                     std::size_t train_dataset_id, std::size_t test_dataset_id);

// OlympicsChecker::check of one entry by the open checker (never throws for a malformed
// entry: valid false with the sentence). ValueError when no checker is open.
nlohmann::json olympics_check_open(const nlohmann::json& entry, const std::string& exported_at,
                                   const nlohmann::json& machine = nullptr);

}  // namespace perflab
