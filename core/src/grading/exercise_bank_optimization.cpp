// The Optimization chapter's exercises on training a classifier: the optimizer's state for a
// drawn MLP, a numerically stable mean softmax cross-entropy in JavaScript, accuracy, recall
// and precision from a drawn confusion matrix, and the trainer's steps and learning rate for
// a drawn recipe. Every answer comes from core: the Model's parameter count and
// optimizer_state_bytes (train/optimizer.hpp), softmax_cross_entropy (train/loss.hpp),
// steps_per_epoch and TrainRecipe::learning_rate_at (train/train.hpp). Their feedback says
// right or wrong only (Exercise::feedback_hides_answer), so a number cannot be bisected from
// "Too high" / "Too low" nor a test's value read off its message.
// Their texts are core/exercises/optimization.json.
// Not for: prose (the data file); seeding, rendering or grading (grader.cpp).
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/train/loss.hpp"
#include "perflab/train/optimizer.hpp"
#include "perflab/train/train.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// Fashion-MNIST's image width × height and classes: the MLPs here classify its images.
constexpr std::int64_t kPixels = 784;
constexpr std::int64_t kClasses = 10;

// ---- optimization.optimizer-state -----------------------------------------------------

VariantData draw_optimizer_state(Rng& rng, const Fragments& fragments) {
  static const std::int64_t hidden[] = {32, 64, 100, 128, 200, 256, 300, 512};
  static const double momenta[] = {0.0, 0.9, 0.95, 0.99};
  static const double decays[] = {0.01, 0.05, 0.1};
  const std::int64_t h1 = pick(rng, hidden);
  const std::int64_t h2 = pick(rng, hidden);
  const bool last_bias = rng.integer(0, 1) == 1;
  const double momentum = pick(rng, momenta);
  const bool adamw = rng.integer(0, 1) == 1;
  const double decay = pick(rng, decays);

  json spec = mlp_spec({static_cast<std::size_t>(kPixels), static_cast<std::size_t>(h1),
                        static_cast<std::size_t>(h2), static_cast<std::size_t>(kClasses)},
                       1);
  if (!last_bias) spec["layers"].back()["bias"] = false;
  const std::size_t parameters = model_from_json(spec).parameter_count();

  OptimizerConfig sgd;
  sgd.name = "sgd";
  sgd.momentum = momentum;
  OptimizerConfig adam;
  adam.name = adamw ? "adamw" : "adam";
  adam.weight_decay = adamw ? decay : 0.0;
  sgd.validate();
  adam.validate();

  VariantData v;
  const json shown = {{"decay", decay}};
  v.params = {{"h1", h1},
              {"h2", h2},
              {"biases", fragments.render(last_bias ? "all-biases" : "last-without-bias", shown)},
              {"momentum", momentum},
              {"adam", fragments.render(adamw ? "adamw" : "adam", shown)}};
  v.expected_values = {static_cast<double>(optimizer_state_bytes(sgd, parameters)),
                       static_cast<double>(optimizer_state_bytes(adam, parameters))};
  return v;
}

// ---- optimization.cross-entropy -------------------------------------------------------

// Logits that are exact in float32 (eighths within a few thousand), so core's loss over its
// float tensor and the student's over JavaScript doubles see the same numbers.
double eighths(Rng& rng, std::int64_t lo, std::int64_t hi) {
  return static_cast<double>(rng.integer(lo * 8, hi * 8)) / 8.0;
}

// A test: rows × classes logits, each row's base plus a drawn offset in [-spread, spread],
// and a label per row; the expected loss is core's softmax_cross_entropy.
CodeTest cross_entropy_test(std::string name, std::vector<std::vector<double>> rows,
                            std::vector<std::uint8_t> labels) {
  const std::size_t n = rows.size();
  const std::size_t c = rows.front().size();
  std::vector<float> flat;
  for (const auto& row : rows) {
    for (double x : row) flat.push_back(static_cast<float>(x));
  }
  const LossResult r = softmax_cross_entropy(Tensor({n, c}, flat), labels, false);
  json label_list = json::array();
  for (std::uint8_t label : labels) label_list.push_back(label);
  return {std::move(name), json::array({json(rows), label_list}), json(r.loss)};
}

