// Rebuilding an entry's model and checking the entry (olympics/entry.hpp). The rebuild drives
// a private SessionTable through the calls the page's lab worker makes, so there is one code
// path for a made model: what the page made, the grader remakes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/grading/forensics.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab {

using nlohmann::json;

namespace detail {

// A model file made by a pipeline prefix and its evaluation on the test split.
struct OlympicsBuilt {
  std::vector<std::uint8_t> bytes;
  double accuracy = 0;
  std::size_t correct = 0, images = 0, parameter_bytes = 0;
  bool base = false;            // the empty pipeline's: kept for good
  std::uint64_t last_used = 0;  // OlympicsChecker's use count at its last use
};

// Runs one step at a time in its own table, which holds the test split for good and a
// step's models and training images only while the step runs.
class OlympicsRebuilder {
 public:
  OlympicsRebuilder(std::shared_ptr<const LabeledImages> train, const LabeledImages& test)
      : train_(std::move(train)), test_id_(table_.add_images(test, "test")) {}

  // `step` applied to the model file `source` (none: the source itself), evaluated.
  OlympicsBuilt run(const std::vector<std::uint8_t>& source, const OlympicsStep* step,
                    const std::string& where) {
    // The step's training images first: too many is the entry's field, named by its path.
    const bool reads_train =
        step && (step->transform == OlympicsTransform::quantize || step->finetune_epochs > 0);
    LabeledImages images = reads_train ? first_train(*step, where) : LabeledImages{};
    std::vector<std::size_t> models, datasets;
    const auto drop = [&] {
      for (std::size_t id : models) table_.drop_model(id);
      for (std::size_t id : datasets) table_.drop_dataset(id);
    };
    try {
      models.push_back(table_.add_model_file(source, "the rebuild's source model"));
      std::size_t id = models.back();
      if (step && step->transform == OlympicsTransform::prune) {
        id = table_.prune_structured(id, step->fraction).at("model").get<std::size_t>();
        models.push_back(id);
        if (step->finetune_epochs > 0) {
          datasets.push_back(table_.add_images(std::move(images), "train"));
          table_.start_finetuning(id, datasets.back(), step->finetune_epochs);
          // Chunks of any size give the weights of one long call (train_steps).
          while (!table_.train_steps(id, std::size_t{1} << 30).at("finished").get<bool>()) {
          }
        }
      } else if (step) {
        datasets.push_back(table_.add_images(std::move(images), "train"));
        // One test image for the layer errors the page shows: they do not touch the model.
        id = quantize_held_model(table_, id, datasets.back(), test_id_, step->calibration_images,
                                 step->calibration, 1)
                 .at("model")
                 .get<std::size_t>();
        models.push_back(id);
      }
      // The page evaluates after fine-tuning; the file records that test accuracy.
      const json e = table_.evaluate(id, test_id_, 0);
      OlympicsBuilt b;
      b.bytes = table_.model_file(id);
      b.accuracy = e.at("accuracy").get<double>();
      b.correct = e.at("correct").get<std::size_t>();
      b.images = e.at("n").get<std::size_t>();
      b.parameter_bytes = e.at("parameter_bytes").get<std::size_t>();
      drop();
      return b;
    } catch (const ValueError& e) {
      drop();
      // What the session table refused of a step that reads well (a split too small to hold
      // out the fine-tuning's validation images): the entry's, named by the step's path.
      throw ValueError(where + " cannot be rebuilt: " + e.what());
    } catch (...) {
      drop();
      throw;
    }
  }

 private:
  LabeledImages first_train(const OlympicsStep& s, const std::string& where) const {
    if (s.train_images > train_->count) {
      throw ValueError(where + ".train_images is " + std::to_string(s.train_images) +
                       " but the training split here holds " + std::to_string(train_->count) +
                       " images");
    }
    return take_first(*train_, s.train_images);
  }

  std::shared_ptr<const LabeledImages> train_;
  SessionTable table_;
  std::size_t test_id_;
};

}  // namespace detail

