// The model file's writer and reader (model_file.hpp has the layout). The reader checks
// in the order a damaged file is best explained: foreign magic, newer version, cut short or
// too long, checksum, then the header's meaning; every failure is a ValueError sentence.
// Not for: files on disk (the CLI reads them) or optimizer state.
#include "perflab/model/model_file.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/base/json_fields.hpp"
#include "perflab/base/json_text.hpp"

namespace perflab {

using nlohmann::json;

static_assert(std::endian::native == std::endian::little,
              "the model file stores float32 little-endian; this target is not");

namespace {

constexpr std::uint8_t kMagic[8] = {0x89, 'P', 'L', 'M', '\r', '\n', 0x1a, '\n'};
constexpr std::size_t kFixedBytes = 24;    // magic, version, header bytes, total bytes
constexpr std::size_t kChecksumBytes = 8;  // FNV-1a 64 at the end

void put_u32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put_u64(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get_u32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint64_t get_u64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint64_t checksum(const std::uint8_t* p, std::size_t n) {
  return fnv1a64(std::string_view(reinterpret_cast<const char*>(p), n));
}

// "89 50 4C 4D" for the first n bytes.
std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    char b[4];
    std::snprintf(b, sizeof(b), "%s%02X", i ? " " : "", p[i]);
    out += b;
  }
  return out;
}

std::string magic_text() { return hex_bytes(kMagic, sizeof(kMagic)); }

// The object's fields, each known: ValueError naming the unknown one and the allowed list.
void check_keys(const json& object, const std::string& what,
                const std::vector<std::string_view>& allowed, const std::string& allowed_text) {
  if (!object.is_object()) {
    throw ValueError(what + " must be an object with fields " + allowed_text + ", got " +
                     describe(object));
  }
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (auto a : allowed) known = known || key == a;
    if (!known) {
      throw ValueError(what + "." + key + " is not a field of " + what + "; its fields are " +
                       allowed_text);
    }
  }
  for (auto a : allowed) {
    if (!object.contains(std::string(a))) {
      throw ValueError(what + "." + std::string(a) + " is missing; " + what + " has fields " +
                       allowed_text);
    }
  }
}

}  // namespace

json to_json(const TrainingFacts& f) { return write_fields(f); }

TrainingFacts training_facts_from_json(const json& v) {
  TrainingFacts f = read_fields<TrainingFacts>(v, "training");
  if (!f.recipe.is_object()) {
    throw ValueError("training.recipe must be an object, got " + describe(f.recipe));
  }
  if (!f.lineage.is_array()) {
    throw ValueError("training.lineage must be an array, got " + describe(f.lineage));
  }
  const auto check = [](const std::optional<double>& a, const char* field) {
    if (a && !(*a >= 0 && *a <= 1)) {
      throw ValueError(std::string("training.") + field +
                       " must be an accuracy from 0 to 1 or null, got " + format_number(*a));
    }
  };
  check(f.train_accuracy, "train_accuracy");
  check(f.validation_accuracy, "validation_accuracy");
  check(f.test_accuracy, "test_accuracy");
  return f;
}

