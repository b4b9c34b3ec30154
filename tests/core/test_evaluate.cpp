// Protects evaluate(): accuracy, per-class accuracy, the confusion matrix (rows true,
// columns predicted), the mean cross-entropy and the misclassified list, on five hand-made
// 2×2 images through a Linear layer whose weights pick one pixel per class, so every number
// is computed by hand below. Also: batching changes nothing, the image layout reads the same
// pixels, ties go to the first class (as NumPy's argmax), and the errors' sentences.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/train/evaluate.hpp"

using namespace perflab;

namespace {

// Five 2×2 images of 0 and 255; three classes. Logit c is pixel c (scale 1/255).
LabeledImages five_images() {
  LabeledImages d;
  d.count = 5;
  d.rows = d.cols = 2;
  d.classes = 3;
  d.class_names = {"a", "b", "c"};
  d.pixels = {255, 0, 0, 0,    // label 0, logits (1, 0, 0): right
              0, 255, 0, 0,    // label 1, logits (0, 1, 0): right
              0, 0, 255, 0,    // label 1, logits (0, 0, 1): predicted 2
              0, 0, 0, 255,    // label 2, logits (0, 0, 0): a tie, predicted 0
              0, 0, 255, 0};   // label 2, logits (0, 0, 1): right
  d.labels = {0, 1, 1, 2, 2};
  return d;
}

// Linear(4 -> 3) with weight[c][c] = 1 ((in, out) layout), the rest 0, no bias; optionally
// after a Flatten of (N, 1, 2, 2) images.
Model picker(bool image_input) {
  nlohmann::json spec = {{"name", "picker"}};
  nlohmann::json layers = nlohmann::json::array();
  if (image_input) {
    spec["input"] = {8, 1, 2, 2};
    layers.push_back({{"type", "Flatten"}});
  } else {
    spec["input"] = {8, 4};
  }
  layers.push_back({{"type", "Linear"}, {"in", 4}, {"out", 3}, {"bias", false}});
  spec["layers"] = layers;
  Model m = model_from_json(spec);
  Tensor& w = static_cast<Linear&>(m.layer(m.size() - 1)).weight();
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.0f;
  for (std::size_t c = 0; c < 3; ++c) w[c * 3 + c] = 1.0f;
  return m;
}

}  // namespace

TEST_CASE("evaluate counts a hand-made split exactly") {
  Model m = picker(false);
  const Evaluation e = evaluate(m, five_images(), Preprocessing{});
  CHECK(e.n == 5);
  CHECK(e.classes == 3);
  CHECK(e.correct == 3);
  CHECK(e.accuracy == doctest::Approx(0.6));
  const std::vector<std::vector<std::size_t>> confusion = {{1, 0, 0}, {0, 1, 1}, {1, 0, 1}};
  CHECK(e.confusion == confusion);
  CHECK(e.per_class_count == std::vector<std::size_t>{1, 2, 2});
  REQUIRE(e.per_class.size() == 3);
  CHECK(*e.per_class[0] == doctest::Approx(1.0));
  CHECK(*e.per_class[1] == doctest::Approx(0.5));
  CHECK(*e.per_class[2] == doctest::Approx(0.5));
  // Loss of logits with one 1 among zeros: log(e + 2) − 1 for the right class, log(e + 2) for
  // a zero one; log 3 for three equal logits.
  const double l = std::log(std::exp(1.0) + 2.0);
  CHECK(e.mean_loss == doctest::Approx((l - 1 + l - 1 + l + std::log(3.0) + l - 1) / 5));
  REQUIRE(e.misclassified.size() == 2);
  CHECK(e.misclassified_total == 2);
  CHECK(e.misclassified[0].index == 2);
  CHECK(e.misclassified[0].label == 1);
  CHECK(e.misclassified[0].predicted == 2);
  CHECK(e.misclassified[0].confidence == doctest::Approx(std::exp(1.0) / (std::exp(1.0) + 2)));
  CHECK(e.misclassified[1].index == 3);
  CHECK(e.misclassified[1].predicted == 0);  // the tie goes to the first class
  CHECK(e.misclassified[1].confidence == doctest::Approx(1.0 / 3));
  CHECK(e.parameter_bytes == 12 * 4);
  CHECK(e.class_names == std::vector<std::string>{"a", "b", "c"});

  const nlohmann::json j = to_json(e);
  CHECK(j.at("accuracy") == e.accuracy);
  CHECK(j.at("n") == 5);
  CHECK(j.at("confusion") == nlohmann::json(confusion));
  CHECK(j.at("per_class").size() == 3);
  CHECK(j.at("parameter_bytes") == 48);
  CHECK(j.at("misclassified")[0].at("index") == 2);
}