std::vector<std::uint8_t> rebuild_olympics_model(const std::vector<std::uint8_t>& base_file,
                                                 const std::vector<OlympicsStep>& pipeline,
                                                 const LabeledImages& train,
                                                 const LabeledImages& test) {
  // The table keeps its own copies; the train split is shared without one.
  detail::OlympicsRebuilder r(std::shared_ptr<const LabeledImages>(&train, [](auto*) {}), test);
  std::vector<std::uint8_t> bytes = base_file;
  for (std::size_t i = 0; i < pipeline.size(); ++i) {
    bytes = r.run(bytes, &pipeline[i], "pipeline[" + std::to_string(i) + "]").bytes;
  }
  return bytes;
}

OlympicsChecker::OlympicsChecker(std::vector<std::uint8_t> base_file,
                                 std::shared_ptr<const LabeledImages> train,
                                 std::shared_ptr<const LabeledImages> test)
    : base_(std::move(base_file)) {
  const ModelFile file = read_model_file(base_, "the base model file");
  if (file.quantization) {
    throw ValueError("the base model is int8; the Olympics' base is the float baseline");
  }
  if (!train || train->count == 0 || !test || test->count == 0) {
    throw ValueError("the checker needs a training split and a test split with images");
  }
  checksum_ = model_file_checksum_hex(base_);
  base_name_ = file.model.name();
  rebuilder_ = std::make_unique<detail::OlympicsRebuilder>(std::move(train), *test);
}

OlympicsChecker::~OlympicsChecker() = default;

const detail::OlympicsBuilt& OlympicsChecker::built(const std::vector<OlympicsStep>& pipeline) {
  const detail::OlympicsBuilt* source = nullptr;
  for (std::size_t k = 0; k <= pipeline.size(); ++k) {
    const std::vector<OlympicsStep> prefix(pipeline.begin(), pipeline.begin() + k);
    const std::string key = checksum_ + " " + olympics_pipeline_key(prefix);
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      const std::string where = "entry.pipeline[" + std::to_string(k == 0 ? 0 : k - 1) + "]";
      auto b = std::make_unique<detail::OlympicsBuilt>(
          rebuilder_->run(source ? source->bytes : base_, k ? &pipeline[k - 1] : nullptr, where));
      if (k > 0) ++rebuilds_;
      it = cache_.emplace(key, std::move(b)).first;
      if (cache_.size() > kOlympicsCachedModels + 1) {
        // The least recently used prefix goes; never the base or the one just made.
        auto oldest = cache_.end();
        for (auto c = cache_.begin(); c != cache_.end(); ++c) {
          if (c != it && !c->second->base &&
              (oldest == cache_.end() || c->second->last_used < oldest->second->last_used)) {
            oldest = c;
          }
        }
        cache_.erase(oldest);
      }
    }
    it->second->base = k == 0;
    it->second->last_used = ++uses_;
    source = it->second.get();
  }
  return *source;
}

json OlympicsChecker::baseline() {
  const detail::OlympicsBuilt& b = built({});
  return {{"accuracy", b.accuracy},
          {"correct", b.correct},
          {"images", b.images},
          {"parameter_bytes", b.parameter_bytes},
          {"checksum", checksum_}};
}

