// libFuzzer target for IDX bytes (what the page's loader and load_fashion_mnist hand core):
// the first two bytes say where the image file ends (big-endian, modulo what is left), the
// rest is the image file then the label file. Any bytes give a data set whose tensors, class
// counts, subsets and seeded split are then taken, or a ValueError sentence; nothing else.
// Built by the asan preset (fuzz/CMakeLists.txt); how to run it: docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/tensor/memory.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  perflab::MemoryTracker::global().set_cap_bytes(std::size_t{256} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t rest = size - 2;
  const std::size_t split = ((std::size_t{data[0]} << 8) | data[1]) % (rest + 1);
  const std::vector<std::uint8_t> images(data + 2, data + 2 + split);
  const std::vector<std::uint8_t> labels(data + 2 + split, data + size);
  try {
    (void)perflab::parse_idx(data + 2, rest, data[1] % 4, "bytes");
  } catch (const perflab::ValueError&) {
  }
  try {
    const perflab::LabeledImages d =
        perflab::labeled_images_from_idx(images, labels, "fuzz");
    (void)perflab::class_counts(d);
    const perflab::Tensor flat = perflab::images_tensor(d, 0, d.count, {}, false);
    const perflab::Tensor nchw =
        perflab::images_tensor(d, {d.count - 1, 0}, {1.0f / 255, 0.5f, 0.25f}, true);
    const auto [train, validation] = perflab::split_validation(d, d.count / 3, data[1]);
    (void)perflab::take_first(train, train.count / 2);
    (void)flat.size();
    (void)nchw.size();
    (void)validation.count;
  } catch (const perflab::ValueError&) {
    // The one allowed failure: a sentence saying what is wrong with the bytes.
  }
  return 0;
}
