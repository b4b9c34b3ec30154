// IDX parsing and the data set's views (tensors, subsets, splits): pure, the same natively and
// in wasm. Files and gzip are in fashion_mnist_files.cpp (native only).
#include "perflab/data/dataset.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <numeric>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/random.hpp"

namespace perflab {
namespace {

std::string hex32(std::uint32_t v) {
  static const char* digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xF];
  return s;
}

std::uint32_t big_endian_u32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

std::string dims_text(const std::vector<std::size_t>& dims) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += " × ";
    s += std::to_string(dims[i]);
  }
  return s;
}

// The 256 values a pixel byte can become: one table, so every row is preprocessed by the same
// float operations in the same order (natively and in wasm).
std::array<float, 256> preprocessing_table(const Preprocessing& p) {
  p.validate();
  std::array<float, 256> table{};
  for (int v = 0; v < 256; ++v) table[v] = (static_cast<float>(v) * p.scale - p.mean) / p.std;
  return table;
}

Shape tensor_shape(const LabeledImages& d, std::size_t n, bool image_layout) {
  if (image_layout) return {n, 1, d.rows, d.cols};
  return {n, d.rows * d.cols};
}

void check_consistent(const LabeledImages& d) {
  const std::size_t pixels_per_image = d.rows * d.cols;
  if (d.pixels.size() != d.count * pixels_per_image || d.labels.size() != d.count)
    throw ValueError("data set: " + std::to_string(d.count) + " images of " +
                     std::to_string(d.rows) + " × " + std::to_string(d.cols) + " need " +
                     std::to_string(d.count * pixels_per_image) + " pixels and " +
                     std::to_string(d.count) + " labels, got " + std::to_string(d.pixels.size()) +
                     " and " + std::to_string(d.labels.size()));
}

LabeledImages empty_like(const LabeledImages& d) {
  LabeledImages out;
  out.rows = d.rows;
  out.cols = d.cols;
  out.classes = d.classes;
  out.class_names = d.class_names;
  return out;
}

LabeledImages subset(const LabeledImages& d, const std::size_t* rows, std::size_t n) {
  LabeledImages out = empty_like(d);
  const std::size_t per_image = d.rows * d.cols;
  out.count = n;
  out.pixels.resize(n * per_image);
  out.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(out.pixels.data() + i * per_image, d.pixels.data() + rows[i] * per_image,
                per_image);
    out.labels[i] = d.labels[rows[i]];
  }
  return out;
}

}  // namespace

void Preprocessing::validate(const std::string& where) const {
  if (!(std::isfinite(scale) && scale > 0.0f)) {
    throw ValueError(where + ".scale must be a positive finite number, got " +
                     format_number(scale));
  }
  if (!std::isfinite(mean)) {
    throw ValueError(where + ".mean must be a finite number, got " + format_number(mean));
  }
  if (!(std::isfinite(std) && std > 0.0f)) {
    throw ValueError(where + ".std must be a positive finite number (1 leaves pixels " +
                     "unstandardized), got " + format_number(std));
  }
}

nlohmann::json to_json(const Preprocessing& p) { return write_fields(p); }

Preprocessing preprocessing_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) {
    throw ValueError(where + " must be an object with fields scale, mean and std, got " +
                     describe(j));
  }
  for (const auto& [key, value] : j.items()) {
    if (key != "scale" && key != "mean" && key != "std") {
      throw ValueError(where + "." + key + " is not a field of " + where +
                       "; its fields are scale, mean and std");
    }
  }
  Preprocessing p = read_fields<Preprocessing>(j, where);
  p.validate(where);
  return p;
}

Tensor images_tensor(const LabeledImages& d, std::size_t first, std::size_t n,
                     const Preprocessing& p, bool image_layout) {
  check_consistent(d);
  if (first > d.count || n > d.count - first)
    throw ValueError("images_tensor: rows " + std::to_string(first) + " to " +
                     std::to_string(first + n) + " run past the data set's " +
                     std::to_string(d.count) + " images; first + n must be at most " +
                     std::to_string(d.count));
  const std::array<float, 256> table = preprocessing_table(p);
  Tensor out(tensor_shape(d, n, image_layout));
  const std::uint8_t* src = d.pixels.data() + first * d.rows * d.cols;
  float* dst = out.data();
  for (std::size_t i = 0, total = out.size(); i < total; ++i) dst[i] = table[src[i]];
  return out;
}

