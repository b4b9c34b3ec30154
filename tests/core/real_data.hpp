// Debian's real Fashion-MNIST splits, read once per test program and shared by every test
// that needs real images (reading the training split inflates 26 MB: about 0.25 s natively,
// paid once, not once per test). Native only: wasm has no files and no zlib.
// Not for: subsets (take_first of what this returns) or the reading's own checks
// (test_dataset.cpp tests load_fashion_mnist's refusals on hand-made files).
#pragma once

#ifndef __EMSCRIPTEN__

#include <string>

#include "perflab/data/dataset.hpp"

namespace real_data {

// "train" (60,000 images) or "test" (10,000), from perflab::kFashionMnistDir.
inline const perflab::LabeledImages& fashion_mnist(const std::string& split) {
  if (split == "train") {
    static const perflab::LabeledImages train =
        perflab::load_fashion_mnist(perflab::kFashionMnistDir, "train");
    return train;
  }
  static const perflab::LabeledImages test =
      perflab::load_fashion_mnist(perflab::kFashionMnistDir, "test");
  return test;
}

}  // namespace real_data

#endif