namespace {

const json& required(const json& j, const std::string& where, const char* key) {
  if (!j.contains(key)) throw ValueError(where + "." + key + " is missing");
  return j.at(key);
}

std::string required_text(const json& j, const std::string& where, const char* key,
                          std::size_t max_chars, bool nonempty) {
  const json& v = required(j, where, key);
  if (!v.is_string() || (nonempty && v.get<std::string>().empty()) ||
      v.get<std::string>().size() > max_chars) {
    throw ValueError(where + "." + key + " must be a " + (nonempty ? "non-empty " : "") +
                     "string of at most " + std::to_string(max_chars) + " characters, got " +
                     describe(v));
  }
  return v.get<std::string>();
}

// entry.claimed: {accuracy 0..1, parameter_bytes a whole number ≥ 1}; null or absent: none.
struct Claim {
  bool given = false;
  double accuracy = 0, parameter_bytes = 0;
};
Claim claim_of(const json& entry) {
  Claim c;
  if (!entry.contains("claimed") || entry.at("claimed").is_null()) return c;
  const json& claimed = entry.at("claimed");
  if (!claimed.is_object()) {
    throw ValueError("entry.claimed must be an object {accuracy, parameter_bytes}, got " +
                     describe(claimed));
  }
  const json& a = required(claimed, "entry.claimed", "accuracy");
  if (!a.is_number() || !(a.get<double>() >= 0) || !(a.get<double>() <= 1)) {
    throw ValueError(
        "entry.claimed.accuracy must be a number from 0 to 1 (the test accuracy "
        "the page measured), got " +
        describe(a));
  }
  const json& b = required(claimed, "entry.claimed", "parameter_bytes");
  if (!b.is_number() || !(b.get<double>() >= 1) || b.get<double>() != std::floor(b.get<double>()) ||
      !(b.get<double>() <= 1e12)) {
    throw ValueError(
        "entry.claimed.parameter_bytes must be a whole number of bytes, at least "
        "1, got " +
        describe(b));
  }
  c.given = true;
  c.accuracy = a.get<double>();
  c.parameter_bytes = b.get<double>();
  return c;
}

}  // namespace

