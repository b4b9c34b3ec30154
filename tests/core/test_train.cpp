// Protects training in core: the fused softmax cross-entropy (hand-computed values, stability,
// finite differences), the gradients of every layer type training uses through that loss, the
// optimizers against hand-computed steps and their state against the profiler's figures,
// He/Xavier initialisation, the schedules, the recipe's JSON and checks, and the trainer:
// learning on real Fashion-MNIST subsets (natively), bit-identical weights for the same seed,
// cancel keeping the epochs done, a diverging loss stopped in a sentence, a plan over budget
// refused before it starts. Learning is asserted (loss falls, accuracy well above chance at a
// fixed seed), never time.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gradient_check.hpp"
#include "real_data.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/train/loss.hpp"
#include "perflab/train/optimizer.hpp"
#include "perflab/train/train.hpp"

using namespace perflab;

namespace {

using Labels = std::vector<std::uint8_t>;

double loss_of(const Tensor& logits, const Labels& labels) {
  return softmax_cross_entropy(logits, labels, false).loss;
}

// d(loss(net(x)))/d(x and every parameter) by central differences against backward(dlogits),
// the training path's gradient. The loss is summed in double by softmax_cross_entropy.
template <class Net>
void check_loss_gradients(Net& net, const Tensor& x, const Labels& labels,
                          const perflab::testing::GradientTolerance& tol) {
  using perflab::testing::Worst;
  net.zero_grad();
  const LossResult r = softmax_cross_entropy(net.forward(x), labels);
  const Tensor dx = net.backward(r.dlogits);
  REQUIRE(dx.shape() == x.shape());
  const auto numeric = [&](float& slot, const Tensor& input) {
    const float original = slot;
    const float plus = original + static_cast<float>(tol.eps);
    const float minus = original - static_cast<float>(tol.eps);
    slot = plus;
    const double up = loss_of(net.forward(input), labels);
    slot = minus;
    const double down = loss_of(net.forward(input), labels);
    slot = original;
    return (up - down) / (static_cast<double>(plus) - minus);
  };
  {
    Worst worst;
    Tensor probe = x;
    for (std::size_t i = 0; i < x.size(); ++i) worst.update(i, numeric(probe[i], probe), dx[i], tol);
    INFO("dinput: worst element " << worst.index << ": numeric " << worst.numeric
                                  << ", analytic " << worst.analytic);
    CHECK(worst.ratio <= 1.0);
  }
  for (auto& p : net.parameters()) {
    Worst worst;
    for (std::size_t i = 0; i < p.value->size(); ++i) {
      worst.update(i, numeric((*p.value)[i], x), (*p.grad)[i], tol);
    }
    INFO("d" << p.name << ": worst element " << worst.index << ": numeric " << worst.numeric
             << ", analytic " << worst.analytic);
    CHECK(worst.ratio <= 1.0);
  }
}

// A hand-made data set of 6×6 grey images in 3 classes, for the trainer's mechanics in every
// build (the real files are native only): class c has a bright 2-row band at rows 2c, 2c+1,
// plus seeded noise.
LabeledImages banded_images(std::size_t count, std::uint64_t seed) {
  LabeledImages d;
  d.count = count;
  d.rows = d.cols = 6;
  d.classes = 3;
  d.class_names = {"top", "middle", "bottom"};
  Rng rng(seed);
  for (std::size_t n = 0; n < count; ++n) {
    const auto c = static_cast<std::uint8_t>(n % 3);
    d.labels.push_back(c);
    for (std::size_t r = 0; r < 6; ++r) {
      for (std::size_t col = 0; col < 6; ++col) {
        const bool band = r / 2 == c;
        d.pixels.push_back(static_cast<std::uint8_t>((band ? 150 : 0) + rng.integer(0, 100)));
      }
    }
  }
  return d;
}

Model banded_mlp() {
  return model_from_json_text(R"({"name": "banded", "input": [8, 36],
    "layers": [{"type": "Linear", "in": 36, "out": 16}, {"type": "ReLU"},
               {"type": "Linear", "in": 16, "out": 3}]})");
}