std::vector<std::uint8_t> model_file_bytes(Model& model, const Preprocessing& preprocessing,
                                           const std::optional<TrainingFacts>& training,
                                           const Quantization* quantization) {
  preprocessing.validate();
  const auto params = model.parameters();
  // What goes into the file, in order: a float parameter as it is, a quantized Linear's weight
  // as its codes (out, in) and its scales.
  struct Part {
    json entry;
    const void* data;
    std::size_t bytes;
  };
  std::vector<Part> parts;
  std::vector<std::vector<std::int8_t>> codes;  // unpadded, kept alive for the copy below
  codes.reserve(quantization ? quantization->layers.size() : 0);
  for (const auto& p : params) {
    const QuantizedLinear* ql = nullptr;
    if (quantization) {
      for (const QuantizedLinear& l : quantization->layers) {
        if (p.name == std::to_string(l.layer) + ".weight") ql = &l;
      }
    }
    if (ql) {
      const Int8Weights& w = ql->weights;
      std::vector<std::int8_t>& c = codes.emplace_back(w.out * w.in);
      for (std::size_t n = 0; n < w.out; ++n) {
        std::copy_n(w.code.data() + n * w.stride, w.in, c.data() + n * w.in);
      }
      const std::string layer = std::to_string(ql->layer);
      parts.push_back({{{"name", layer + ".weight_int8"}, {"shape", {w.out, w.in}}, {"dtype", "int8"}},
                       c.data(), c.size()});
      parts.push_back({{{"name", layer + ".weight_scale"}, {"shape", {w.out}}},
                       w.scale.data(), 4 * w.scale.size()});
      continue;
    }
    for (std::size_t i = 0; i < p.value->size(); ++i) {
      if (!std::isfinite((*p.value)[i])) {
        throw ValueError("parameter " + p.name + " holds " + format_number((*p.value)[i]) +
                         " at element " + std::to_string(i) +
                         "; a model file keeps finite weights only (train again with a lower "
                         "learning rate)");
      }
    }
    parts.push_back({{{"name", p.name}, {"shape", p.value->shape()}}, p.value->data(), p.value->bytes()});
  }
  json list = json::array();
  std::size_t data_bytes = 0;
  for (const Part& part : parts) {
    list.push_back(part.entry);
    data_bytes += part.bytes;
  }
  json header = {{"architecture", model_to_json(model)},
                 {"preprocessing", to_json(preprocessing)},
                 {"training", training ? to_json(*training) : json(nullptr)},
                 {"parameters", std::move(list)}};
  if (quantization) header["quantization"] = to_json(*quantization);
  const std::string text = header.dump();
  const std::size_t total = kFixedBytes + text.size() + data_bytes + kChecksumBytes;
  if (total > kMaxModelFileBytes) {
    throw ValueError("the model file would be " + std::to_string(total) + " bytes; at most " +
                     std::to_string(kMaxModelFileBytes) + " are allowed");
  }
  std::vector<std::uint8_t> out(total);
  std::memcpy(out.data(), kMagic, sizeof(kMagic));
  put_u32(out, 8, quantization ? 2 : 1);
  put_u32(out, 12, static_cast<std::uint32_t>(text.size()));
  put_u64(out, 16, total);
  std::memcpy(out.data() + kFixedBytes, text.data(), text.size());
  std::size_t at = kFixedBytes + text.size();
  for (const Part& part : parts) {
    if (part.bytes > 0) std::memcpy(out.data() + at, part.data, part.bytes);
    at += part.bytes;
  }
  put_u64(out, at, checksum(out.data(), at));
  return out;
}