std::vector<std::vector<double>> logit_rows(Rng& rng, std::size_t n, std::size_t c,
                                            std::int64_t base, std::int64_t spread) {
  std::vector<std::vector<double>> rows(n);
  for (auto& row : rows) {
    // One draw per statement: the page's build and the native CLI must draw alike.
    const std::int64_t row_base = base == 0 ? 0 : base + rng.integer(-50, 50);
    for (std::size_t k = 0; k < c; ++k) {
      const double offset = eighths(rng, -spread, spread);
      row.push_back(static_cast<double>(row_base) + offset);
    }
  }
  return rows;
}

std::vector<std::uint8_t> drawn_labels(Rng& rng, std::size_t n, std::size_t c) {
  std::vector<std::uint8_t> labels;
  for (std::size_t i = 0; i < n; ++i) {
    labels.push_back(static_cast<std::uint8_t>(rng.integer(0, static_cast<std::int64_t>(c) - 1)));
  }
  return labels;
}

VariantData draw_cross_entropy(Rng& rng, const Fragments&) {
  VariantData v;
  {
    const std::size_t c = static_cast<std::size_t>(rng.integer(3, 5));
    auto rows = logit_rows(rng, 2, c, 0, 3);
    auto labels = drawn_labels(rng, 2, c);
    v.tests.push_back(cross_entropy_test("two rows of small logits", rows, labels));
  }
  {
    // Ten rows of ten classes: returning the sum over the rows instead of the mean fails.
    auto rows = logit_rows(rng, 10, kClasses, 0, 4);
    auto labels = drawn_labels(rng, 10, kClasses);
    v.tests.push_back(cross_entropy_test("a batch of 10 rows, 10 classes", rows, labels));
  }
  {
    // The label's logit far below another: a large loss, where log(0) would be infinite.
    auto rows = logit_rows(rng, 3, 4, 0, 2);
    auto labels = drawn_labels(rng, 3, 4);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows[i][labels[i]] = -eighths(rng, 20, 40);
      rows[i][(labels[i] + 1) % 4] = eighths(rng, 20, 40);
    }
    v.tests.push_back(cross_entropy_test("confidently wrong", rows, labels));
  }
  {
    // exp(x) overflows to Infinity above about 709.8 in double (88.7 in float32).
    const std::int64_t base = rng.integer(2, 20) * 1000;
    auto rows = logit_rows(rng, 3, 4, base, 3);
    auto labels = drawn_labels(rng, 3, 4);
    v.tests.push_back(cross_entropy_test("huge logits (thousands)", rows, labels));
  }
  {
    // ... and underflows to 0 below about −745: log(0) is −Infinity.
    const std::int64_t base = -rng.integer(2, 20) * 1000;
    auto rows = logit_rows(rng, 3, 5, base, 3);
    auto labels = drawn_labels(rng, 3, 5);
    v.tests.push_back(cross_entropy_test("very negative logits (minus thousands)", rows, labels));
  }
  {
    // Equal logits: every class has probability 1/C, the loss is log C.
    const std::size_t c = static_cast<std::size_t>(rng.integer(2, 12));
    const double x = eighths(rng, -5, 5);
    auto labels = drawn_labels(rng, 2, c);
    v.tests.push_back(cross_entropy_test("all logits equal", {std::vector<double>(c, x),
                                                              std::vector<double>(c, x)},
                                         labels));
  }
  {
    const std::int64_t base = rng.integer(1, 9) * 1000;
    auto rows = logit_rows(rng, 1, 1, base, 2);
    v.tests.push_back(cross_entropy_test("one row, one class", rows, {0}));
  }
  return v;
}

// ---- optimization.confusion -----------------------------------------------------------

constexpr std::size_t kConfusionClasses = 3;