std::vector<std::uint8_t> weight_bytes(Model& m) {
  std::vector<std::uint8_t> bytes;
  for (const ParameterRef& p : m.parameters()) {
    const auto* b = reinterpret_cast<const std::uint8_t*>(p.value->data());
    bytes.insert(bytes.end(), b, b + p.value->bytes());
  }
  return bytes;
}

TrainRecipe small_recipe() {
  TrainRecipe r;
  r.batch = 8;
  r.epochs = 3;
  r.learning_rate = 0.01;
  r.seed = 5;
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The loss

TEST_CASE("softmax cross-entropy matches hand-computed values and counts the correct rows") {
  // Row 0: logits (0, ln 3): p = (1/4, 3/4), label 1: −ln(3/4). Row 1: equal logits, label 0:
  // −ln(1/2); the tie goes to index 0, so row 1 counts as correct too.
  const Tensor logits({2, 2}, {0.0f, static_cast<float>(std::log(3.0)), 5.0f, 5.0f});
  const LossResult r = softmax_cross_entropy(logits, Labels{1, 0});
  CHECK(r.loss == doctest::Approx((-std::log(0.75) - std::log(0.5)) / 2).epsilon(1e-6));
  CHECK(r.correct == 2);
  // dlogits = (p − one_hot) / N.
  CHECK(r.dlogits[0] == doctest::Approx(0.25 / 2).epsilon(1e-6));
  CHECK(r.dlogits[1] == doctest::Approx(-0.25 / 2).epsilon(1e-6));
  CHECK(r.dlogits[2] == doctest::Approx(-0.5 / 2).epsilon(1e-6));
  CHECK(r.dlogits[3] == doctest::Approx(0.5 / 2).epsilon(1e-6));
  CHECK(softmax_cross_entropy(logits, Labels{1, 0}, false).dlogits.size() == 0);
}

TEST_CASE("softmax cross-entropy stays finite for logits far beyond exp's range") {
  // exp(1e4) overflows even a double; the log-sum-exp subtracts the row maximum first.
  const Tensor logits({2, 3}, {1e4f, 0.0f, -1e4f, -1e4f, -1e4f, -1e4f + 1.0f});
  const LossResult r = softmax_cross_entropy(logits, Labels{1, 2});
  REQUIRE(std::isfinite(r.loss));
  // Row 0: 1e4 − 0 (the label's logit is 1e4 below the maximum); row 1: −ln(e / (2 + e)).
  CHECK(r.loss == doctest::Approx((1e4 + std::log(2.0 + std::exp(1.0)) - 1.0) / 2).epsilon(1e-6));
  for (std::size_t i = 0; i < r.dlogits.size(); ++i) CHECK(std::isfinite(r.dlogits[i]));
  CHECK(r.correct == 1);
}

TEST_CASE("softmax cross-entropy refuses shapes and labels that do not fit, in sentences") {
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(Tensor({2, 3, 1}), Labels{0, 0}),
                       "softmax cross-entropy: logits must have shape (N, classes), got (2, 3, 1)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(Tensor({2, 3}), Labels{0}),
                       "softmax cross-entropy: 1 labels for 2 rows of logits; give one label per row",
                       ShapeError);
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(Tensor({2, 3}), Labels{0, 3}),
                       "softmax cross-entropy: label 3 of row 1 is not below the 3 classes of the "
                       "logits",
                       ValueError);
}

