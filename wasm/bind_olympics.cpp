// Bindings of the Olympics (core/include/perflab/olympics/) in the training module, beside the
// session table whose held models and data sets they name by id: the events, an entry's
// standing from its figures, the latency ratio from a timing's raw samples, a held model's
// pipeline, a model file's checksum, the checker opened on a held base and two held splits and
// its check of one entry, and a class's leaderboard with its CSV and Markdown.
// Not for: logic (core/); each binding converts its arguments in order and core's JSON back.
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/olympics/leaderboard.hpp"
#include "perflab/olympics/session.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab::wasm {
namespace {

val olympics_events_js() { return to_val(olympics_events_json()); }

// figures: {accuracy, parameter_bytes, baseline_accuracy, baseline_parameter_bytes,
// latency_ratio, latency_ratio_low, latency_ratio_high} -> [EventJudgement] in core's order.
val olympics_judge_js(val figures) {
  nlohmann::json out = nlohmann::json::array();
  for (const EventJudgement& j :
       judge_olympics_entry(olympics_figures_from_json(to_json(figures, "figures"), "figures"))) {
    out.push_back(to_json(j));
  }
  return to_val(out);
}

val olympics_latency_js(val timing) {
  return to_val(olympics_latency(to_json(timing, "timing"), "timing"));
}

val olympics_pipeline_of_js(val model_id) {
  return to_val(olympics_pipeline_of_held(session_table(), to_size(model_id, "model_id")));
}

// bytes: a model file -> {checksum}: the 16 hex digits an entry's base.checksum holds.
val model_file_checksum_js(val bytes) {
  return to_val(nlohmann::json{
      {"checksum", model_file_checksum_hex(to_bytes(bytes, "bytes", kMaxModelFileBytes))}});
}

val olympics_checker_open_js(val base_model_id, val train_dataset_id, val test_dataset_id) {
  const std::size_t base = to_size(base_model_id, "base_model_id");
  const std::size_t train = to_size(train_dataset_id, "train_dataset_id");
  const std::size_t test = to_size(test_dataset_id, "test_dataset_id");
  return to_val(olympics_checker_open(session_table(), base, train, test));
}

// exported_at: the submission file's, undefined or null when not known; machine: the file's
// machine facts for the evidence checks, undefined or null when none.
val olympics_check_js(val entry, val exported_at, val machine) {
  // Converted in order, so a first complaint names the first bad argument.
  // An entry is an object (the submission's reader checks that); what it holds is core's to
  // refuse, as a check with valid false.
  const nlohmann::json e = to_json(entry, "entry");
  if (!e.is_object()) throw ValueError("entry must be an object, got " + perflab::describe(e));
  const bool no_time = exported_at.isUndefined() || exported_at.isNull();
  const std::string at = no_time ? std::string() : to_string(exported_at, "exported_at");
  const bool no_machine = machine.isUndefined() || machine.isNull();
  const nlohmann::json m = no_machine ? nlohmann::json() : to_json(machine, "machine");
  return to_val(olympics_check_open(e, at, m));
}

val olympics_leaderboard_js(val rows) {
  return to_val(olympics_leaderboard(to_json(rows, "rows")));
}

val olympics_leaderboard_csv_js(val board) {
  return to_val(nlohmann::json(olympics_leaderboard_csv(to_json(board, "board"))));
}

val olympics_leaderboard_markdown_js(val board) {
  return to_val(nlohmann::json(olympics_leaderboard_markdown(to_json(board, "board"))));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_olympics) {
  expose<&olympics_events_js>("olympicsEvents");
  expose<&olympics_judge_js>("olympicsJudge");
  expose<&olympics_latency_js>("olympicsLatency");
  expose<&olympics_pipeline_of_js>("olympicsPipelineOf");
  expose<&model_file_checksum_js>("modelFileChecksum");
  expose<&olympics_checker_open_js>("olympicsCheckerOpen");
  expose<&olympics_check_js>("olympicsCheck");
  expose<&olympics_leaderboard_js>("olympicsLeaderboard");
  expose<&olympics_leaderboard_csv_js>("olympicsLeaderboardCsv");
  expose<&olympics_leaderboard_markdown_js>("olympicsLeaderboardMarkdown");
}

}  // namespace perflab::wasm
