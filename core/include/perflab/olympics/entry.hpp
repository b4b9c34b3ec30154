// An Olympics entry as the grader sees it: the pipeline of transforms that made the entry's
// model from the pretrained baseline (a structured prune with its fine-tuning, then an int8
// quantize), read and validated from the entry's JSON or from a made model's lineage; the
// model rebuilt from it by the very calls the page's lab worker makes (a private
// SessionTable: prune_structured, start_finetuning and train_steps, quantize_held_model), so
// the rebuilt file is the page's byte for byte on the same build; and the check of a whole
// entry (rebuilt accuracy and size, the latency from its raw samples, every event's verdict,
// the flags), with rebuilt prefixes cached so entries sharing a lineage rebuild it once.
// Not for: the events and their judging (olympics/events.hpp), ranking a class
// (olympics/leaderboard.hpp), or distilled and magnitude-pruned models (not Olympics steps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/quantization.hpp"

namespace perflab {

namespace detail {
struct OlympicsBuilt;
class OlympicsRebuilder;
}  // namespace detail

enum class OlympicsTransform { prune, quantize };

// One step of an entry's pipeline. A prune is structured (optimize/structured.hpp) with
// finetune_epochs of fine-tuning after it (SessionTable::start_finetuning, 0: none) on the
// first train_images training images; a quantize is int8 (optimize/quantize.hpp) calibrated
// on the first calibration_images of them. train_images is what the step reads: 0 for a prune
// that does not fine-tune, calibration_images for a quantize (its calibration reads no more),
// so two steps that build the same model are the same step.
struct OlympicsStep {
  OlympicsTransform transform = OlympicsTransform::prune;
  double fraction = 0;                            // prune: of each prunable layer's units, [0, 1)
  std::size_t finetune_epochs = 0;                // prune: 0..kOlympicsMaxFinetuneEpochs
  Calibration calibration = Calibration::MinMax;  // quantize
  std::size_t calibration_images = 0;             // quantize: 1..train_images
  std::size_t train_images = 0;  // the first N images of the training split the step reads
};

// The most training images a step may read: Fashion-MNIST's training split.
inline constexpr std::size_t kOlympicsMaxTrainImages = 60000;
// A claimed accuracy further than this from the rebuilt one is flagged
// (olympics-claim-differs). The rebuild is the page's model byte for byte on the same build,
// and across builds it agreed too (prune 0.5, fine-tune 1 epoch on 12,000 images, int8: test
// accuracy 0.8811 natively and in both Node wasm builds); the margin is for a build that sums
// in another order, where fine-tuned weights, and so a few test images, could move.
inline constexpr double kOlympicsClaimAccuracyTolerance = 0.01;
// The most rebuilt models (pipeline prefixes) a checker keeps besides the base, the least
// recently used going first: up to about 1 MB each (a float model file), so a class's
// checker stays within a wasm module's memory however many lineages it sees; a grader that
// checks entries grouped by lineage rebuilds nothing twice.
inline constexpr std::size_t kOlympicsCachedModels = 64;
// The flag code of a claim the rebuild does not bear out.
inline constexpr const char* kFlagOlympicsClaimDiffers = "olympics-claim-differs";

// Reads an entry's pipeline: an array of at most one prune then at most one quantize, each
// an object of exactly its fields ({transform: "prune", method: "structured", fraction,
// finetune_epochs, train_images} / {transform: "quantize", scheme: "int8", calibration,
// calibration_images, train_images}; a prune without fine-tuning may leave train_images out,
// a quantize too). ValueError naming the path: "entry.pipeline[1].calibration is \"mean\";
// allowed: minmax, percentile"; a distillation or a magnitude prune with a sentence saying
// which steps an entry may have.
std::vector<OlympicsStep> olympics_pipeline_from_json(const nlohmann::json& pipeline,
                                                      const std::string& where = "entry.pipeline");
// The canonical step (every field, train_images as the step reads them) and pipeline; the key
// is the pipeline's compact JSON text, equal for two pipelines exactly when they build the
// same model.
nlohmann::json to_json(const OlympicsStep& step);
nlohmann::json olympics_pipeline_json(const std::vector<OlympicsStep>& pipeline);
std::string olympics_pipeline_key(const std::vector<OlympicsStep>& pipeline);
// "prune 50%, fine-tune 1 epoch, int8 (minmax, 512 images)"; "the baseline (no transform)".
std::string olympics_lineage_text(const std::vector<OlympicsStep>& pipeline);

// The pipeline a made model's lineage records (what the page enters, never a pipeline built
// by hand): each structured prune with the epochs it was fine-tuned (train_images: the
// fine-tuning's training and validation images, from the file's training facts), each int8
// quantize. ValueError, `what` naming the model, for a lineage holding a distillation, a
// magnitude prune or any other transform, or steps the pipeline reader refuses.
std::vector<OlympicsStep> olympics_pipeline_of(const ModelFile& file,
                                               const std::string& what = "the model");

// The FNV-1a 64 a model file stores in its last 8 bytes, as 16 lower-case hex digits (an
// entry's base.checksum). ValueError for bytes too short to be a model file.
std::string model_file_checksum_hex(const std::vector<std::uint8_t>& model_file_bytes);

// The entry's model rebuilt from the base's model file bytes: each step through a private
// SessionTable exactly as the page runs it (the base loaded from its bytes; prune_structured,
// then start_finetuning on the first train_images of `train` and train_steps to the end, then
// an evaluation on `test`, whose accuracy the fine-tuned file records; quantize_held_model of
// that file's bytes with the first calibration_images of `train`). Returns the model file's
// bytes. The SessionTable's and the transforms' ValueErrors (a fraction no layer can take,
// more train_images than `train` holds).
std::vector<std::uint8_t> rebuild_olympics_model(const std::vector<std::uint8_t>& base_file,
                                                 const std::vector<OlympicsStep>& pipeline,
                                                 const LabeledImages& train,
                                                 const LabeledImages& test);

// Checks entries as the grader does, against one base model file, the training split the
// rebuilds read and the test split they are evaluated on. Rebuilt models and their
// evaluations are cached by (base checksum, canonical pipeline prefix), so entries sharing a
// lineage, or a prefix of it, rebuild it once (kOlympicsCachedModels of them at a time).
class OlympicsChecker {
 public:
  // ValueError for bytes read_model_file refuses, an int8 base, or empty splits.
  OlympicsChecker(std::vector<std::uint8_t> base_file, std::shared_ptr<const LabeledImages> train,
                  std::shared_ptr<const LabeledImages> test);
  ~OlympicsChecker();
  OlympicsChecker(const OlympicsChecker&) = delete;
  OlympicsChecker& operator=(const OlympicsChecker&) = delete;