TEST_CASE("the loss's gradient matches finite differences of the loss, in double") {
  const Tensor logits = Tensor::random({4, 5}, 11, -3, 3);
  const Labels labels = {0, 4, 2, 2};
  const LossResult r = softmax_cross_entropy(logits, labels);
  perflab::testing::Worst worst;
  const perflab::testing::GradientTolerance tol{1e-2, 1e-3, 1e-5};
  Tensor probe = logits;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const float original = probe[i];
    probe[i] = original + 0.01f;
    const double up = loss_of(probe, labels);
    probe[i] = original - 0.01f;
    const double down = loss_of(probe, labels);
    probe[i] = original;
    worst.update(i, (up - down) / ((original + 0.01f) - (original - 0.01f)), r.dlogits[i], tol);
  }
  INFO("worst element " << worst.index << ": numeric " << worst.numeric << ", analytic "
                        << worst.analytic);
  CHECK(worst.ratio <= 1.0);
}

// ---------------------------------------------------------------------------------------
// Gradients of the layers training uses, through the loss

TEST_CASE("Flatten's backward matches finite differences") {
  Flatten flatten;
  perflab::testing::check_gradients(flatten, Tensor::random({2, 3, 2, 2}, 12), 13);
}

TEST_CASE("the training gradient of Linear, ReLU, Conv2d, MaxPool2d and Flatten through the "
          "loss matches finite differences") {
  SUBCASE("an MLP like fashion_mlp") {
    Model m = model_from_json_text(R"({"name": "mlp", "input": [3, 12], "seed": 4,
      "layers": [{"type": "Linear", "in": 12, "out": 8}, {"type": "ReLU"},
                 {"type": "Linear", "in": 8, "out": 6}, {"type": "ReLU"},
                 {"type": "Linear", "in": 6, "out": 4}]})");
    check_loss_gradients(m, Tensor::random({3, 12}, 14, -2, 2), Labels{0, 3, 1},
                         {1e-3, 3e-2, 2e-3});
  }
  SUBCASE("a CNN like fashion_cnn") {
    Model m = model_from_json_text(R"({"name": "cnn", "input": [2, 1, 6, 6], "seed": 3,
      "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 2, "kernel": 3,
                  "padding": 1}, {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
                 {"type": "Conv2d", "in_channels": 2, "out_channels": 3, "kernel": 3,
                  "padding": 1}, {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 3},
                 {"type": "Flatten"}, {"type": "Linear", "in": 3, "out": 4}]})");
    // eps 1e-3 keeps perturbations from reordering a max-pool window or crossing a ReLU kink.
    check_loss_gradients(m, Tensor::random({2, 1, 6, 6}, 7, -2, 2), Labels{2, 1},
                         {1e-3, 3e-2, 2e-3});
  }
}

// ---------------------------------------------------------------------------------------
// Optimizers

namespace {
struct OneParameter {
  Tensor value = Tensor({1}, {1.0f});
  Tensor grad = Tensor({1});
  std::vector<ParameterRef> refs() { return {{"w", &value, &grad}}; }
};
}  // namespace

TEST_CASE("SGD with momentum, Adam and AdamW take the hand-computed steps") {
  SUBCASE("SGD, momentum 0.9, lr 0.1, gradient 0.5 twice: v 0.5 then 0.95") {
    OneParameter p;
    auto opt = make_optimizer({.name = "sgd", .momentum = 0.9}, p.refs());
    p.grad[0] = 0.5f;
    opt->step(0.1);
    CHECK(p.value[0] == doctest::Approx(0.95));
    opt->step(0.1);
    CHECK(p.value[0] == doctest::Approx(0.855));
    CHECK(opt->steps() == 2);
  }
  SUBCASE("plain SGD: w −= lr·g") {
    OneParameter p;
    auto opt = make_optimizer({.name = "sgd", .momentum = 0.0}, p.refs());
    p.grad[0] = 0.5f;
    opt->step(0.1);
    opt->step(0.1);
    CHECK(p.value[0] == doctest::Approx(0.9));
  }
  SUBCASE("Adam, lr 0.01: gradients 0.5 then −1 (values from the textbook formula in Python)") {
    OneParameter p;
    auto opt = make_optimizer({.name = "adam"}, p.refs());
    p.grad[0] = 0.5f;
    opt->step(0.01);
    CHECK(p.value[0] == doctest::Approx(0.9900000002).epsilon(1e-6));
    p.grad[0] = -1.0f;
    opt->step(0.01);
    CHECK(p.value[0] == doctest::Approx(0.9936610354).epsilon(1e-6));
  }
  SUBCASE("AdamW decays the weight before the Adam step: 1·(1 − 0.01·0.1) − 0.01") {
    OneParameter p;
    auto opt = make_optimizer({.name = "adamw", .weight_decay = 0.1}, p.refs());
    p.grad[0] = 0.5f;
    opt->step(0.01);
    CHECK(p.value[0] == doctest::Approx(0.989).epsilon(1e-6));
  }
}