json OlympicsChecker::check(const json& entry, const std::string& exported_at,
                            const json& machine) {
  json out = {{"entry", nullptr},
              {"name", nullptr},
              {"valid", false},
              {"error", nullptr},
              {"pipeline", nullptr},
              {"pipeline_key", nullptr},
              {"lineage_text", nullptr},
              {"accuracy", nullptr},
              {"correct", nullptr},
              {"images", nullptr},
              {"parameter_bytes", nullptr},
              {"bytes_ratio", nullptr},
              {"baseline", nullptr},
              {"latency", nullptr},
              {"events", json::array()},
              {"flags", json::array()}};
  try {
    if (!entry.is_object()) {
      throw ValueError(
          "entry must be an object {id, name, events, base, pipeline, claimed, "
          "timing, finished_at}, got " +
          describe(entry));
    }
    out["entry"] = required_text(entry, "entry", "id", 64, true);
    out["name"] = required_text(entry, "entry", "name", 200, false);

    // Everything that costs nothing is read before the rebuild, which may cost seconds.
    const json& events = required(entry, "entry", "events");
    if (!events.is_array()) {
      throw ValueError("entry.events must be an array of event ids, got " + describe(events));
    }
    std::vector<std::string> entered;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const std::string at = "entry.events[" + std::to_string(i) + "]";
      if (!events[i].is_string()) {
        throw ValueError(at + " must be an event id (a string), got " + describe(events[i]));
      }
      const std::string id = events[i].get<std::string>();
      try {
        olympics_event(id);
      } catch (const ValueError& e) {
        throw ValueError(at + ": " + e.what());
      }
      if (std::find(entered.begin(), entered.end(), id) != entered.end()) {
        throw ValueError(at + " names \"" + id + "\" a second time; enter each event once");
      }
      entered.push_back(id);
    }

    const json& base = required(entry, "entry", "base");
    if (!base.is_object()) {
      throw ValueError("entry.base must be an object {model, checksum}, got " + describe(base));
    }
    const std::string base_model = required_text(base, "entry.base", "model", 64, true);
    const std::string checksum = required_text(base, "entry.base", "checksum", 16, true);
    const std::string& base_name = base_name_;
    if (base_model != base_name || checksum != checksum_) {
      throw ValueError("entry.base is " + base_model + " with checksum " + checksum +
                       ", but the base here is " + base_name + " with checksum " + checksum_ +
                       ": the entry was made from another model; an entry transforms the "
                       "pretrained " +
                       base_name);
    }

    const std::vector<OlympicsStep> pipeline =
        olympics_pipeline_from_json(required(entry, "entry", "pipeline"), "entry.pipeline");
    const Claim claim = claim_of(entry);
    const json latency = olympics_latency(required(entry, "entry", "timing"), "entry.timing");
    std::string finished_at;
    if (entry.contains("finished_at") && !entry.at("finished_at").is_null()) {
      const json& f = entry.at("finished_at");
      if (!f.is_string() || std::isnan(iso_time_ms(f.get<std::string>()))) {
        throw ValueError(
            "entry.finished_at must be an ISO time as the page writes it "
            "(\"2026-12-02T07:00:00.000Z\"), got " +
            describe(f));
      }
      finished_at = f.get<std::string>();
    }

    // The base first: making the entry's prefixes never evicts it, and `b` stays cached.
    const detail::OlympicsBuilt& baseline_built = built({});
    const detail::OlympicsBuilt& b = built(pipeline);
    OlympicsFigures figures;
    figures.accuracy = b.accuracy;
    figures.parameter_bytes = static_cast<double>(b.parameter_bytes);
    figures.baseline_accuracy = baseline_built.accuracy;
    figures.baseline_parameter_bytes = static_cast<double>(baseline_built.parameter_bytes);
    figures.latency_ratio = latency.at("ratio").get<double>();
    figures.latency_ratio_low = latency.at("interval").at(0).get<double>();
    figures.latency_ratio_high = latency.at("interval").at(1).get<double>();
    json judged = json::array();
    for (const EventJudgement& j : judge_olympics_entry(figures)) {
      json row = to_json(j);
      row["entered"] = std::find(entered.begin(), entered.end(), j.event) != entered.end();
      judged.push_back(row);
    }

    json flags = json::array();
    if (claim.given && std::abs(claim.accuracy - b.accuracy) > kOlympicsClaimAccuracyTolerance) {
      flags.push_back(
          {{"code", kFlagOlympicsClaimDiffers},
           {"reason", "claimed accuracy " + format_number(claim.accuracy, 4) + ", rebuilt " +
                          format_number(b.accuracy, 4) + " (" + std::to_string(b.correct) + " of " +
                          std::to_string(b.images) +
                          " test images): the grader's rebuild is what counts"}});
    }
    if (claim.given && claim.parameter_bytes != static_cast<double>(b.parameter_bytes)) {
      flags.push_back(
          {{"code", kFlagOlympicsClaimDiffers},
           {"reason", "claimed " + format_number(claim.parameter_bytes, 15) +
                          " parameter bytes, rebuilt " + std::to_string(b.parameter_bytes) +
                          ": the grader's rebuild is what counts"}});
    }
    json evidence = {{"rows", json::array({entry.at("timing")})}};
    if (!finished_at.empty()) evidence["finished_at"] = finished_at;
    for (const EvidenceFlag& f : evidence_flags(evidence, machine, exported_at)) {
      flags.push_back({{"code", f.code}, {"reason", "entry.timing: " + f.reason}});
    }

    out["valid"] = true;
    out["pipeline"] = olympics_pipeline_json(pipeline);
    out["pipeline_key"] = olympics_pipeline_key(pipeline);
    out["lineage_text"] = olympics_lineage_text(pipeline);
    out["accuracy"] = b.accuracy;
    out["correct"] = b.correct;
    out["images"] = b.images;
    out["parameter_bytes"] = b.parameter_bytes;
    out["bytes_ratio"] = figures.parameter_bytes / figures.baseline_parameter_bytes;
    out["baseline"] = baseline();
    out["latency"] = latency;
    out["events"] = judged;
    out["flags"] = flags;
  } catch (const ValueError& e) {
    out["valid"] = false;
    out["error"] = e.what();
    out["events"] = json::array();
    out["flags"] = json::array();
  }
  return out;
}

}  // namespace perflab
