// An entry's pipeline (olympics/entry.hpp): read from the entry's JSON or a made model's
// lineage with a sentence naming the path for anything else, written canonically (its key),
// and told in words.
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"

namespace perflab {
namespace {

using nlohmann::json;

// What an entry may hold, for every refusal of a step.
std::string allowed_steps() {
  return "an entry's pipeline is a structured prune (with 0 to " +
         std::to_string(kOlympicsMaxFinetuneEpochs) +
         " fine-tuning epochs), then optionally one int8 quantize, or either alone, or nothing "
         "(the baseline itself)";
}

const json& member(const json& step, const std::string& at, const char* key) {
  if (!step.contains(key)) throw ValueError(at + "." + key + " is missing");
  return step.at(key);
}

std::string text_member(const json& step, const std::string& at, const char* key) {
  const json& v = member(step, at, key);
  if (!v.is_string()) {
    throw ValueError(at + "." + key + " must be a string, got " + describe(v));
  }
  return v.get<std::string>();
}

// A whole number in [lo, hi] (1 and 1.0 alike).
std::size_t whole(const json& v, const std::string& path, std::size_t lo, std::size_t hi,
                  const std::string& meaning) {
  const bool ok = v.is_number() && std::isfinite(v.get<double>()) &&
                  v.get<double>() == std::floor(v.get<double>()) && v.get<double>() >= double(lo) &&
                  v.get<double>() <= double(hi);
  if (!ok) {
    throw ValueError(path + " must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + " (" + meaning + "), got " + describe(v));
  }
  return static_cast<std::size_t>(v.get<double>());
}

void only_fields(const json& step, const std::string& at, const std::set<std::string>& fields,
                 const std::string& kind) {
  for (const auto& item : step.items()) {
    if (!fields.count(item.key())) {
      std::string list;
      for (const std::string& f : fields) list += (list.empty() ? "" : ", ") + f;
      throw ValueError(at + " has a field \"" + item.key() + "\" a " + kind +
                       " step does not have; its fields are " + list);
    }
  }
}

OlympicsStep prune_step(const json& step, const std::string& at) {
  only_fields(step, at, {"transform", "method", "fraction", "finetune_epochs", "train_images"},
              "prune");
  const std::string method = text_member(step, at, "method");
  if (method != "structured") {
    throw ValueError(at + ".method is \"" + method +
                     "\"; an Olympics prune is \"structured\" (whole hidden units removed, so "
                     "the model really shrinks): " +
                     allowed_steps());
  }
  OlympicsStep s;
  s.transform = OlympicsTransform::prune;
  const json& fraction = member(step, at, "fraction");
  if (!fraction.is_number() || !(fraction.get<double>() >= 0) || !(fraction.get<double>() < 1)) {
    throw ValueError(at +
                     ".fraction must be a number at least 0 and below 1 (0.5 removes half "
                     "the hidden units), got " +
                     describe(fraction));
  }
  s.fraction = fraction.get<double>();
  s.finetune_epochs = whole(member(step, at, "finetune_epochs"), at + ".finetune_epochs", 0,
                            kOlympicsMaxFinetuneEpochs, "the fine-tuning epochs after the prune");
  if (s.finetune_epochs > 0) {
    s.train_images =
        whole(member(step, at, "train_images"), at + ".train_images", 1, kOlympicsMaxTrainImages,
              "the first training images the fine-tuning reads");
  } else if (step.contains("train_images")) {
    whole(step.at("train_images"), at + ".train_images", 0, kOlympicsMaxTrainImages,
          "the first training images; a prune without fine-tuning reads none");
  }
  return s;
}

OlympicsStep quantize_step(const json& step, const std::string& at) {
  only_fields(step, at,
              {"transform", "scheme", "calibration", "calibration_images", "train_images"},
              "quantize");
  const std::string scheme = text_member(step, at, "scheme");
  if (scheme != "int8") {
    throw ValueError(at + ".scheme is \"" + scheme + "\"; allowed: int8");
  }
  OlympicsStep s;
  s.transform = OlympicsTransform::quantize;
  const std::string calibration = text_member(step, at, "calibration");
  if (calibration != "minmax" && calibration != "percentile") {
    throw ValueError(at + ".calibration is \"" + calibration + "\"; allowed: minmax, percentile");
  }
  s.calibration = calibration_from_name(calibration);
  s.calibration_images =
      whole(member(step, at, "calibration_images"), at + ".calibration_images", 1,
            kOlympicsMaxTrainImages, "the first training images the calibration runs");
  if (step.contains("train_images")) {
    whole(step.at("train_images"), at + ".train_images", s.calibration_images,
          kOlympicsMaxTrainImages, "the training images the page held, at least the calibration's");
  }
  s.train_images = s.calibration_images;  // all the calibration reads
  return s;
}

}  // namespace

std::vector<OlympicsStep> olympics_pipeline_from_json(const json& pipeline,
                                                      const std::string& where) {
  if (!pipeline.is_array()) {
    throw ValueError(where + " must be an array of steps (" + allowed_steps() + "), got " +
                     describe(pipeline));
  }
  std::vector<OlympicsStep> steps;
  for (std::size_t i = 0; i < pipeline.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const json& step = pipeline[i];
    if (!step.is_object()) {
      throw ValueError(at + " must be an object {transform, ...}, got " + describe(step));
    }
    const std::string transform = text_member(step, at, "transform");
    if (transform == "prune") {
      if (!steps.empty()) {
        throw ValueError(
            at + " is a prune after " +
            (steps.back().transform == OlympicsTransform::prune ? "another prune" : "a quantize") +
            "; " + allowed_steps());
      }
      steps.push_back(prune_step(step, at));
    } else if (transform == "quantize") {
      if (!steps.empty() && steps.back().transform == OlympicsTransform::quantize) {
        throw ValueError(at + " is a second quantize; " + allowed_steps());
      }
      steps.push_back(quantize_step(step, at));
    } else if (transform == "distill") {
      throw ValueError(at +
                       ".transform is \"distill\": distillation trains another model, "
                       "which is not an Olympics step; " +
                       allowed_steps());
    } else {
      throw ValueError(at + ".transform is \"" + transform + "\"; allowed: prune, quantize (" +
                       allowed_steps() + ")");
    }
  }
  return steps;
}

json to_json(const OlympicsStep& s) {
  if (s.transform == OlympicsTransform::prune) {
    return {{"transform", "prune"},
            {"method", "structured"},
            {"fraction", s.fraction},
            {"finetune_epochs", s.finetune_epochs},
            {"train_images", s.finetune_epochs > 0 ? s.train_images : 0}};
  }
  return {{"transform", "quantize"},
          {"scheme", "int8"},
          {"calibration", calibration_name(s.calibration)},
          {"calibration_images", s.calibration_images},
          {"train_images", s.calibration_images}};
}

json olympics_pipeline_json(const std::vector<OlympicsStep>& pipeline) {
  json out = json::array();
  for (const OlympicsStep& s : pipeline) out.push_back(to_json(s));
  return out;
}

std::string olympics_pipeline_key(const std::vector<OlympicsStep>& pipeline) {
  return olympics_pipeline_json(pipeline).dump();
}

std::string olympics_lineage_text(const std::vector<OlympicsStep>& pipeline) {
  if (pipeline.empty()) return "the baseline (no transform)";
  std::string text;
  for (const OlympicsStep& s : pipeline) {
    if (!text.empty()) text += ", ";
    if (s.transform == OlympicsTransform::prune) {
      text += "prune " + format_number(100 * s.fraction, 3) + "%";
      if (s.finetune_epochs > 0) {
        text += ", fine-tune " + std::to_string(s.finetune_epochs) + " epoch" +
                (s.finetune_epochs == 1 ? "" : "s");
      }
    } else {
      text += std::string("int8 (") + calibration_name(s.calibration) + ", " +
              std::to_string(s.calibration_images) + " images)";
    }
  }
  return text;
}

std::vector<OlympicsStep> olympics_pipeline_of(const ModelFile& file, const std::string& what) {
  if (!file.training) return {};  // never trained: no transform either (the base decides)
  const json& lineage = file.training->lineage;
  json pipeline = json::array();
  for (std::size_t i = 0; i < lineage.size(); ++i) {
    const json& entry = lineage[i];
    const std::string at = what + "'s lineage[" + std::to_string(i) + "]";
    const std::string transform = entry.is_object() ? entry.value("transform", "") : "";
    const std::string method = entry.is_object() ? entry.value("method", "") : "";
    if (transform == "prune" && method == "structured") {
      json step = {{"transform", "prune"},
                   {"method", "structured"},
                   {"fraction", entry.value("fraction", json(nullptr))},
                   {"finetune_epochs", entry.value("finetune_epochs", json(nullptr))}};
      // The fine-tuning's data set: the images it trained on and those it held out.
      const TrainingFacts& f = *file.training;
      const json planned = f.recipe.value("epochs", json(nullptr));
      const json done = entry.value("finetune_epochs", json(nullptr));
      if (done.is_number() && done != 0 && planned.is_number() && planned != done) {
        // Its learning rate followed a schedule over the planned epochs: the weights are not
        // what a fine-tuning of the epochs done gives, so no pipeline rebuilds them.
        throw ValueError(at + " is a prune whose fine-tuning was cancelled after " + done.dump() +
                         " of " + planned.dump() +
                         " epochs; its learning rate followed the schedule of all " +
                         planned.dump() +
                         ", so the grader cannot rebuild it: fine-tune it again to the end and "
                         "enter that model");
      }
      step["train_images"] = f.train_samples + f.validation_samples;
      if (step["finetune_epochs"] == 0) step["train_images"] = 0;
      pipeline.push_back(step);
    } else if (transform == "quantize") {
      pipeline.push_back(
          {{"transform", "quantize"},
           {"scheme", entry.value("scheme", json(nullptr))},
           {"calibration", entry.value("calibration", json(nullptr))},
           {"calibration_images", entry.value("calibration_images", json(nullptr))}});
    } else {
      const std::string kind = transform == "distill" ? "a distillation"
                               : transform == "prune" ? "a " + method + " prune"
                                                      : "a \"" + transform + "\" transform";
      throw ValueError(at + " is " + kind + ", which an Olympics entry cannot hold: " +
                       allowed_steps() + "; enter a model made that way");
    }
  }
  return olympics_pipeline_from_json(pipeline, what + "'s lineage");
}

std::string model_file_checksum_hex(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < 32) {
    throw ValueError("a model file holds at least 32 bytes (header and checksum), got " +
                     std::to_string(bytes.size()));
  }
  std::uint64_t h = 0;
  for (int b = 7; b >= 0; --b) h = (h << 8) | bytes[bytes.size() - 8 + b];
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace perflab