TEST_CASE("a moment that decays below 1e-30 becomes 0 instead of a slow subnormal float") {
  // One gradient of 1, then 700 steps of 0 (a ReLU unit no image turns on): Adam's m is
  // 0.1·0.9^699 ≈ 1e-33 by then, v 0.001·0.999^699 ≈ 5e-4.
  OneParameter p;
  auto opt = make_optimizer({.name = "adam"}, p.refs());
  p.grad[0] = 1.0f;
  opt->step(0.001);
  p.grad[0] = 0.0f;
  for (int i = 0; i < 699; ++i) opt->step(0.001);
  const std::vector<const Tensor*> state = opt->state_of(0);
  REQUIRE(state.size() == 2);
  CHECK((*state[0])[0] == 0.0f);
  CHECK((*state[1])[0] == doctest::Approx(0.001 * std::pow(0.999, 699)).epsilon(1e-3).scale(0));
  auto sgd = make_optimizer({.name = "sgd", .momentum = 0.9}, p.refs());
  CHECK(sgd->state_of(0).size() == 1);
  CHECK_THROWS_WITH_AS(sgd->state_of(1), "optimizer: parameter 1 does not exist; there are 1",
                       ValueError);
}

TEST_CASE("optimizer settings outside their ranges are refused, naming the field") {
  OneParameter p;
  CHECK_THROWS_WITH_AS(make_optimizer({.name = "rmsprop"}, p.refs()),
                       "optimizer \"rmsprop\" is not known; the optimizers are sgd, adam, adamw",
                       ValueError);
  CHECK_THROWS_WITH_AS(make_optimizer({.name = "sgd", .momentum = 1.0}, p.refs()),
                       "optimizer momentum must be at least 0 and below 1, got 1", ValueError);
  CHECK_THROWS_WITH_AS(make_optimizer({.name = "adam", .eps = 0}, p.refs()),
                       "optimizer eps must be a positive number, got 0", ValueError);
  auto opt = make_optimizer({.name = "adam"}, p.refs());
  CHECK_THROWS_WITH_AS(opt->step(-1), "learning rate must be a positive number, got -1",
                       ValueError);
}

TEST_CASE("the profiler's optimizer-memory figures are the bytes the optimizers allocate") {
  Model m = model_from_json(zoo_spec("fashion_mlp"));
  const OptimizerBytes figures = optimizer_bytes(m.parameter_count());
  const auto allocated = [&](const OptimizerConfig& c) {
    MemorySession session;
    auto opt = make_optimizer(c, m.parameters());
    const std::size_t measured = session.snapshot().current_bytes;
    CHECK(measured == opt->state_bytes());
    return measured;
  };
  CHECK(allocated({.name = "sgd", .momentum = 0.0}) == figures.sgd);
  CHECK(allocated({.name = "sgd", .momentum = 0.9}) == figures.momentum);
  CHECK(allocated({.name = "adam"}) == figures.adam);
  CHECK(allocated({.name = "adamw"}) == figures.adamw);
  // 235,146 parameters: Adam keeps two floats each.
  CHECK(figures.adam == 235146u * 8u);
}

// ---------------------------------------------------------------------------------------
// Initialisation and schedules