ModelFile read_model_file(const std::uint8_t* bytes, std::size_t size, const std::string& what) {
  // Foreign first: a file that does not start with the magic is not ours, whatever its size.
  const std::size_t seen = std::min(size, sizeof(kMagic));
  if (size == 0) {
    throw ValueError(what + " is empty; a model file starts with " + magic_text() +
                     " (perflab train --out writes one)");
  }
  if (std::memcmp(bytes, kMagic, seen) != 0) {
    throw ValueError(what + " is not a perflab model file: it starts with " +
                     hex_bytes(bytes, seen) + ", a model file starts with " + magic_text() +
                     " (perflab train --out writes one)");
  }
  if (size < kFixedBytes + kChecksumBytes) {
    throw ValueError(what + " is cut short: " + std::to_string(size) +
                     " bytes, fewer than a model file's fixed " +
                     std::to_string(kFixedBytes + kChecksumBytes) +
                     "; copy or write the file again");
  }
  const std::uint32_t version = get_u32(bytes + 8);
  if (version > kModelFileVersion) {
    throw ValueError(what + " has format version " + std::to_string(version) +
                     "; this perflab reads version " + std::to_string(kModelFileVersion) +
                     " and older; use a newer perflab");
  }
  if (version == 0) {
    throw ValueError(what + " is corrupt: its format version is 0; versions start at 1");
  }
  const std::uint64_t header_bytes = get_u32(bytes + 12);
  const std::uint64_t total = get_u64(bytes + 16);
  if (total > size) {
    throw ValueError(what + " is cut short: " + std::to_string(size) + " bytes, its header says " +
                     std::to_string(total) + "; copy or write the file again");
  }
  if (total < size) {
    throw ValueError(what + " is corrupt: " + std::to_string(size) + " bytes, its header says " +
                     std::to_string(total) + " (" + std::to_string(size - total) +
                     " bytes too many)");
  }
  if (header_bytes > total - kFixedBytes - kChecksumBytes) {
    throw ValueError(what + " is corrupt: its header of " + std::to_string(header_bytes) +
                     " bytes does not fit in the file's " + std::to_string(total));
  }
  const std::size_t end = size - kChecksumBytes;
  const std::uint64_t stored = get_u64(bytes + end);
  const std::uint64_t computed = checksum(bytes, end);
  if (stored != computed) {
    throw ValueError(what + " is corrupt: its checksum does not match its contents (some bytes "
                     "changed after it was written); copy or write the file again");
  }

  // The header. The checksum matched, so a problem from here on is a writer's mistake (or a
  // crafted file): still a sentence, naming the field.
  const std::string_view text(reinterpret_cast<const char*>(bytes + kFixedBytes),
                              static_cast<std::size_t>(header_bytes));
  const std::string where = what + "'s header";
  json header;
  try {
    header = parse_json_text(text, where);
    if (version >= 2 && header.is_object() && header.contains("quantization")) {
      check_keys(header, "header",
                 {"architecture", "preprocessing", "training", "parameters", "quantization"},
                 "architecture, preprocessing, training, parameters and quantization");
    } else {
      check_keys(header, "header", {"architecture", "preprocessing", "training", "parameters"},
                 "architecture, preprocessing, training and parameters");
    }
    const Preprocessing preprocessing =
        preprocessing_from_json(json_member(header, "header", "preprocessing"), "preprocessing");
    std::optional<TrainingFacts> training;
    if (!header["training"].is_null()) training = training_facts_from_json(header["training"]);
    // The weights the header lists must fill the file exactly, checked before the model is
    // built: a crafted architecture cannot allocate more than the file holds.
    const json& list = header["parameters"];
    if (!list.is_array()) throw ValueError("parameters must be an array, got " + describe(list));
    const std::size_t data_bytes = end - kFixedBytes - static_cast<std::size_t>(header_bytes);
    std::size_t listed_bytes = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = "parameters[" + std::to_string(i) + "]";
      const bool typed = version >= 2 && list[i].is_object() && list[i].contains("dtype");
      if (typed) {
        check_keys(list[i], field, {"name", "shape", "dtype"}, "name, shape and dtype");
        if (list[i]["dtype"] != "int8") {
          throw ValueError(field + ".dtype must be \"int8\" (float32 is written without one), got " +
                           describe(list[i]["dtype"]));
        }
      } else {
        check_keys(list[i], field, {"name", "shape"}, "name and shape");
      }
      const json& shape = list[i]["shape"];
      const auto refuse_shape = [&] {
        throw ValueError(field + ".shape must be an array of sizes up to " +
                         std::to_string(kMaxSpecDimension) + ", got " + describe(shape));
      };
      if (!shape.is_array()) refuse_shape();
      Shape dims;
      for (const json& d : shape) {
        if (!d.is_number_unsigned() || d.get<std::uint64_t>() > kMaxSpecDimension) refuse_shape();
        dims.push_back(d.get<std::size_t>());
      }
      const std::size_t bytes = shape_numel(dims) * (typed ? 1 : sizeof(float));
      if (bytes > data_bytes - listed_bytes) {
        throw ValueError("the parameters listed up to " + field + " need more than the " +
                         std::to_string(data_bytes) + " bytes of weights the file holds");
      }
      listed_bytes += bytes;
    }
    if (listed_bytes != data_bytes) {
      throw ValueError("the parameters listed take " + std::to_string(listed_bytes) +
                       " bytes but the file holds " + std::to_string(data_bytes) +
                       " bytes of weights");
    }
    Model model = model_from_json(header["architecture"]);

    std::optional<Quantization> quantization;
    if (header.contains("quantization")) {
      quantization = quantization_from_json(header["quantization"], model);
    }
    // The entries the architecture asks for, in order: a float parameter, or for a quantized
    // Linear's weight its codes and scales.
    struct Expected {
      std::string name;
      Shape shape;
      bool int8;
      Tensor* value;             // a float parameter's tensor
      QuantizedLinear* layer;    // a quantized weight's layer
    };
    std::vector<Expected> expected;
    auto params = model.parameters();
    for (const ParameterRef& p : params) {
      QuantizedLinear* ql = nullptr;
      if (quantization) {
        for (QuantizedLinear& l : quantization->layers) {
          if (p.name == std::to_string(l.layer) + ".weight") ql = &l;
        }
      }
      if (ql) {
        const Shape& w = p.value->shape();  // (in, out)
        const std::string layer = std::to_string(ql->layer);
        expected.push_back({layer + ".weight_int8", {w[1], w[0]}, true, nullptr, ql});
        expected.push_back({layer + ".weight_scale", {w[1]}, false, nullptr, ql});
      } else {
        expected.push_back({p.name, p.value->shape(), false, p.value, nullptr});
      }
    }
    if (list.size() != expected.size()) {
      throw ValueError("parameters lists " + std::to_string(list.size()) +
                       " tensors; the architecture has " + std::to_string(expected.size()));
    }
    std::size_t at = kFixedBytes + static_cast<std::size_t>(header_bytes);
    std::vector<std::int8_t> codes;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const json& entry = list[i];
      const Expected& e = expected[i];
      const std::string field = "parameters[" + std::to_string(i) + "]";
      if (entry["name"] != e.name || entry["shape"] != json(e.shape) ||
          entry.contains("dtype") != e.int8) {
        throw ValueError(field + " is " + describe(entry) + "; the architecture's parameter " +
                         std::to_string(i) + " is " + e.name + " of shape " +
                         shape_to_string(e.shape) + (e.int8 ? ", dtype int8" : ""));
      }
      const std::size_t count = shape_numel(e.shape);
      if (e.int8) {
        codes.assign(reinterpret_cast<const std::int8_t*>(bytes + at),
                     reinterpret_cast<const std::int8_t*>(bytes + at) + count);
        at += count;
        continue;
      }
      std::vector<float> values(count);
      if (count > 0) std::memcpy(values.data(), bytes + at, 4 * count);
      for (std::size_t k = 0; k < count; ++k) {
        if (!std::isfinite(values[k])) {
          throw ValueError(e.name + " holds " + format_number(values[k]) + " at element " +
                           std::to_string(k) + "; weights must be finite");
        }
      }
      at += 4 * count;
      if (e.value) {
        std::copy(values.begin(), values.end(), e.value->data());
      } else {  // the scales after the codes: the layer's int8 weights
        e.layer->weights = int8_weights_from_codes(codes.data(), values.data(), e.shape[0] == 0 ? 0 : codes.size() / e.shape[0], e.shape[0]);
      }
    }
    if (quantization) {
      for (QuantizedLinear& l : quantization->layers) {
        auto& lin = dynamic_cast<Linear&>(model.layer(l.layer));
        if (lin.has_bias()) l.bias.assign(lin.bias().data(), lin.bias().data() + lin.bias().size());
      }
      dequantize_into(model, *quantization);
    }
    model.zero_grad();
    return ModelFile{std::move(model), preprocessing, std::move(training), std::move(quantization)};
  } catch (const JsonTextError&) {
    throw;  // already names the header
  } catch (const AllocationError& e) {
    throw AllocationError(what + ": " + e.what());
  } catch (const Error& e) {
    throw ValueError(what + " is corrupt: " + e.what());
  }
}

}  // namespace perflab