TEST_CASE("evaluate gives the same numbers at every batch size and in the image layout") {
  Model flat = picker(false);
  const Evaluation whole = evaluate(flat, five_images(), Preprocessing{});
  for (std::size_t batch : {1, 2, 3, 5, 64}) {
    CAPTURE(batch);
    EvaluateOptions o;
    o.batch = batch;
    const Evaluation e = evaluate(flat, five_images(), Preprocessing{}, o);
    CHECK(to_json(e) == to_json(whole));
  }
  Model image = picker(true);
  CHECK(check_classifier(image, five_images()));
  CHECK_FALSE(check_classifier(flat, five_images()));
  CHECK(to_json(evaluate(image, five_images(), Preprocessing{})) == to_json(whole));
}

TEST_CASE("evaluate caps the misclassified list, reports progress and stops when asked") {
  Model m = picker(false);
  EvaluateOptions o;
  o.batch = 2;
  o.max_misclassified = 1;
  std::vector<std::size_t> seen;
  o.progress = [&](std::size_t done, std::size_t total) {
    CHECK(total == 5);
    seen.push_back(done);
    return true;
  };
  const Evaluation e = evaluate(m, five_images(), Preprocessing{}, o);
  CHECK(e.misclassified.size() == 1);
  CHECK(e.misclassified_total == 2);
  CHECK(seen == std::vector<std::size_t>{2, 4, 5});

  o.progress = [](std::size_t done, std::size_t) { return done < 4; };
  CHECK_THROWS_WITH_AS(evaluate(m, five_images(), Preprocessing{}, o),
                       "evaluation cancelled after 4 of 5 images", CancelledError);
  // Caches stay off only during the evaluation.
  CHECK(m.layer(0).keep_for_backward());
}

TEST_CASE("a class without images has no accuracy, written as null") {
  Model m = picker(false);
  LabeledImages d = take_first(five_images(), 2);  // classes 0 and 1 only
  const Evaluation e = evaluate(m, d, Preprocessing{});
  CHECK_FALSE(e.per_class[2].has_value());
  CHECK(to_json(e).at("per_class")[2].is_null());
}

TEST_CASE("evaluate refuses a model that does not fit the images, in a sentence") {
  Model m = model_from_json(
      {{"input", {8, 9}}, {"layers", {{{"type", "Linear"}, {"in", 9}, {"out", 3}}}}});
  CHECK_THROWS_WITH_AS(evaluate(m, five_images(), Preprocessing{}),
                       "the model's input (8, 9) does not take the data's 2×2 grey images: its "
                       "input must be [batch, 4] (flat) or [batch, 1, 2, 2] (image)",
                       ValueError);
  Model wide = model_from_json(
      {{"input", {8, 4}}, {"layers", {{{"type", "Linear"}, {"in", 4}, {"out", 10}}}}});
  CHECK_THROWS_WITH_AS(evaluate(wide, five_images(), Preprocessing{}),
                       "the model's output (8, 10) must be (batch, 3): one logit per class of "
                       "the data; make the last layer give 3 outputs",
                       ValueError);
  Model ok = picker(false);
  EvaluateOptions o;
  o.batch = 0;
  CHECK_THROWS_WITH_AS(evaluate(ok, five_images(), Preprocessing{}, o),
                       "evaluation batch must be at least 1, got 0", ValueError);
  CHECK_THROWS_WITH_AS(evaluate(ok, LabeledImages{}, Preprocessing{}),
                       "the evaluation split has no images; give at least one", ValueError);
  Preprocessing bad;
  bad.std = 0;
  CHECK_THROWS_WITH_AS(evaluate(ok, five_images(), bad),
                       "preprocessing.std must be a positive finite number (1 leaves pixels "
                       "unstandardized), got 0",
                       ValueError);
}

TEST_CASE("an evaluation's JSON reads back through its field list") {
  Model m = picker(false);
  const Evaluation e = evaluate(m, take_first(five_images(), 4), Preprocessing{});
  const nlohmann::json j = to_json(e);
  CHECK(j.at("per_class")[2].is_number());
  const Evaluation back = read_fields<Evaluation>(j, "evaluation");
  CHECK(to_json(back) == j);
  nlohmann::json bad = j;
  bad["misclassified"][0]["label"] = 300;
  CHECK_THROWS_WITH_AS(read_fields<Evaluation>(bad, "evaluation"),
                       "evaluation.misclassified[0].label must be at most 255, got 300",
                       ValueError);
}
