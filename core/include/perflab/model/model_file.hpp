// The model file: a trained model in one versioned binary (architecture, input preprocessing,
// training facts, weights) with a magic and a checksum, so what `perflab train` writes
// `perflab evaluate` and `perflab export` read, and the page can load a pretrained model.
// Bytes in and out only (the CLI reads and writes files). Not for: optimizer state or
// resuming training (the file holds what inference needs and how the weights came about).
//
// Layout (integers little-endian; docs/MODEL_FILE.md):
//   offset 0   8 bytes   magic 89 50 4C 4D 0D 0A 1A 0A ("\x89PLM\r\n\x1a\n", PNG's trick: a
//                        high byte and CR LF catch a text-mode copy)
//          8   u32       format version (kModelFileVersion)
//         12   u32       header bytes H
//         16   u64       total bytes of the file, checksum included
//         24   H bytes   header, JSON text: {"architecture": the canonical spec
//                        (model_to_json), "preprocessing": {scale, mean, std},
//                        "training": {...} or null, "parameters": [{name, shape}, ...],
//                        and in version 2 "quantization" (model/quantization.hpp's entry)
//                        when the model's Linears are int8}
//     24 + H   data      each parameter's values in Model::parameters() order, C order,
//                        float32; a quantized Linear's weight is two entries instead:
//                        "<i>.weight_int8" (out, in) int8 codes, a row per output channel
//                        ({"dtype": "int8"}), and "<i>.weight_scale" (out) float32
//     end − 8  u64       FNV-1a 64 (base/hash.hpp) of every byte before it
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/quantization.hpp"

namespace perflab {

// Version 2 added int8 quantization; a file without it is written as version 1, which every
// perflab since the format began reads.
inline constexpr std::uint32_t kModelFileVersion = 2;
// The most bytes a model file may hold: far above the zoo's largest trained model (the
// Fashion-MNIST MLP is under 1 MiB), and below what a wasm page can hold twice.
inline constexpr std::size_t kMaxModelFileBytes = std::size_t{256} << 20;

// How the weights came about, as the trainer reports it.
struct TrainingFacts {
  nlohmann::json recipe = nlohmann::json::object();  // optimizer, learning rate, batch, ...
  std::size_t epochs = 0;             // epochs completed (fewer than planned when cancelled)
  std::uint64_t seed = 0;             // initialisation, shuffling and the validation split
  std::string data;                   // the data set trained on: "Fashion-MNIST"
  std::size_t train_samples = 0;      // images trained on per epoch
  std::size_t validation_samples = 0;  // images held out of them
  // Accuracies (0..1) after the last epoch; empty when not measured.
  std::optional<double> train_accuracy, validation_accuracy, test_accuracy;
  // Transforms applied after training, in order (e.g. quantization); empty when none.
  nlohmann::json lineage = nlohmann::json::array();
};
// Its JSON, written and read by one list (base/json_fields.hpp), in the order above.
inline auto json_fields_of(const TrainingFacts*) {
  using F = TrainingFacts;
  return std::make_tuple(
      JsonField{"recipe", &F::recipe}, JsonField{"epochs", &F::epochs},
      JsonField{"seed", &F::seed}, JsonField{"data", &F::data},
      JsonField{"train_samples", &F::train_samples},
      JsonField{"validation_samples", &F::validation_samples},
      JsonField{"train_accuracy", &F::train_accuracy},
      JsonField{"validation_accuracy", &F::validation_accuracy},
      JsonField{"test_accuracy", &F::test_accuracy}, JsonField{"lineage", &F::lineage});
}
nlohmann::json to_json(const TrainingFacts& facts);
// read_fields, then: recipe an object, lineage an array, accuracies from 0 to 1 (a ValueError
// naming "training.<field>" otherwise).
TrainingFacts training_facts_from_json(const nlohmann::json& value);

struct ModelFile {
  Model model;  // a quantized model's float weights are its codes × scales
  Preprocessing preprocessing;
  std::optional<TrainingFacts> training;  // empty for a model that was never trained
  std::optional<Quantization> quantization = std::nullopt;  // its Linears run as int8
};

// The file's bytes (version 2 with a quantization, else 1). Non-const Model because
// parameters() is (the values are only read). ValueError for a preprocessing
// Preprocessing::validate refuses or a non-finite weight (which would make every evaluation of
// the file meaningless).
std::vector<std::uint8_t> model_file_bytes(Model& model, const Preprocessing& preprocessing,
                                           const std::optional<TrainingFacts>& training,
                                           const Quantization* quantization = nullptr);
inline std::vector<std::uint8_t> model_file_bytes(ModelFile& file) {
  return model_file_bytes(file.model, file.preprocessing, file.training,
                          file.quantization ? &*file.quantization : nullptr);
}
// The model the bytes hold; `what` names them in errors ("model file 'mlp.plm'"). Refuses,
// with a ValueError sentence saying what is wrong and what to do:
//   foreign bytes      "<what> is not a perflab model file: it starts with 7B 22 6E 61 ...,
//                       a model file starts with 89 50 4C 4D 0D 0A 1A 0A"
//   truncated          "<what> is cut short: N bytes, its header says M"
//   a newer version    "<what> has format version 3; this perflab reads version 2 and
//                       older; use a newer perflab"
//   corrupt            checksum mismatch, extra bytes, a header that is not the JSON above,
//                       an architecture that does not build, parameters that do not match
//                       it, or a non-finite weight.
ModelFile read_model_file(const std::uint8_t* bytes, std::size_t size, const std::string& what);
inline ModelFile read_model_file(const std::vector<std::uint8_t>& bytes, const std::string& what) {
  return read_model_file(bytes.data(), bytes.size(), what);
}

}  // namespace perflab