VariantData draw_confusion(Rng& rng, const Fragments& fragments) {
  const std::vector<std::string>& names = fashion_mnist_class_names();
  for (int attempt = 0; attempt < 1000; ++attempt) {
    // Three distinct classes of the ten, in a drawn order.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < names.size(); ++i) order.push_back(i);
    shuffle(order, rng);
    order.resize(kConfusionClasses);
    std::vector<std::vector<std::int64_t>> m(kConfusionClasses,
                                             std::vector<std::int64_t>(kConfusionClasses));
    for (std::size_t t = 0; t < kConfusionClasses; ++t) {
      for (std::size_t p = 0; p < kConfusionClasses; ++p) {
        m[t][p] = t == p ? rng.integer(40, 95) : rng.integer(0, 25);
      }
    }
    const auto asked = static_cast<std::size_t>(
        rng.integer(0, static_cast<std::int64_t>(kConfusionClasses) - 1));
    std::int64_t total = 0, correct = 0, row = 0, column = 0;
    for (std::size_t t = 0; t < kConfusionClasses; ++t) {
      for (std::size_t p = 0; p < kConfusionClasses; ++p) {
        total += m[t][p];
        if (t == p) correct += m[t][p];
        if (t == asked) row += m[t][p];
        if (p == asked) column += m[t][p];
      }
    }
    const double accuracy = 100.0 * static_cast<double>(correct) / static_cast<double>(total);
    const double recall = 100.0 * static_cast<double>(m[asked][asked]) / static_cast<double>(row);
    const double precision =
        100.0 * static_cast<double>(m[asked][asked]) / static_cast<double>(column);
    // Mixing up rows and columns, or the class's figure and the whole matrix's, must fail.
    if (std::fabs(recall - precision) < 3 || std::fabs(recall - accuracy) < 1 ||
        std::fabs(precision - accuracy) < 1) {
      continue;
    }
    std::string matrix;
    json class_names = json::array(), counts = json::array();
    for (std::size_t t = 0; t < kConfusionClasses; ++t) {
      json r = json::array();
      std::string cells;
      for (std::size_t p = 0; p < kConfusionClasses; ++p) {
        r.push_back(m[t][p]);
        cells += (p ? ", " : "") + std::to_string(m[t][p]);
      }
      counts.push_back(r);
      class_names.push_back(names[order[t]]);
      matrix += fragments.render("row", {{"name", names[order[t]]}, {"cells", cells}}) +
                (t + 1 < kConfusionClasses ? "; " : "");
    }
    VariantData v;
    v.params = {{"class_names", class_names},
                {"confusion", counts},
                {"classes", names[order[0]] + ", " + names[order[1]] + ", " + names[order[2]]},
                {"matrix", matrix},
                {"images", total},
                {"asked", names[order[asked]]}};
    v.expected_values = {accuracy, recall, precision};
    return v;
  }
  throw Error("optimization.confusion: no variant that tells the figures apart after 1000 draws");
}

// ---- optimization.training-steps ------------------------------------------------------

VariantData draw_training_steps(Rng& rng, const Fragments&) {
  static const std::int64_t images[] = {60'000, 30'000, 20'000, 12'000, 10'000};
  static const std::int64_t held_out[] = {1'000, 2'000, 5'000, 6'000};
  static const std::int64_t batches[] = {32, 48, 64, 100, 128, 200, 256, 384, 512};
  static const double rates[] = {0.001, 0.002, 0.003, 0.01, 0.05, 0.1};
  static const double fractions[] = {0.0, 0.01, 0.1};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::int64_t n = pick(rng, images);
    const std::int64_t validation = pick(rng, held_out);
    const std::int64_t batch = pick(rng, batches);
    const std::int64_t epochs = rng.integer(3, 20);
    const std::int64_t epoch = rng.integer(2, epochs);
    const double learning_rate = pick(rng, rates);
    const double min_fraction = pick(rng, fractions);
    const auto train = static_cast<std::size_t>(n - validation);
    // A batch that divides the images hides the question of the last, smaller step.
    if (train % static_cast<std::size_t>(batch) == 0) continue;

    TrainRecipe recipe;
    recipe.batch = static_cast<std::size_t>(batch);
    recipe.epochs = static_cast<std::size_t>(epochs);
    recipe.learning_rate = learning_rate;
    recipe.schedule = "cosine";
    recipe.min_lr_fraction = min_fraction;
    recipe.validation_samples = static_cast<std::size_t>(validation);
    const std::size_t per_epoch = steps_per_epoch(train, recipe.batch);
    const std::size_t total = per_epoch * recipe.epochs;
    const std::size_t last_rows = train - (per_epoch - 1) * recipe.batch;
    const std::size_t first_step_of_epoch = static_cast<std::size_t>(epoch - 1) * per_epoch;

    VariantData v;
    v.params = {{"images", n},         {"validation", validation}, {"batch", batch},
                {"epochs", epochs},    {"epoch", epoch},           {"learning_rate", learning_rate},
                {"min_lr_fraction", min_fraction}};
    v.expected_values = {static_cast<double>(per_epoch), static_cast<double>(total),
                         static_cast<double>(last_rows),
                         recipe.learning_rate_at(first_step_of_epoch, total, per_epoch)};
    return v;
  }
  throw Error("optimization.training-steps: no variant with a partial last batch after 1000 draws");
}