TEST_CASE("He and Xavier initialisation draw within their bounds, seeded, with zero biases") {
  Linear l(100, 44);
  const auto max_abs = [](const Tensor& t) {
    double m = 0;
    for (std::size_t i = 0; i < t.size(); ++i) m = std::max(m, std::fabs(static_cast<double>(t[i])));
    return m;
  };
  l.reset_parameters(3, Init::He);
  const double he = std::sqrt(6.0 / 100);
  CHECK(max_abs(l.weight()) <= he);
  CHECK(max_abs(l.weight()) > 0.9 * he);  // 4,400 draws reach near the bound
  CHECK(max_abs(l.bias()) == 0);
  const std::vector<float> first = l.weight().to_vector();
  l.reset_parameters(3, Init::He);
  CHECK(l.weight().to_vector() == first);
  l.reset_parameters(3, Init::Xavier);
  const double xavier = std::sqrt(6.0 / (100 + 44));
  CHECK(max_abs(l.weight()) <= xavier);
  CHECK(max_abs(l.weight()) > 0.9 * xavier);
  Conv2d c(4, 8, 3);
  c.reset_parameters(9, Init::He);
  CHECK(max_abs(c.weight()) <= std::sqrt(6.0 / 36));
  // The default is what every spec's seed gave before: ±1/√fan_in for weights and biases.
  l.reset_parameters(3);
  CHECK(max_abs(l.weight()) <= 0.1);
  CHECK(max_abs(l.bias()) > 0);
}

TEST_CASE("learning-rate schedules: constant, cosine to min_lr_fraction, step every N epochs") {
  TrainRecipe r;
  r.learning_rate = 0.1;
  r.schedule = "constant";
  CHECK(r.learning_rate_at(7, 10, 5) == 0.1);
  r.schedule = "cosine";
  CHECK(r.learning_rate_at(0, 10, 5) == doctest::Approx(0.1));
  CHECK(r.learning_rate_at(5, 10, 5) == doctest::Approx(0.05));
  r.min_lr_fraction = 0.2;
  CHECK(r.learning_rate_at(5, 10, 5) == doctest::Approx(0.1 * (0.2 + 0.8 * 0.5)));
  r.schedule = "step";
  r.step_epochs = 2;
  r.step_gamma = 0.5;
  CHECK(r.learning_rate_at(9, 100, 5) == doctest::Approx(0.1));    // epoch 1
  CHECK(r.learning_rate_at(10, 100, 5) == doctest::Approx(0.05));  // epoch 2
  CHECK(r.learning_rate_at(20, 100, 5) == doctest::Approx(0.025)); // epoch 4
}

// ---------------------------------------------------------------------------------------
// The recipe

TEST_CASE("a recipe reads back from its JSON, and a partial JSON changes only what it names") {
  TrainRecipe r = baseline_recipe("fashion_mlp");
  CHECK(to_json(recipe_from_json(to_json(r))) == to_json(r));
  const TrainRecipe two = recipe_from_json({{"epochs", 2}, {"optimizer", "sgd"}}, r);
  CHECK(two.epochs == 2);
  CHECK(two.optimizer.name == "sgd");
  CHECK(two.learning_rate == r.learning_rate);
  CHECK_THROWS_WITH_AS(recipe_from_json({{"epoch", 2}}),
                       "recipe.epoch is not a field; recipe takes optimizer, learning_rate, "
                       "schedule, min_lr_fraction, step_epochs, step_gamma, batch, epochs, init, "
                       "seed, validation_samples, preprocessing, max_total_ms",
                       ValueError);
  CHECK_THROWS_WITH_AS(recipe_from_json({{"batch", "64"}}),
                       "recipe.batch must be a whole number ≥ 0, got \"64\"", ValueError);
  CHECK_THROWS_WITH_AS(recipe_from_json({{"epochs", 0}}),
                       "recipe epochs must be from 1 to 1000, got 0", ValueError);
  CHECK_THROWS_WITH_AS(recipe_from_json({{"learning_rate", 20}}),
                       "recipe learning_rate must be above 0 and at most 10, got 20", ValueError);
  CHECK_THROWS_WITH_AS(recipe_from_json({{"schedule", "linear"}}),
                       "recipe schedule \"linear\" is not known; the schedules are constant, "
                       "cosine, step",
                       ValueError);
}

