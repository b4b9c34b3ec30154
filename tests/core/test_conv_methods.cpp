// What this file protects: the Acceleration chapter's convolution experiment. The counts of
// one convolution (output size, FLOPs, the unfolded matrix's bytes) worked out by hand, the
// checks on every size with their sentences, both methods giving the reference's result, the
// unfolded matrix showing up in the measured peak of im2col and not of the direct loops, the
// plan, and im2col / col2im on tensors with the original course's 3×3 example.
// Timings are never asserted.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/model/conv_methods.hpp"
#include "perflab/timing/clock.hpp"

#include "timer_helpers.hpp"

using namespace perflab;
using nlohmann::json;

TEST_CASE("a convolution's counts: output size, FLOPs and what the unfolded matrix costs") {
  // cnn_28's first convolution: 1→8 channels, 3×3, padding 1 on 28×28.
  const ConvCounts c = conv_counts({1, 28, 28, 8, 3, 1, 1});
  CHECK(c.out_height == 28);
  CHECK(c.out_width == 28);
  CHECK(c.patch == 9);
  CHECK(c.positions == 784);
  CHECK(c.flops == 2.0 * 8 * 784 * 9);
  CHECK(c.input_bytes == 4.0 * 784);
  CHECK(c.weight_bytes == 4.0 * 8 * 9);
  CHECK(c.output_bytes == 4.0 * 8 * 784);
  CHECK(c.col_bytes == 4.0 * 9 * 784);
  CHECK(c.col_to_input == 9);  // k² for stride 1 with "same" padding

  // Stride 2 and no padding: (7 − 3) / 2 + 1 = 3 outputs per side.
  const ConvCounts s = conv_counts({2, 7, 7, 4, 3, 2, 0});
  CHECK(s.out_height == 3);
  CHECK(s.patch == 18);
  CHECK(s.col_bytes == 4.0 * 18 * 9);
  CHECK(s.col_to_input == doctest::Approx(18.0 * 9 / (2 * 49)));
}

TEST_CASE("a convolution's sizes are checked, each error naming the field and what is allowed") {
  CHECK_THROWS_WITH_AS(conv_counts({0, 8, 8, 1, 3, 1, 1}),
                       "channels must be an integer from 1 to 16777216, got 0", ValueError);
  CHECK_THROWS_WITH_AS(conv_counts({1, 8, 8, 1, 3, 0, 1}),
                       "stride must be an integer from 1 to 16777216, got 0", ValueError);
  CHECK_THROWS_WITH_AS(conv_counts({1, 8, 8, 1, 3, 1, 3}),
                       "padding must be below the kernel (3), got 3; a wider border only adds "
                       "outputs that see nothing but zeros",
                       ValueError);
  CHECK_THROWS_WITH_AS(conv_counts({1, 4, 8, 1, 7, 1, 1}),
                       "kernel 7 is larger than the padded height 6 (4 with padding 1 on each "
                       "side)",
                       ValueError);
  CHECK_THROWS_WITH_AS(conv_counts({64, 1024, 1024, 1, 3, 1, 1}),
                       "the input image would have 67108864 elements; at most 16777216 are "
                       "allowed (64 MiB): use a smaller image, fewer channels or a smaller kernel",
                       ValueError);
  CHECK_THROWS_AS(conv_counts({16, 512, 512, 1, 7, 1, 3}), ValueError);  // the unfolded matrix
  CHECK_THROWS_WITH_AS(measure_conv("winograd", {1, 8, 8, 1, 3, 1, 1}, timer_test::tiny_timer()),
                       "unknown convolution method \"winograd\"; the methods are direct, im2col",
                       ValueError);
  CHECK_THROWS_WITH_AS(
      measure_conv("direct", {64, 128, 128, 256, 3, 1, 1}, timer_test::tiny_timer()),
      "this convolution takes 2415919104 multiply-adds (filters × output positions × channels "
      "× kernel²); at most 536870912 are allowed, so that the direct loops finish a call in "
      "about a second",
      ValueError);
}