Tensor images_tensor(const LabeledImages& d, const std::vector<std::size_t>& rows,
                     const Preprocessing& p, bool image_layout) {
  check_consistent(d);
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i] >= d.count)
      throw ValueError("images_tensor: rows[" + std::to_string(i) + "] is " +
                       std::to_string(rows[i]) + "; the data set has " + std::to_string(d.count) +
                       " images, so rows must be below " + std::to_string(d.count));
  const std::array<float, 256> table = preprocessing_table(p);
  Tensor out(tensor_shape(d, rows.size(), image_layout));
  const std::size_t per_image = d.rows * d.cols;
  float* dst = out.data();
  for (std::size_t row : rows) {
    const std::uint8_t* src = d.pixels.data() + row * per_image;
    for (std::size_t j = 0; j < per_image; ++j) *dst++ = table[src[j]];
  }
  return out;
}

std::pair<LabeledImages, LabeledImages> split_validation(const LabeledImages& d,
                                                         std::size_t validation,
                                                         std::uint64_t seed) {
  check_consistent(d);
  if (validation > d.count)
    throw ValueError("split_validation: " + std::to_string(validation) +
                     " validation images asked of a data set of " + std::to_string(d.count) +
                     "; at most " + std::to_string(d.count));
  std::vector<std::size_t> order(d.count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng rng(seed);  // Fisher-Yates with core's fixed generator: the same split everywhere
  for (std::size_t i = d.count; i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.next_u64() % i);
    std::swap(order[i - 1], order[j]);
  }
  const std::size_t kept = d.count - validation;
  return {subset(d, order.data(), kept), subset(d, order.data() + kept, validation)};
}

LabeledImages take_first(const LabeledImages& d, std::size_t n) {
  check_consistent(d);
  if (n > d.count)
    throw ValueError("take_first: " + std::to_string(n) + " images asked of a data set of " +
                     std::to_string(d.count) + "; at most " + std::to_string(d.count));
  LabeledImages out = empty_like(d);
  out.count = n;
  out.pixels.assign(d.pixels.begin(), d.pixels.begin() + n * d.rows * d.cols);
  out.labels.assign(d.labels.begin(), d.labels.begin() + n);
  return out;
}

std::vector<std::size_t> class_counts(const LabeledImages& d) {
  std::vector<std::size_t> counts(d.classes, 0);
  for (std::uint8_t label : d.labels) {
    if (label >= d.classes)
      throw ValueError("class_counts: label " + std::to_string(label) + " is not below the " +
                       std::to_string(d.classes) + " classes");
    ++counts[label];
  }
  return counts;
}

IdxArray parse_idx(const std::uint8_t* bytes, std::size_t size, std::size_t expected_rank,
                   const std::string& what) {
  const std::uint32_t expected_magic = 0x00000800u | static_cast<std::uint32_t>(expected_rank);
  const std::string expected = "expected an IDX file of unsigned bytes with " +
                               std::to_string(expected_rank) + " dimension" +
                               (expected_rank == 1 ? "" : "s") + " (magic " +
                               hex32(expected_magic) + ")";
  if (size < 4)
    throw ValueError(what + ": " + std::to_string(size) +
                     " bytes is too short for an IDX header; " + expected);
  const std::uint32_t magic = big_endian_u32(bytes);
  if (magic != expected_magic) {
    std::string hint;
    if (bytes[0] == 0x1f && bytes[1] == 0x8b)
      hint = " (it starts like gzip: decompress it first)";
    else if (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0x08)
      hint = " (unsigned bytes with " + std::to_string(bytes[3]) + " dimensions: images have 3, " +
             "labels 1; are the image and label files swapped?)";
    throw ValueError(what + ": magic is " + hex32(magic) + hint + "; " + expected);
  }
  const std::size_t header = 4 + 4 * expected_rank;
  if (size < header)
    throw ValueError(what + ": the file is truncated inside its header (" + std::to_string(size) +
                     " bytes; the header of " + std::to_string(expected_rank) +
                     " dimensions takes " + std::to_string(header) + ")");
  IdxArray out;
  std::size_t total = 1;
  for (std::size_t i = 0; i < expected_rank; ++i) {
    const std::uint32_t dim = big_endian_u32(bytes + 4 + 4 * i);
    if (dim == 0)
      throw ValueError(what + ": dimension " + std::to_string(i) +
                       " is 0; every dimension must be at least 1");
    if (dim > kMaxIdxBytes / total)
      throw ValueError(what + ": dimensions " + dims_text(out.dims) + (out.dims.empty() ? "" : " × ") +
                       std::to_string(dim) + " hold more than " + std::to_string(kMaxIdxBytes) +
                       " bytes, the most an IDX file may hold here");
    total *= dim;
    out.dims.push_back(dim);
  }
  const std::size_t data_bytes = size - header;
  if (data_bytes < total)
    throw ValueError(what + ": the file is truncated: its header says " + dims_text(out.dims) +
                     " = " + std::to_string(total) + " bytes of data, the file has " +
                     std::to_string(data_bytes));
  if (data_bytes > total)
    throw ValueError(what + ": " + std::to_string(data_bytes - total) +
                     " bytes follow the data; the header says " + dims_text(out.dims) + " = " +
                     std::to_string(total) + " bytes, and nothing may follow them");
  out.data.assign(bytes + header, bytes + size);
  return out;
}