TEST_CASE("every baseline recipe belongs to a zoo model that reads Fashion-MNIST's images") {
  CHECK(baseline_recipe_names() == std::vector<std::string>{"fashion_mlp", "fashion_cnn"});
  for (const std::string& name : baseline_recipe_names()) {
    CAPTURE(name);
    const TrainRecipe& r = baseline_recipe(name);
    CHECK_NOTHROW(r.validate());
    Model m = model_from_json(zoo_spec(name));
    CHECK(m.output_shape().back() == 10);
    CHECK(m.input_shape().front() == r.batch);
  }
  CHECK_THROWS_WITH_AS(baseline_recipe("mlp_784"),
                       "zoo model \"mlp_784\" has no baseline recipe; the models with one are "
                       "fashion_mlp, fashion_cnn",
                       ValueError);
}

// ---------------------------------------------------------------------------------------
// The trainer's mechanics, on hand-made images (every build)

TEST_CASE("training on banded images lowers the loss and beats chance") {
  const LabeledImages train_set = banded_images(96, 1);
  const LabeledImages validation = banded_images(30, 2);
  Model m = banded_mlp();
  std::size_t progress_calls = 0, epoch_calls = 0;
  TrainCallbacks callbacks;
  callbacks.on_progress = [&](const TrainProgress& p) {
    ++progress_calls;
    CHECK(p.steps_done == progress_calls);
    CHECK(p.steps_total == 36);
  };
  callbacks.on_epoch = [&](const EpochRecord&) { ++epoch_calls; };
  const TrainResult r = train(m, train_set, validation, small_recipe(), callbacks);
  REQUIRE(r.epochs.size() == 3);
  CHECK(progress_calls == 36);  // 3 epochs of 96 / 8 steps
  CHECK(epoch_calls == 3);
  CHECK_FALSE(r.cancelled);
  CHECK(r.epochs[2].train_loss < r.epochs[0].train_loss);
  CHECK(r.epochs[2].validation_accuracy >= 0.9);  // chance is 1/3
  CHECK(r.epochs[0].samples == 96);
  CHECK(r.optimizer_state_bytes == optimizer_bytes(m.parameter_count()).adam);
  const nlohmann::json j = to_json(r);
  CHECK(j.at("epochs").size() == 3);
  CHECK(j.at("epochs")[0].contains("backward_ms"));
}

TEST_CASE("the same recipe, seed and data give bit-identical weights; another seed does not") {
  const LabeledImages train_set = banded_images(40, 3);
  const LabeledImages validation = banded_images(9, 4);
  TrainRecipe r = small_recipe();
  r.epochs = 2;
  Model a = banded_mlp(), b = banded_mlp(), c = banded_mlp();
  train(a, train_set, validation, r);
  train(b, train_set, validation, r);
  CHECK(weight_bytes(a) == weight_bytes(b));
  r.seed = 6;
  train(c, train_set, validation, r);
  CHECK(weight_bytes(a) != weight_bytes(c));
}

