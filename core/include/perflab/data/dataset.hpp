// Image-classification data sets as stored (Fashion-MNIST: 28×28 grey, 10 classes), read
// from IDX bytes, and turned into float tensors for a model. The IDX parser is pure (bytes in,
// checked arrays out) so the page and the native CLI read the same way; only reading files
// and gzip (zlib) is native (core/src/data/fashion_mnist_files.cpp, left out of the wasm
// build: the page decompresses with DecompressionStream and hands core raw IDX bytes).
// Not for: augmentation, colour images or data sets that do not fit in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

struct LabeledImages {  // a split of an image-classification data set, as stored
  std::size_t count = 0, rows = 0, cols = 0;
  std::size_t classes = 10;
  std::vector<std::uint8_t> pixels;  // (count, rows, cols), row-major per image, 0..255
  std::vector<std::uint8_t> labels;  // (count), each < classes
  std::vector<std::string> class_names;  // Fashion-MNIST: "T-shirt/top", "Trouser", ...
};

struct Preprocessing {  // x = (pixel * scale - mean) / std
  float scale = 1.0f / 255.0f;
  float mean = 0.0f;
  float std = 1.0f;
  // The one rule every user checks (a recipe, a model file, images_tensor, evaluate, the
  // .npy export): scale a positive finite number, mean finite, std positive and finite.
  // ValueError naming the field under `where`: "recipe preprocessing.std must be a positive
  // finite number (1 leaves pixels unstandardized), got 0".
  void validate(const std::string& where = "preprocessing") const;
};
inline auto json_fields_of(const Preprocessing*) {
  return std::make_tuple(JsonField{"scale", &Preprocessing::scale},
                         JsonField{"mean", &Preprocessing::mean},
                         JsonField{"std", &Preprocessing::std});
}
// {"scale", "mean", "std"}, from the field list above.
nlohmann::json to_json(const Preprocessing& p);
// The three fields and no other (a ValueError names an unknown or missing one), validated.
Preprocessing preprocessing_from_json(const nlohmann::json& j, const std::string& where);

// Rows [first, first+n) as a float tensor: layout {n, rows*cols} ("flat", for an MLP) or
// {n, 1, rows, cols} ("image", for a CNN); chosen from the model's input shape by the caller.
// ValueError when the rows run past d.count or p is invalid (Preprocessing::validate).
Tensor images_tensor(const LabeledImages& d, std::size_t first, std::size_t n,
                     const Preprocessing& p, bool image_layout);
// Same, for the rows listed in `rows` (a shuffled epoch's mini-batch), in that order.
Tensor images_tensor(const LabeledImages& d, const std::vector<std::size_t>& rows,
                     const Preprocessing& p, bool image_layout);

// A deterministic (seeded) split: after a seeded shuffle of the row indices, the last
// `validation` rows form .second, the others .first (both keep their shuffled order).
// ValueError when validation > d.count.
std::pair<LabeledImages, LabeledImages> split_validation(const LabeledImages& d,
                                                         std::size_t validation,
                                                         std::uint64_t seed);
// The first n rows (tiny fixed subsets for tests); ValueError when n > d.count.
LabeledImages take_first(const LabeledImages& d, std::size_t n);

// Images per class (size d.classes): the class histogram.
std::vector<std::size_t> class_counts(const LabeledImages& d);

// ---- IDX (the format Fashion-MNIST and MNIST are stored in) ----
// Big-endian: two zero bytes, a type byte (0x08 = unsigned byte, the only type read here),
// the rank, then `rank` 32-bit dimensions, then the data. Images: magic 0x00000803
// (count, rows, cols); labels: 0x00000801 (count).
struct IdxArray {
  std::vector<std::size_t> dims;   // e.g. (60000, 28, 28)
  std::vector<std::uint8_t> data;  // product of dims bytes
};
// The most bytes an IDX file may hold here (well above Fashion-MNIST's 47 MB training
// images): a corrupt dimension is refused before any allocation.
inline constexpr std::size_t kMaxIdxBytes = std::size_t{1} << 28;
// Parses IDX bytes of unsigned bytes with the given rank. `what` names the file in errors
// ("train images"). ValueError, in a sentence saying what is wrong and what is expected, for
// a wrong magic, a rank other than expected_rank, a zero or oversized dimension, and data
// shorter or longer than the dimensions say.
IdxArray parse_idx(const std::uint8_t* bytes, std::size_t size, std::size_t expected_rank,
                   const std::string& what);
// Images (rank 3) and labels (rank 1) of one split: counts must agree and every label be
// below `classes`; class_names given (size classes) or, when empty, "class 0", "class 1", ...
LabeledImages labeled_images_from_idx(const std::vector<std::uint8_t>& image_bytes,
                                      const std::vector<std::uint8_t>& label_bytes,
                                      const std::string& what, std::size_t classes = 10,
                                      std::vector<std::string> class_names = {});

// ---- Fashion-MNIST ----
// The ten class names in label order: "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
// "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot".
const std::vector<std::string>& fashion_mnist_class_names();
// The folder Debian's dataset-fashion-mnist installs into.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";
// A split's files as the package names them (gzip'd IDX) and its size; split is "train" or
// "test" (ValueError otherwise). The page's loader asks for the same names.
struct FashionMnistFiles {
  std::string images;  // "train-images-idx3-ubyte.gz"
  std::string labels;  // "train-labels-idx1-ubyte.gz"
  std::size_t count;   // 60,000 or 10,000
};
FashionMnistFiles fashion_mnist_files(const std::string& split);
// Fashion-MNIST from its IDX bytes (already decompressed): labeled_images_from_idx with the
// class names, 28 × 28 images, and at most the split's count (fewer: a leading part of the
// split, such as the page's 12,000-image training subset).
LabeledImages fashion_mnist_from_idx(const std::vector<std::uint8_t>& image_bytes,
                                     const std::vector<std::uint8_t>& label_bytes,
                                     const std::string& split);

// ---- Native only (core/src/data/fashion_mnist_files.cpp; not in the wasm build) ----
// The whole file, gunzipped when it starts with gzip's magic (1f 8b), as is otherwise.
// ValueError naming the path when it cannot be read, is corrupt or inflates past kMaxIdxBytes.
std::vector<std::uint8_t> read_maybe_gzip_file(const std::string& path);
// Reads dir/<fashion_mnist_files(split)> natively; split "train" or "test". A missing folder
// names the package to install.
LabeledImages load_fashion_mnist(const std::string& dir, const std::string& split);

}  // namespace perflab
