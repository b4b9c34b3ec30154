// The accuracy floors of the two Fashion-MNIST models: each zoo model trained from scratch
// with its baseline recipe (core's baseline_recipe: 55,000 training images, 5,000 kept for
// validation, the recipe's epochs), then evaluated on the 10,000 test images. Prints each
// epoch, the test accuracy against its floor (fashion_mlp 0.885, fashion_cnn 0.91) and the
// training throughput; exits 1 when a model is below its floor. Slow (minutes), so never part
// of tools/lab test.
//   build/native/bench/perflab_bench_train_floors [--models fashion_mlp,fashion_cnn]
//       [--data DIR] [--epochs N]
// The wasm build (Node, files read through NODERAWFS) reads the same files gunzipped, since
// core's wasm build has no zlib: the "native and wasm agree within 0.2 points".
//   mkdir -p /tmp/fm && for f in /usr/share/datasets/fashion-mnist/*.gz; do
//     gunzip -c $f > /tmp/fm/$(basename $f .gz); done
//   node --no-experimental-fetch build/wasm/bench/perflab_bench_train_floors.cjs --data /tmp/fm
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/train.hpp"

using namespace perflab;

namespace {

struct Floor {
  const char* model;
  double accuracy;  // the floor; the data set's published results are beside it
  const char* published;
};
const Floor kFloors[] = {
    {"fashion_mlp", 0.885, "published MLP 256-128-100: 0.883"},
    {"fashion_cnn", 0.91, "published 2 conv + pooling: 0.916"},
};

// A split natively through core's zlib reader; in wasm from the gunzipped files.
LabeledImages load_split(const std::string& dir, const std::string& split) {
#ifdef __EMSCRIPTEN__
  const FashionMnistFiles files = fashion_mnist_files(split);
  const auto read = [&](std::string name) {
    name = name.substr(0, name.size() - 3);  // without ".gz"
    std::ifstream in(dir + "/" + name, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + dir + "/" + name + " (gunzip it first)");
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
  };
  return fashion_mnist_from_idx(read(files.images), read(files.labels), split);
#else
  return load_fashion_mnist(dir, split);
#endif
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = s.find(',', start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = {"fashion_mlp", "fashion_cnn"};
  std::string dir = kFashionMnistDir;
  long epochs = 0;  // 0: the recipe's
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--models" && i + 1 < argc) {
      models = split_commas(argv[++i]);
    } else if (a == "--data" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--epochs" && i + 1 < argc) {
      epochs = std::strtol(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr,
                   "usage: perflab_bench_train_floors [--models fashion_mlp,fashion_cnn] "
                   "[--data DIR] [--epochs N]\n");
      return 2;
    }
  }
  try {
    const LabeledImages train_all = load_split(dir, "train");
    const LabeledImages test = load_split(dir, "test");
    bool all_pass = true;
    for (const std::string& name : models) {
      TrainRecipe recipe = baseline_recipe(name);
      if (epochs > 0) recipe.epochs = static_cast<std::size_t>(epochs);
      Model model = model_from_json(zoo_spec(name));
      std::printf("%s: %s, lr %g, %s, batch %zu, %zu epochs, seed %llu\n", name.c_str(),
                  recipe.optimizer.name.c_str(), recipe.learning_rate, recipe.schedule.c_str(),
                  recipe.batch, recipe.epochs, static_cast<unsigned long long>(recipe.seed));
      TrainCallbacks callbacks;
      callbacks.on_epoch = [](const EpochRecord& e) {
        std::printf(
            "  epoch %2zu  train loss %.4f acc %.4f  validation loss %.4f acc %.4f  %.0f "
            "samples/s  (forward %.0f, loss %.0f, backward %.0f, optimizer %.0f, data %.0f ms)\n",
            e.epoch, e.train_loss, e.train_accuracy, e.validation_loss, e.validation_accuracy,
            e.samples_per_s, e.forward_ms, e.loss_ms, e.backward_ms, e.optimizer_ms, e.data_ms);
        std::fflush(stdout);
      };
      SteadyClock clock;
      const double t0 = clock.now_ms();
      const TrainResult result = train_with_validation_split(model, train_all, recipe, callbacks);
      const double train_s = (clock.now_ms() - t0) / 1000.0;
      const Evaluation ev = evaluate(model, test, recipe.preprocessing);
      double floor = 0;
      const char* published = "";
      for (const Floor& f : kFloors) {
        if (name == f.model) {
          floor = f.accuracy;
          published = f.published;
        }
      }
      const bool pass = ev.accuracy >= floor;
      all_pass = all_pass && pass;
      std::printf("%s: test accuracy %.4f on %zu images, floor %.3f: %s (%s); trained in %.0f s "
                  "on %zu images\n\n",
                  name.c_str(), ev.accuracy, ev.n, floor, pass ? "PASS" : "BELOW THE FLOOR",
                  published, train_s, result.train_samples);
      std::fflush(stdout);
    }
    return all_pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perflab_bench_train_floors: %s\n", e.what());
    return 2;
  }
}