TEST_CASE("a cancel keeps the epochs done and their weights") {
  const LabeledImages train_set = banded_images(40, 3);
  const LabeledImages validation = banded_images(9, 4);
  TrainRecipe r = small_recipe();
  r.epochs = 1;
  Model one_epoch = banded_mlp();
  train(one_epoch, train_set, validation, r);

  r.epochs = 3;
  Model m = banded_mlp();
  TrainCallbacks callbacks;
  std::size_t steps = 0;
  callbacks.on_progress = [&](const TrainProgress& p) { steps = p.steps_done; };
  callbacks.should_cancel = [&] { return steps == 7; };  // two steps into epoch 2
  const TrainResult result = train(m, train_set, validation, r, callbacks);
  CHECK(result.cancelled);
  CHECK(result.epochs.size() == 1);
  CHECK(result.steps_done == 7);
  // The cosine schedule spans the 3-epoch plan, so epoch 1's weights differ from a 1-epoch
  // plan's; what a cancel keeps is the weights after the last finished epoch, which a run of
  // the same plan shows at its on_epoch.
  Model reference = banded_mlp();
  std::vector<std::uint8_t> after_epoch_1;
  TrainCallbacks record;
  record.on_epoch = [&](const EpochRecord& e) {
    if (e.epoch == 1) after_epoch_1 = weight_bytes(reference);
  };
  train(reference, train_set, validation, r, record);
  CHECK(weight_bytes(m) == after_epoch_1);
}

TEST_CASE("a Trainer runs in chunks to the same weights as one call") {
  const LabeledImages train_set = banded_images(40, 3);
  const LabeledImages validation = banded_images(9, 4);
  Model whole = banded_mlp(), chunked = banded_mlp();
  train(whole, train_set, validation, small_recipe());
  Trainer t(chunked, train_set, validation, small_recipe());
  std::size_t epochs = 0;
  while (!t.finished()) epochs += t.run(4).size();
  CHECK(epochs == 3);
  CHECK(t.steps_done() == 15);
  CHECK(weight_bytes(whole) == weight_bytes(chunked));
}

TEST_CASE("a loss that becomes NaN stops training with the step and the likely fix") {
  const LabeledImages train_set = banded_images(40, 3);
  TrainRecipe r = small_recipe();
  r.optimizer = {.name = "sgd", .momentum = 0.9};
  r.learning_rate = 10;
  r.schedule = "constant";
  r.preprocessing.scale = 1;  // pixels up to 250: with no activation between the two Linear
                              // layers, each step multiplies the weights' growth
  Model m = model_from_json_text(R"({"input": [8, 36],
    "layers": [{"type": "Linear", "in": 36, "out": 16}, {"type": "Linear", "in": 16, "out": 3}]})");
  try {
    train(m, train_set, LabeledImages{}, r);
    FAIL("training at learning rate 10 did not diverge");
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.rfind("training stopped at step ", 0) == 0);
    CHECK(message.find("of 15 (epoch ") != std::string::npos);
    CHECK(message.find("the loss became ") != std::string::npos);
    CHECK(message.find("The learning rate (10 at that step, sgd) is probably too high: lower it, "
                       "e.g. to 1, and train again.") != std::string::npos);
  }
  for (const ParameterRef& p : m.parameters()) {
    for (std::size_t i = 0; i < p.value->size(); ++i) REQUIRE(std::isfinite((*p.value)[i]));
  }
  // Before any update the learning rate cannot be the cause: infinite inputs are.
  TrainRecipe overflowing = small_recipe();
  overflowing.preprocessing.scale = 3e38f;
  Model fresh = banded_mlp();
  CHECK_THROWS_WITH_AS(train(fresh, train_set, LabeledImages{}, overflowing),
                       doctest::Contains("training stopped at step 1 of 15 (epoch 1): the loss "
                                         "became "),
                       Error);
  CHECK_THROWS_WITH_AS(train(fresh, train_set, LabeledImages{}, overflowing),
                       doctest::Contains(". No weight had been updated yet, so the inputs or the "
                                         "initial weights give non-finite logits: check the "
                                         "preprocessing (scale, mean, std) and the "
                                         "initialisation"),
                       Error);
}

