// Protects how core reads image-classification data: the IDX parser on hand-made bytes (a good
// pair of files, and every way a file can be wrong, each refused in a sentence), the tensors a
// model reads (flat and NCHW, preprocessing by hand), the seeded validation split and subsets,
// and natively gzip through zlib and Debian's real Fashion-MNIST files (read once).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/train/train.hpp"
#include "real_data.hpp"

using namespace perflab;

namespace {

using Bytes = std::vector<std::uint8_t>;

void append_u32(Bytes& b, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
}

// IDX bytes of unsigned bytes: magic 0x0000080<rank>, the dimensions, the data.
Bytes idx(const std::vector<std::uint32_t>& dims, const Bytes& data) {
  Bytes b = {0, 0, 0x08, static_cast<std::uint8_t>(dims.size())};
  for (std::uint32_t d : dims) append_u32(b, d);
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// Three 2×2 images (pixels 0..11) with labels 0, 1, 9.
Bytes three_images() { return idx({3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255}); }
Bytes three_labels() { return idx({3}, {0, 1, 9}); }

}  // namespace

TEST_CASE("IDX bytes of images and labels become a data set") {
  const LabeledImages d = labeled_images_from_idx(three_images(), three_labels(), "tiny");
  CHECK(d.count == 3);
  CHECK(d.rows == 2);
  CHECK(d.cols == 2);
  CHECK(d.classes == 10);
  CHECK(d.pixels == Bytes{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255});
  CHECK(d.labels == Bytes{0, 1, 9});
  REQUIRE(d.class_names.size() == 10);
  CHECK(d.class_names[9] == "class 9");
  CHECK(class_counts(d) == std::vector<std::size_t>{1, 1, 0, 0, 0, 0, 0, 0, 0, 1});

  const IdxArray a = parse_idx(three_labels().data(), three_labels().size(), 1, "labels");
  CHECK(a.dims == std::vector<std::size_t>{3});
  CHECK(a.data == Bytes{0, 1, 9});
}

TEST_CASE("a truncated IDX file is refused, saying how much is missing") {
  Bytes images = three_images();
  images.pop_back();
  CHECK_THROWS_WITH_AS(labeled_images_from_idx(images, three_labels(), "tiny"),
                       "tiny images: the file is truncated: its header says 3 × 2 × 2 = 12 bytes "
                       "of data, the file has 11",
                       ValueError);
  const Bytes whole = three_images();
  const Bytes header_cut(whole.begin(), whole.begin() + 10);
  CHECK_THROWS_WITH_AS(parse_idx(header_cut.data(), header_cut.size(), 3, "tiny images"),
                       "tiny images: the file is truncated inside its header (10 bytes; the header "
                       "of 3 dimensions takes 16)",
                       ValueError);
  CHECK_THROWS_WITH_AS(parse_idx(nullptr, 0, 1, "empty"),
                       "empty: 0 bytes is too short for an IDX header; expected an IDX file of "
                       "unsigned bytes with 1 dimension (magic 0x00000801)",
                       ValueError);
  Bytes longer = three_labels();
  longer.push_back(7);
  CHECK_THROWS_WITH_AS(parse_idx(longer.data(), longer.size(), 1, "labels"),
                       "labels: 1 bytes follow the data; the header says 3 = 3 bytes, and nothing "
                       "may follow them",
                       ValueError);
}

TEST_CASE("a wrong magic is refused, with a hint for swapped or still-compressed files") {
  CHECK_THROWS_WITH_AS(labeled_images_from_idx(three_labels(), three_images(), "tiny"),
                       "tiny images: magic is 0x00000801 (unsigned bytes with 1 dimensions: images "
                       "have 3, labels 1; are the image and label files swapped?); expected an IDX "
                       "file of unsigned bytes with 3 dimensions (magic 0x00000803)",
                       ValueError);
  const Bytes gzip = {0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0};
  CHECK_THROWS_WITH_AS(parse_idx(gzip.data(), gzip.size(), 1, "labels"),
                       "labels: magic is 0x1F8B0800 (it starts like gzip: decompress it first); "
                       "expected an IDX file of unsigned bytes with 1 dimension (magic 0x00000801)",
                       ValueError);
  Bytes floats = three_labels();
  floats[2] = 0x0D;  // IDX's float type
  CHECK_THROWS_WITH_AS(parse_idx(floats.data(), floats.size(), 1, "labels"),
                       "labels: magic is 0x00000D01; expected an IDX file of unsigned bytes with 1 "
                       "dimension (magic 0x00000801)",
                       ValueError);
}

TEST_CASE("dimensions that are zero or too large are refused before any allocation") {
  const Bytes zero = idx({0}, {});
  CHECK_THROWS_WITH_AS(parse_idx(zero.data(), zero.size(), 1, "labels"),
                       "labels: dimension 0 is 0; every dimension must be at least 1", ValueError);
  const Bytes huge = idx({60000, 60000, 28}, {1, 2, 3});
  CHECK_THROWS_WITH_AS(parse_idx(huge.data(), huge.size(), 3, "images"),
                       ("images: dimensions 60000 × 60000 hold more than " +
                        std::to_string(kMaxIdxBytes) +
                        " bytes, the most an IDX file may hold here")
                           .c_str(),
                       ValueError);
}

TEST_CASE("images and labels must agree in count, and labels be below the classes") {
  CHECK_THROWS_WITH_AS(labeled_images_from_idx(three_images(), idx({2}, {0, 1}), "tiny"),
                       "tiny: 3 images but 2 labels; the two files must hold the same number (are "
                       "they of the same split?)",
                       ValueError);
  CHECK_THROWS_WITH_AS(labeled_images_from_idx(three_images(), idx({3}, {0, 10, 1}), "tiny"),
                       "tiny labels: label 1 is 10; labels must be below the 10 classes",
                       ValueError);
  CHECK_THROWS_WITH_AS(labeled_images_from_idx(three_images(), three_labels(), "tiny", 10, {"a"}),
                       "tiny: 1 class names for 10 classes; give one name per class, or none",
                       ValueError);
  const LabeledImages named = labeled_images_from_idx(three_images(), idx({3}, {0, 1, 1}), "tiny",
                                                      2, {"cat", "dog"});
  CHECK(named.class_names == std::vector<std::string>{"cat", "dog"});
}

TEST_CASE("images_tensor lays rows out flat or as NCHW, preprocessed by one formula") {
  const LabeledImages d = labeled_images_from_idx(three_images(), three_labels(), "tiny");
  const Tensor flat = images_tensor(d, 1, 2, Preprocessing{}, false);
  CHECK(flat.shape() == Shape{2, 4});
  CHECK(flat[0] == doctest::Approx(4.0 / 255));
  CHECK(flat[7] == 1.0f);  // pixel 255 with scale 1/255

  // x = (pixel / 255 - 0.5) / 0.5: 0 -> -1, 255 -> 1.
  const Preprocessing centred{1.0f / 255.0f, 0.5f, 0.5f};
  const Tensor nchw = images_tensor(d, 0, 3, centred, true);
  CHECK(nchw.shape() == Shape{3, 1, 2, 2});
  CHECK(nchw[0] == -1.0f);
  CHECK(nchw[11] == doctest::Approx(1.0));
  CHECK(nchw[5] == doctest::Approx((5.0 / 255 - 0.5) / 0.5));

  const Tensor picked = images_tensor(d, std::vector<std::size_t>{2, 0}, Preprocessing{}, false);
  CHECK(picked.shape() == Shape{2, 4});
  CHECK(picked[3] == 1.0f);  // row 2's last pixel first
  CHECK(picked[4] == 0.0f);  // then row 0

  CHECK_THROWS_WITH_AS(images_tensor(d, 2, 2, Preprocessing{}, false),
                       "images_tensor: rows 2 to 4 run past the data set's 3 images; first + n "
                       "must be at most 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(images_tensor(d, std::vector<std::size_t>{0, 3}, Preprocessing{}, true),
                       "images_tensor: rows[1] is 3; the data set has 3 images, so rows must be "
                       "below 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(images_tensor(d, 0, 1, Preprocessing{1.0f, 0.0f, 0.0f}, false),
                       "preprocessing.std must be a positive finite number (1 leaves pixels "
                       "unstandardized), got 0",
                       ValueError);
}

TEST_CASE("split_validation is seeded: the same seed gives the same split, every row once") {
  Bytes pixels(100);
  Bytes labels(100);
  for (std::size_t i = 0; i < 100; ++i) {
    pixels[i] = static_cast<std::uint8_t>(i);  // 1×1 images whose pixel is their row
    labels[i] = static_cast<std::uint8_t>(i % 10);
  }
  const LabeledImages d = labeled_images_from_idx(idx({100, 1, 1}, pixels), idx({100}, labels), "d");
  const auto [train, val] = split_validation(d, 20, 7);
  CHECK(train.count == 80);
  CHECK(val.count == 20);
  CHECK(train.pixels.size() == 80);
  CHECK(val.labels.size() == 20);
  for (std::size_t i = 0; i < val.count; ++i) CHECK(val.labels[i] == val.pixels[i] % 10);

  Bytes all = train.pixels;
  all.insert(all.end(), val.pixels.begin(), val.pixels.end());
  std::sort(all.begin(), all.end());
  CHECK(all == pixels);  // every row exactly once
  CHECK(val.pixels != Bytes(pixels.end() - 20, pixels.end()));  // shuffled, not the last rows

  const auto again = split_validation(d, 20, 7);
  CHECK(again.second.pixels == val.pixels);
  CHECK(again.first.pixels == train.pixels);
  CHECK(split_validation(d, 20, 8).second.pixels != val.pixels);
  CHECK(split_validation(d, 0, 7).first.count == 100);
  CHECK_THROWS_WITH_AS(split_validation(d, 101, 7),
                       "split_validation: 101 validation images asked of a data set of 100; at "
                       "most 100",
                       ValueError);

  const LabeledImages first = take_first(d, 5);
  CHECK(first.count == 5);
  CHECK(first.pixels == Bytes{0, 1, 2, 3, 4});
  CHECK(first.class_names == d.class_names);
  CHECK_THROWS_WITH_AS(take_first(d, 101),
                       "take_first: 101 images asked of a data set of 100; at most 100",
                       ValueError);
}

TEST_CASE("Fashion-MNIST's splits have their package's file names and ten named classes") {
  CHECK(fashion_mnist_files("train").images == "train-images-idx3-ubyte.gz");
  CHECK(fashion_mnist_files("test").labels == "t10k-labels-idx1-ubyte.gz");
  CHECK(fashion_mnist_files("test").count == 10000);
  CHECK_THROWS_WITH_AS(fashion_mnist_files("validation"),
                       "Fashion-MNIST split \"validation\" is unknown; it is \"train\" or \"test\"",
                       ValueError);
  REQUIRE(fashion_mnist_class_names().size() == 10);
  CHECK(fashion_mnist_class_names()[0] == "T-shirt/top");
  CHECK(fashion_mnist_class_names()[9] == "Ankle boot");
  CHECK_THROWS_WITH_AS(fashion_mnist_from_idx(three_images(), three_labels(), "test"),
                       "Fashion-MNIST test: 3 images of 2 × 2; the split has 10000 images of "
                       "28 × 28",
                       ValueError);
}

TEST_CASE("A leading part of a Fashion-MNIST split is read as that split, never more than it") {
  // The page's training subset: the first rows of the training split, re-headed with their count.
  const Bytes images = idx({2, 28, 28}, Bytes(2 * 28 * 28, 7));
  const LabeledImages d = fashion_mnist_from_idx(images, idx({2}, {3, 8}), "train");
  CHECK(d.count == 2);
  CHECK(d.labels == Bytes{3, 8});
  CHECK(d.class_names == fashion_mnist_class_names());
  const Bytes too_many = idx({10001, 28, 28}, Bytes(10001 * 28 * 28, 0));
  CHECK_THROWS_WITH_AS(fashion_mnist_from_idx(too_many, idx({10001}, Bytes(10001, 0)), "test"),
                       "Fashion-MNIST test: 10001 images of 28 × 28; the split has 10000 images "
                       "of 28 × 28",
                       ValueError);
}

#ifndef __EMSCRIPTEN__  // files and zlib are native only; the page inflates with the browser

#include <unistd.h>

namespace {

// A file of its own per process (the native and scalar suites may run at the same time),
// removed when the test case ends.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const Bytes& bytes)
      : path((std::filesystem::temp_directory_path() /
              ("perflab_test_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path); }
};

// Python's gzip.compress(three_labels(), mtime=0).
const Bytes kGzipLabels = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x63,
                           0x60, 0xe0, 0x60, 0x64, 0x60, 0x60, 0x60, 0x66, 0x60, 0xe4, 0x04,
                           0x00, 0x61, 0x35, 0x87, 0x6e, 0x0b, 0x00, 0x00, 0x00};

}  // namespace

TEST_CASE("gzip'd files are inflated with zlib; plain ones read as they are") {
  CHECK(read_maybe_gzip_file(TempFile("labels.gz", kGzipLabels).path) == three_labels());
  CHECK(read_maybe_gzip_file(TempFile("labels", three_labels()).path) == three_labels());

  const TempFile cut("cut.gz", Bytes(kGzipLabels.begin(), kGzipLabels.begin() + 20));
  const std::string& cut_path = cut.path;
  CHECK_THROWS_WITH_AS(read_maybe_gzip_file(cut_path),
                       (cut_path + ": the gzip stream is truncated after 9 bytes of data; "
                                   "download or reinstall the file")
                           .c_str(),
                       ValueError);
  Bytes corrupt = kGzipLabels;
  corrupt[24] ^= 0xFF;  // the CRC-32 no longer matches the data
  const TempFile corrupt_file("corrupt.gz", corrupt);
  const std::string& corrupt_path = corrupt_file.path;
  CHECK_THROWS_WITH_AS(read_maybe_gzip_file(corrupt_path),
                       (corrupt_path + ": the gzip data is corrupt (incorrect data check); "
                                       "download or reinstall the file")
                           .c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(read_maybe_gzip_file("/nonexistent/perflab.gz"),
                       "/nonexistent/perflab.gz: cannot be opened for reading", ValueError);
  CHECK_THROWS_WITH_AS(load_fashion_mnist("/nonexistent", "test"),
                       "Fashion-MNIST folder /nonexistent does not exist; install Debian's "
                       "dataset-fashion-mnist (it fills /usr/share/datasets/fashion-mnist) or name "
                       "the folder that holds t10k-images-idx3-ubyte.gz",
                       ValueError);
}

TEST_CASE("Debian's Fashion-MNIST: 60,000 and 10,000 images of 28×28, 6,000 and 1,000 per class") {
  // Read through load_fashion_mnist once per test program (real_data.hpp): 31 MB of gzip.
  const LabeledImages& train = real_data::fashion_mnist("train");
  const LabeledImages& test = real_data::fashion_mnist("test");
  CHECK(train.count == 60000);
  CHECK(test.count == 10000);
  CHECK(train.rows == 28);
  CHECK(train.cols == 28);
  CHECK(test.rows == 28);
  CHECK(train.pixels.size() == std::size_t{60000} * 784);
  CHECK(train.class_names == fashion_mnist_class_names());
  CHECK(class_counts(train) == std::vector<std::size_t>(10, 6000));
  CHECK(class_counts(test) == std::vector<std::size_t>(10, 1000));
  // Real pictures, not blank ones: the first hundred test images use the whole range of grey.
  const auto [darkest, brightest] =
      std::minmax_element(test.pixels.begin(), test.pixels.begin() + 100 * 784);
  CHECK(*darkest == 0);
  CHECK(*brightest == 255);
}

#endif

TEST_CASE("one preprocessing rule and one JSON form for the recipe, the model file and images") {
  const Preprocessing p{0.5f, 0.25f, 2.0f};
  const nlohmann::json j = to_json(p);
  CHECK(j == nlohmann::json{{"scale", 0.5}, {"mean", 0.25}, {"std", 2.0}});
  const Preprocessing back = preprocessing_from_json(j, "preprocessing");
  CHECK(back.scale == p.scale);
  CHECK(back.mean == p.mean);
  CHECK(back.std == p.std);

  CHECK_THROWS_WITH_AS(preprocessing_from_json({{"scale", 1}, {"mean", 0}}, "preprocessing"),
                       "preprocessing.std is missing", ValueError);
  CHECK_THROWS_WITH_AS(
      preprocessing_from_json({{"scale", 1}, {"mean", 0}, {"std", 1}, {"gamma", 2}}, "pre"),
      "pre.gamma is not a field of pre; its fields are scale, mean and std", ValueError);
  CHECK_THROWS_WITH_AS(preprocessing_from_json({{"scale", 1}, {"mean", 1e39}, {"std", 1}}, "p"),
                       "p.mean must be a number within a float's range (magnitude below "
                       "3.4e38), got 1e+39",
                       ValueError);
  CHECK_THROWS_WITH_AS(preprocessing_from_json({{"scale", -1}, {"mean", 0}, {"std", 1}}, "p"),
                       "p.scale must be a positive finite number, got -1", ValueError);
  CHECK_THROWS_WITH_AS(preprocessing_from_json(nlohmann::json::array(), "p"),
                       "p must be an object with fields scale, mean and std, got []", ValueError);
  // The recipe checks by the same rule, naming its own path.
  TrainRecipe r;
  r.preprocessing.std = -2;
  CHECK_THROWS_WITH_AS(r.validate(),
                       "recipe.preprocessing.std must be a positive finite number (1 leaves "
                       "pixels unstandardized), got -2",
                       ValueError);
}
