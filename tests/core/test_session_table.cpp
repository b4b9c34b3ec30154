// The session table the page's worker trains through (train/session_table.hpp): ids name
// what it holds and an unknown id is a sentence listing the held ones; a model trained in
// chunks of steps ends with the weights of one long run, a cancel keeps the epochs done, and
// the model file records the training. Real data natively (the test split's first images);
// the wasm build runs the parts without files (tests/wasm/train.test.mjs covers the rest).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/train/session_table.hpp"

using namespace perflab;

namespace {

const nlohmann::json kSmallMlp = {{"name", "small_mlp"},
                                  {"input", {16, 784}},
                                  {"layers",
                                   {{{"type", "Linear"}, {"in", 784}, {"out", 16}},
                                    {{"type", "ReLU"}},
                                    {{"type", "Linear"}, {"in", 16}, {"out", 10}}}}};

}  // namespace

TEST_CASE("The session table names an unknown id and the ids it holds") {
  SessionTable t;
  CHECK_THROWS_WITH_AS(t.model_info(3),
                       "no model has id 3: no model is held; create or load one first", ValueError);
  CHECK_THROWS_WITH_AS(t.dataset_info(1),
                       "no data set has id 1: no data set is held; load one first", ValueError);
  const std::size_t a = t.add_model(kSmallMlp);
  const std::size_t b = t.add_model(kSmallMlp);
  CHECK(a == 1);
  CHECK(b == 2);
  t.drop_model(a);
  CHECK_THROWS_WITH_AS(t.train_steps(1, 1),
                       "no model has id 1: the models held are 2; create or load one first",
                       ValueError);
  CHECK_THROWS_WITH_AS(t.train_steps(b, 1), "model 2 is not training: start its training first",
                       ValueError);
  CHECK(t.model_info(b)["training"].is_null());
  CHECK(t.model_info(b)["parameter_count"] == 784 * 16 + 16 + 16 * 10 + 10);
  // The held model's weights as the pruning section looks at them: weights only, no biases.
  const nlohmann::json w = t.weight_distribution(b);
  REQUIRE(w["tensors"].size() == 2);
  CHECK(w["tensors"][0]["name"] == "0.weight");
  CHECK(w["tensors"][1]["count"] == 16 * 10);
  CHECK(w["all"]["count"] == 784 * 16 + 16 * 10);
  CHECK_THROWS_WITH_AS(t.weight_distribution(1),
                       "no model has id 1: the models held are 2; create or load one first",
                       ValueError);
  // Ids are never reused, and the table refuses to hold more than its cap.
  for (std::size_t i = 1; i < kMaxHeldModels; ++i) t.add_model(kSmallMlp);
  CHECK_THROWS_AS(t.add_model(kSmallMlp), ValueError);
  CHECK(t.model_info(kMaxHeldModels + 1)["model"] == kMaxHeldModels + 1);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("The session table shares a held split's images, and refuses the other split") {
  const std::string dir = kFashionMnistDir;
  const auto images = read_maybe_gzip_file(dir + "/t10k-images-idx3-ubyte.gz");
  const auto labels = read_maybe_gzip_file(dir + "/t10k-labels-idx1-ubyte.gz");
  SessionTable t;
  const std::size_t test = t.add_fashion_mnist(images, labels, "test", 30);
  const std::size_t train = t.add_fashion_mnist(images, labels, "train", 20);
  const std::shared_ptr<const LabeledImages> shared = t.images(test, "test");
  REQUIRE(shared != nullptr);
  CHECK(shared->count == 30);
  CHECK(shared->pixels.size() == 30 * 28 * 28);
  CHECK(shared->labels.size() == 30);
  CHECK_THROWS_WITH_AS(t.images(train, "test"),
                       "data set 2 is the train split; this needs the test split", ValueError);
  CHECK_THROWS_WITH_AS(t.images(9, "test"),
                       "no data set has id 9: the data sets held are 1, 2; load one first",
                       ValueError);
  // Dropped from the table, the images stay with whoever still measures on them.
  t.drop_dataset(test);
  CHECK_THROWS_AS(t.dataset_info(test), ValueError);
  CHECK(shared->count == 30);
  CHECK(shared->labels.size() == 30);
}
#endif

#ifndef __EMSCRIPTEN__
TEST_CASE("Training through the session table: chunks equal one run, a cancel keeps the epochs") {
  const std::string dir = kFashionMnistDir;
  const auto images = read_maybe_gzip_file(dir + "/t10k-images-idx3-ubyte.gz");
  const auto labels = read_maybe_gzip_file(dir + "/t10k-labels-idx1-ubyte.gz");
  SessionTable t;
  const std::size_t d = t.add_fashion_mnist(images, labels, "test", 400);
  CHECK(t.dataset_info(d)["count"] == 400);
  // A tenth of the set, never more than the recipe's default: what the page fills in.
  CHECK(t.dataset_info(d)["default_validation_samples"] == 40);
  CHECK(default_validation_samples(12000) == 1200);
  CHECK(default_validation_samples(60000) == kDefaultValidationSamples);
  CHECK(default_validation_samples(9) == 0);
  const nlohmann::json recipe = {
      {"epochs", 2}, {"batch", 16}, {"validation_samples", 80}, {"seed", 3}};

  const std::size_t whole = t.add_model(kSmallMlp);
  const std::size_t chunked = t.add_model(kSmallMlp);
  const std::size_t cancelled = t.add_model(kSmallMlp);
  const nlohmann::json plan = t.start_training(whole, d, recipe);
  REQUIRE(plan["steps_per_epoch"] == 20);
  t.start_training(chunked, d, recipe);
  t.start_training(cancelled, d, recipe);
  CHECK(t.train_steps(whole, 1000)["finished"] == true);
  while (!t.train_steps(chunked, 3)["finished"].get<bool>()) {
  }
  CHECK(t.model_file(whole) == t.model_file(chunked));

  // Cancelled in its second epoch: the first epoch's weights, one epoch in the file's facts.
  CHECK(t.train_steps(cancelled, 25)["epochs"].size() == 1);
  CHECK(t.cancel_training(cancelled)["cancelled"] == true);
  const ModelFile file = read_model_file(t.model_file(cancelled), "the file");
  REQUIRE(file.training.has_value());
  CHECK(file.training->epochs == 1);
  CHECK(file.training->train_samples == 320);
  CHECK(t.evaluate(whole, d, 0)["n"] == 400);
}
#endif