// ---- optimization.structured-layers (experiment-backed) ---------------------------------

// rows: the pruned model's Linear layers {linear, in, out}, as the page publishes them; the
// second one's parameters and the first one's FLOPs at a batch of kStructuredBatch.
constexpr int kStructuredBatch = 64;

void structured_layers_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  double in[2] = {0, 0}, out[2] = {0, 0};
  bool found[2] = {false, false};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double linear = evidence_number(e, rows, i, "linear", false);
    if (linear != 0 && linear != 1) continue;
    const auto k = static_cast<std::size_t>(linear);
    in[k] = evidence_number(e, rows, i, "in");
    out[k] = evidence_number(e, rows, i, "out");
    found[k] = true;
  }
  if (!found[0] || !found[1]) {
    throw ValueError("your run of " + e.evidence.title + " has no Linear layer " +
                     (found[0] ? "1" : "0") + " (it lists " + std::to_string(rows.size()) +
                     " layers); run " + e.evidence.title + " again");
  }
  v.expected_values = {in[1] * out[1] + out[1], 2 * in[0] * out[0] * kStructuredBatch};
}

// ---- the chapter's list ---------------------------------------------------------------

constexpr Tolerance kPercentagePoint{0.0, 0.1};  // percentages to one decimal

}  // namespace

// Each exercise's prose is the entry with the same id in core/exercises/optimization.json,
// which also sets the order the page shows them in (so the C++ lists' order is free): these,
// then the transforms' (exercise_bank_optimization_transforms.cpp), then the ones graded from
// the KV cache and quantization runs (exercise_bank_optimization_kv.cpp, _quantize.cpp), then
// the Olympics' (exercise_bank_optimization_olympics.cpp).
std::vector<ExerciseCode> optimization_exercises() {
  using enum ExerciseKind;
  std::vector<ExerciseCode> all = {
      {.id = "optimization.optimizer-state", .kind = Numeric, .points = 10,
       .draw = draw_optimizer_state, .parts = {{kNearestInteger}, {kNearestInteger}},
       .feedback_hides_answer = true},
      // Loss values agree to rounding whatever order the sums run in; a naive exp gives
      // Infinity or NaN, far outside it.
      {.id = "optimization.cross-entropy", .kind = Code, .points = 15,
       .draw = draw_cross_entropy, .tolerance = {1e-6, 1e-9}, .time_limit_ms = 2000,
       .feedback_hides_answer = true},
      {.id = "optimization.confusion", .kind = Numeric, .points = 10, .draw = draw_confusion,
       .parts = {{kPercentagePoint}, {kPercentagePoint}, {kPercentagePoint}},
       .feedback_hides_answer = true},
      {.id = "optimization.training-steps", .kind = Numeric, .points = 15,
       .draw = draw_training_steps,
       .parts = {{kNearestInteger}, {kNearestInteger}, {kNearestInteger}, {{0.01, 0.0}}},
       .feedback_hides_answer = true},
      // Counts: exact. Graded from the pruned model's widths in the student's own run.
      {.id = "optimization.structured-layers", .kind = Numeric, .points = 15,
       .draw = draw_nothing, .parts = {{kNearestInteger}, {kNearestInteger}},
       .experiment = "optimization-structured",
       .from_evidence = structured_layers_from_evidence,
       .constants = {{"structured_batch", kStructuredBatch}}, .feedback_hides_answer = true},
  };
  for (auto more : {optimization_transform_exercises, optimization_kv_exercises,
                    optimization_quantize_exercises, optimization_olympics_exercises}) {
    for (ExerciseCode& c : more()) all.push_back(std::move(c));
  }
  return all;
}

}  // namespace perflab::detail