TEST_CASE("a plan over the time budget, or a model that does not fit the data, is refused first") {
  const LabeledImages train_set = banded_images(40, 3);
  TrainRecipe r = small_recipe();
  r.max_total_ms = 1e-6;
  Model m = banded_mlp();
  const std::vector<std::uint8_t> before = weight_bytes(m);
  // Any plan takes more than a nanosecond at 100 GFLOP/s: the least time rounds up to 1 ms.
  CHECK_THROWS_WITH_AS(
      train(m, train_set, LabeledImages{}, r),
      doctest::Contains("more than the 1e-06 ms time budget: give it at least 1 ms with "
                        "max_total_ms, or train fewer epochs or images"),
      ValueError);
  CHECK(weight_bytes(m) == before);  // refused before initialising anything
  Model wrong = model_from_json_text(R"({"input": [8, 30],
    "layers": [{"type": "Linear", "in": 30, "out": 3}]})");
  CHECK_THROWS_WITH_AS(train(wrong, train_set, LabeledImages{}, small_recipe()),
                       "the model's input (8, 30) does not take the data's 6×6 grey images: its "
                       "input must be [batch, 36] (flat) or [batch, 1, 6, 6] (image)",
                       ValueError);
  Model four = model_from_json_text(R"({"input": [8, 36],
    "layers": [{"type": "Linear", "in": 36, "out": 4}]})");
  CHECK_THROWS_WITH_AS(train(four, train_set, LabeledImages{}, small_recipe()),
                       "the model's output (8, 4) must be (batch, 3): one logit per class of the "
                       "data; make the last layer give 3 outputs",
                       ValueError);
}

// ---------------------------------------------------------------------------------------
// Real Fashion-MNIST subsets (native: the files are read with zlib)

#ifndef __EMSCRIPTEN__
namespace {
const LabeledImages& fashion_train() { return real_data::fashion_mnist("train"); }
}  // namespace

TEST_CASE("Fashion-MNIST's training pixels have the mean and deviation the recipes standardise "
          "with") {
  const LabeledImages& d = fashion_train();
  double sum = 0, sum_sq = 0;
  for (std::uint8_t p : d.pixels) {
    const double x = p / 255.0;
    sum += x;
    sum_sq += x * x;
  }
  const double n = static_cast<double>(d.pixels.size());
  const double mean = sum / n;
  const Preprocessing s = fashion_mnist_standardization();
  CHECK(s.mean == doctest::Approx(mean).epsilon(1e-3));
  CHECK(s.std == doctest::Approx(std::sqrt(sum_sq / n - mean * mean)).epsilon(1e-3));
}

TEST_CASE("fashion_mlp learns 1,000 real images in 2 epochs: loss falls, validation far above "
          "chance") {
  const LabeledImages subset = take_first(fashion_train(), 1200);
  Model m = model_from_json(zoo_spec("fashion_mlp"));
  TrainRecipe r = baseline_recipe("fashion_mlp");
  r.epochs = 2;
  r.validation_samples = 200;
  const TrainResult result = train_with_validation_split(m, subset, r);
  REQUIRE(result.epochs.size() == 2);
  CHECK(result.train_samples == 1000);
  CHECK(result.epochs[1].train_loss < result.epochs[0].train_loss);
  CHECK(result.epochs[0].train_loss < std::log(10.0));  // below a uniform guess's loss
  CHECK(result.epochs[1].validation_accuracy > 0.6);    // chance is 0.1
}

TEST_CASE("fashion_cnn learns 500 real images in one epoch: validation far above chance") {
  const LabeledImages subset = take_first(fashion_train(), 600);
  Model m = model_from_json(zoo_spec("fashion_cnn"));
  TrainRecipe r = baseline_recipe("fashion_cnn");
  r.epochs = 1;
  r.schedule = "constant";  // a cosine over one short epoch spends half of it at a low rate
  r.validation_samples = 100;
  const TrainResult result = train_with_validation_split(m, subset, r);
  REQUIRE(result.epochs.size() == 1);
  CHECK(result.epochs[0].validation_loss < std::log(10.0));  // below a uniform guess's loss
  CHECK(result.epochs[0].validation_accuracy > 0.4);         // chance is 0.1
}
#endif