TEST_CASE("both methods give the reference's output; only im2col holds the unfolded matrix") {
  const ConvShape shape{3, 12, 10, 5, 3, 1, 1};
  const ConvCounts c = conv_counts(shape);
  // measure_conv verifies each method against the double reference before timing it (an
  // Error otherwise), so reaching the timing is the check.
  const ConvMeasurement direct = measure_conv("direct", shape, timer_test::tiny_timer());
  const ConvMeasurement unfolded = measure_conv("im2col", shape, timer_test::tiny_timer());
  CHECK(direct.method == "direct");
  CHECK(direct.stats.samples >= 1);
  // The direct loops allocate their output only; im2col its output and the matrix.
  CHECK(direct.peak_bytes == c.output_bytes);
  CHECK(unfolded.peak_bytes == c.output_bytes + c.col_bytes);
  const json row = to_json(unfolded);
  CHECK(row["method"] == "im2col");
  CHECK(row["col_bytes"] == c.col_bytes);
  CHECK(row["shape"] == to_json(shape));
  CHECK(row["stats"]["samples"].get<std::size_t>() >= 1);

  SUBCASE("strided, unpadded, and a 1×1 kernel") {
    for (const ConvShape s : {ConvShape{2, 9, 9, 3, 3, 2, 0}, ConvShape{4, 5, 6, 2, 1, 1, 0}}) {
      CHECK_NOTHROW(measure_conv("direct", s, timer_test::tiny_timer()));
      CHECK_NOTHROW(measure_conv("im2col", s, timer_test::tiny_timer()));
    }
  }
}

TEST_CASE("the experiment's plan is core's: stride-1 sizes within the limits, a 7×7 among them") {
  for (const bool quick : {false, true}) {
    const std::vector<ConvShape> plan = conv_plan(quick);
    REQUIRE_FALSE(plan.empty());
    bool seven = false;
    for (const ConvShape& s : plan) {
      const ConvCounts c = conv_counts(s);
      CHECK(c.flops / 2 <= kMaxConvMultiplyAdds);
      seven = seven || s.kernel == 7;
    }
    CHECK(seven);
  }
  CHECK(conv_plan(true).size() < conv_plan(false).size());
}

TEST_CASE("im2col and col2im on tensors: the original course's 3×3 example, and shapes checked") {
  const Tensor x({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor col = im2col(x, 2, 1, 0);
  CHECK(col.shape() == Shape{4, 4});
  const std::vector<float> expected = {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9};
  CHECK(std::vector<float>(col.data(), col.data() + 16) == expected);
  // col2im of ones counts how many patches cover each pixel.
  const Tensor counts = col2im(Tensor::full({4, 4}, 1.0f), {1, 3, 3}, 2, 1, 0);
  CHECK(std::vector<float>(counts.data(), counts.data() + 9) ==
        std::vector<float>{1, 2, 1, 2, 4, 2, 1, 2, 1});
  CHECK_THROWS_WITH_AS(im2col(Tensor({3, 3}), 2, 1, 0),
                       "im2col takes one image of shape (C, H, W), got shape (3, 3)", ValueError);
  CHECK_THROWS_WITH_AS(col2im(Tensor({4, 5}), {1, 3, 3}, 2, 1, 0),
                       "col2im's matrix must have shape (4, 4) (C·k·k, Ho·Wo) for an image "
                       "(1, 3, 3) and kernel 2, got (4, 5)",
                       ValueError);
  CHECK_THROWS_WITH_AS(conv_shape_from_json(json{{"channels", 1}}, "shape"),
                       "shape.height is missing; a convolution shape has channels, height, width, "
                       "filters, kernel, stride, padding",
                       ValueError);
  const ConvShape s{2, 5, 6, 3, 3, 2, 1};
  const ConvShape back = conv_shape_from_json(to_json(s));
  CHECK(to_json(back) == to_json(s));
}
