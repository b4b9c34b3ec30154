// Two ways to compute one convolution, for the Acceleration chapter's experiment: the direct
// loops over every output, filter and patch entry, and im2col + matmul (unfold every patch
// into a column of a (C·k·k, Ho·Wo) matrix, then one matrix product), with the memory that
// unfolded matrix costs, counted and measured. Also im2col and col2im on tensors, checked,
// for the page and tests to call on their own data.
// Not for: choosing Conv2d's forward path (layers.hpp has that rule) or backward passes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// One image's convolution: x (C, H, W) → y (F, Ho, Wo), square kernel k, zero padding,
// no bias. Ho = conv_output_size(H, k, stride, padding), Wo likewise.
struct ConvShape {
  std::size_t channels = 1, height = 1, width = 1;  // C, H, W of the input image
  std::size_t filters = 1;                          // F, the output channels
  std::size_t kernel = 1, stride = 1, padding = 0;
};

// Sizes of one convolution: every count is exact (doubles hold them below 2^53).
struct ConvCounts {
  std::size_t out_height = 0, out_width = 0;
  std::size_t patch = 0;      // C·k·k, the rows of the unfolded matrix
  std::size_t positions = 0;  // Ho·Wo, its columns
  double flops = 0;           // 2·F·Ho·Wo·C·k², the lab's convention (layers.hpp)
  double input_bytes = 0;     // 4·C·H·W
  double weight_bytes = 0;    // 4·F·C·k²
  double output_bytes = 0;    // 4·F·Ho·Wo
  double col_bytes = 0;       // 4·C·k²·Ho·Wo: the unfolded matrix im2col writes
  double col_to_input = 0;    // col_bytes / input_bytes: about k² for stride 1, same padding
};

// The most elements the unfolded matrix, the input or the output may have (64 MiB each).
inline constexpr std::size_t kMaxConvElements = std::size_t{1} << 24;
// The most multiply-adds one measured convolution may take (F·Ho·Wo·C·k²), so that the direct
// loops finish a call in about a second.
inline constexpr double kMaxConvMultiplyAdds = 536870912.0;  // 2^29

// ValueError naming the field and what is allowed: every size from 1 to kMaxSpecDimension
// (padding from 0), a kernel that fits the padded image, padding below the kernel, and
// input, output and unfolded matrix within kMaxConvElements.
ConvCounts conv_counts(const ConvShape& shape);

// The methods, in the order the experiment shows them:
//   "direct"  the seven loops: for each filter, output row and column, sum the patch
//             (scalar, reading the input in place: no copy, no extra memory);
//   "im2col"  im2col into a (C·k·k, Ho·Wo) matrix, then weights (F, C·k·k) @ that matrix
//             with the layers' matmul (the packed, vectorized one): the copy costs col_bytes.
struct ConvMethod {
  std::string name;
  std::string description;
};
const std::vector<ConvMethod>& conv_methods();

// The experiment's sizes, owned here so the page and tests plan the same: small to large
// patches (1→8 3×3 on 28² up to 32→64 3×3 on 56²) and a 7×7 kernel whose unfolded matrix is
// about 49× its input. quick: two of them.
std::vector<ConvShape> conv_plan(bool quick);

struct ConvMeasurement {
  std::string method;
  ConvShape shape;
  ConvCounts counts;
  // Measured by the tracking allocator over one call: the most bytes the method held above
  // what was live before it, its output included (direct: the output; im2col: the output
  // and the unfolded matrix).
  double peak_bytes = 0;
  double gflops_per_s = 0;  // counts.flops / median
  Stats stats;              // one call, per call
};

// Verifies the method against a double-precision direct reference on the same random input
// and weights (Error when they differ beyond float rounding), then times one call with the
// Timer. ValueError for an unknown method (naming the methods), conv_counts' errors, more
// than kMaxConvMultiplyAdds, or a call that cannot fit options.max_total_ms.
ConvMeasurement measure_conv(std::string_view method, const ConvShape& shape,
                             const TimerOptions& options, Clock& clock = default_clock());

// im2col / col2im on tensors (layers.hpp has the layout): x (C, H, W) → (C·k·k, Ho·Wo), and
// the adjoint, col (C·k·k, Ho·Wo) → image (C, H, W), each entry added back to the pixel it
// was copied from. ValueError naming what does not fit (a shape that is not (C, H, W), a
// col whose shape is not the one image_shape and the kernel give, conv_counts' limits).
Tensor im2col(const Tensor& x, std::size_t kernel, std::size_t stride, std::size_t padding);
Tensor col2im(const Tensor& col, const Shape& image_shape, std::size_t kernel,
              std::size_t stride, std::size_t padding);

// ---- JSON, the struct field names.
// {channels, height, width, filters, kernel, stride, padding}; ConvShape from it: every field
// required, ValueError naming `where`.field.
nlohmann::json to_json(const ConvShape& shape);
ConvShape conv_shape_from_json(const nlohmann::json& shape, const std::string& where = "shape");
// {method, shape, out_height, out_width, patch, positions, flops, input_bytes, weight_bytes,
//  output_bytes, col_bytes, col_to_input, peak_bytes, gflops_per_s, stats}
nlohmann::json to_json(const ConvMeasurement& m);

}  // namespace perflab