LabeledImages labeled_images_from_idx(const std::vector<std::uint8_t>& image_bytes,
                                      const std::vector<std::uint8_t>& label_bytes,
                                      const std::string& what, std::size_t classes,
                                      std::vector<std::string> class_names) {
  if (classes < 1 || classes > 256)
    throw ValueError(what + ": " + std::to_string(classes) +
                     " classes; byte labels allow 1 to 256");
  if (!class_names.empty() && class_names.size() != classes)
    throw ValueError(what + ": " + std::to_string(class_names.size()) + " class names for " +
                     std::to_string(classes) + " classes; give one name per class, or none");
  IdxArray images = parse_idx(image_bytes.data(), image_bytes.size(), 3, what + " images");
  IdxArray labels = parse_idx(label_bytes.data(), label_bytes.size(), 1, what + " labels");
  if (images.dims[0] != labels.dims[0])
    throw ValueError(what + ": " + std::to_string(images.dims[0]) + " images but " +
                     std::to_string(labels.dims[0]) +
                     " labels; the two files must hold the same number (are they of the same "
                     "split?)");
  for (std::size_t i = 0; i < labels.data.size(); ++i)
    if (labels.data[i] >= classes)
      throw ValueError(what + " labels: label " + std::to_string(i) + " is " +
                       std::to_string(labels.data[i]) + "; labels must be below the " +
                       std::to_string(classes) + " classes");
  LabeledImages out;
  out.count = images.dims[0];
  out.rows = images.dims[1];
  out.cols = images.dims[2];
  out.classes = classes;
  out.pixels = std::move(images.data);
  out.labels = std::move(labels.data);
  if (class_names.empty())
    for (std::size_t c = 0; c < classes; ++c) class_names.push_back("class " + std::to_string(c));
  out.class_names = std::move(class_names);
  return out;
}

const std::vector<std::string>& fashion_mnist_class_names() {
  static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress",
                                                 "Coat",        "Sandal",  "Shirt",    "Sneaker",
                                                 "Bag",         "Ankle boot"};
  return names;
}

FashionMnistFiles fashion_mnist_files(const std::string& split) {
  if (split == "train")
    return {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", 60000};
  if (split == "test") return {"t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", 10000};
  throw ValueError("Fashion-MNIST split \"" + split + "\" is unknown; it is \"train\" or \"test\"");
}

LabeledImages fashion_mnist_from_idx(const std::vector<std::uint8_t>& image_bytes,
                                     const std::vector<std::uint8_t>& label_bytes,
                                     const std::string& split) {
  const FashionMnistFiles files = fashion_mnist_files(split);
  LabeledImages d = labeled_images_from_idx(image_bytes, label_bytes, "Fashion-MNIST " + split, 10,
                                            fashion_mnist_class_names());
  // Fewer images than the split are a leading part of it re-headed with its count (the page's
  // training subset, tools/page-data.mjs); more are not this split.
  if (d.count > files.count || d.rows != 28 || d.cols != 28)
    throw ValueError("Fashion-MNIST " + split + ": " + std::to_string(d.count) + " images of " +
                     std::to_string(d.rows) + " × " + std::to_string(d.cols) + "; the split has " +
                     std::to_string(files.count) + " images of 28 × 28");
  return d;
}

}  // namespace perflab