  // One entry ({id, name, events, base: {model, checksum}, pipeline, claimed: {accuracy,
  // parameter_bytes}, timing, finished_at}; docs/OLYMPICS.md), with the file's exported_at
  // (empty: not known) and machine object (null: none) for the evidence checks. Never throws
  // for a malformed entry: {"entry", "name", "valid": false, "error": the sentence naming the
  // path, ...} with the figures null and no events. A valid one: {"entry", "name", "valid":
  // true, "error": null, "pipeline" (canonical), "pipeline_key", "lineage_text", "accuracy",
  // "correct", "images", "parameter_bytes", "bytes_ratio", "baseline": {accuracy,
  // parameter_bytes, checksum}, "latency" (olympics_latency), "events": [{event, entered,
  // qualified, refusals, score, score_interval}] (every event, in order), "flags": [{code,
  // reason}]}.
  nlohmann::json check(const nlohmann::json& entry, const std::string& exported_at = "",
                       const nlohmann::json& machine = nullptr);

  // {accuracy, correct, images, parameter_bytes, checksum} of the base on the test split.
  nlohmann::json baseline();
  const std::string& base_checksum() const { return checksum_; }
  // Steps rebuilt so far (each cache miss); a step found in the cache is not counted.
  // At most kOlympicsCachedModels prefixes are kept (least recently used first out).
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  const detail::OlympicsBuilt& built(const std::vector<OlympicsStep>& pipeline);
  std::vector<std::uint8_t> base_;
  std::string checksum_, base_name_;
  std::unique_ptr<detail::OlympicsRebuilder> rebuilder_;
  std::map<std::string, std::unique_ptr<detail::OlympicsBuilt>> cache_;
  std::size_t rebuilds_ = 0;
  std::uint64_t uses_ = 0;
};

}  // namespace perflab
