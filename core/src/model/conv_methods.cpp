// Direct convolution against im2col + matmul (conv_methods.hpp): the sizes checked and
// counted, each method verified against a double-precision reference and then timed, and
// im2col / col2im on checked tensors. The unfolded matrix's memory is counted here and
// measured by the tracking allocator.
// Not for: Conv2d's own forward (layers.cpp chooses its path) or its backward.
#include "perflab/model/conv_methods.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "layers_detail.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/model/model.hpp"
#include "perflab/tensor/memory.hpp"

namespace perflab {

namespace {

using nlohmann::json;

std::string methods_text() {
  std::string out;
  for (const auto& m : conv_methods()) out += (out.empty() ? "" : ", ") + m.name;
  return out;
}

void check_elements(double elements, const char* what) {
  if (elements > static_cast<double>(kMaxConvElements)) {
    throw ValueError(std::string(what) + " would have " + format_number(elements, 17) +
                     " elements; at most " + std::to_string(kMaxConvElements) +
                     " are allowed (64 MiB): use a smaller image, fewer channels or a smaller "
                     "kernel");
  }
}

// The seven loops, reading the input in place: y (F, Ho, Wo).
void direct_loops(float* y, const float* x, const float* w, const ConvShape& s,
                  const ConvCounts& c) {
  const auto pad = static_cast<std::ptrdiff_t>(s.padding);
  const auto H = static_cast<std::ptrdiff_t>(s.height), W = static_cast<std::ptrdiff_t>(s.width);
  const std::size_t k = s.kernel;
  for (std::size_t f = 0; f < s.filters; ++f) {
    const float* wf = w + f * c.patch;
    for (std::size_t oh = 0; oh < c.out_height; ++oh) {
      for (std::size_t ow = 0; ow < c.out_width; ++ow) {
        float sum = 0.0f;
        for (std::size_t ch = 0; ch < s.channels; ++ch) {
          for (std::size_t i = 0; i < k; ++i) {
            const std::ptrdiff_t ih = static_cast<std::ptrdiff_t>(oh * s.stride + i) - pad;
            if (ih < 0 || ih >= H) continue;
            const float* xrow = x + (static_cast<std::ptrdiff_t>(ch) * H + ih) * W;
            const float* wrow = wf + (ch * k + i) * k;
            for (std::size_t j = 0; j < k; ++j) {
              const std::ptrdiff_t iw = static_cast<std::ptrdiff_t>(ow * s.stride + j) - pad;
              if (iw >= 0 && iw < W) sum += wrow[j] * xrow[iw];
            }
          }
        }
        y[(f * c.out_height + oh) * c.out_width + ow] = sum;
      }
    }
  }
}

// The reference: the same loops in double.
std::vector<double> reference(const float* x, const float* w, const ConvShape& s,
                              const ConvCounts& c) {
  std::vector<double> y(s.filters * c.positions, 0.0);
  const auto pad = static_cast<std::ptrdiff_t>(s.padding);
  const auto H = static_cast<std::ptrdiff_t>(s.height), W = static_cast<std::ptrdiff_t>(s.width);
  const std::size_t k = s.kernel;
  for (std::size_t f = 0; f < s.filters; ++f)
    for (std::size_t oh = 0; oh < c.out_height; ++oh)
      for (std::size_t ow = 0; ow < c.out_width; ++ow) {
        double sum = 0.0;
        for (std::size_t ch = 0; ch < s.channels; ++ch)
          for (std::size_t i = 0; i < k; ++i)
            for (std::size_t j = 0; j < k; ++j) {
              const std::ptrdiff_t ih = static_cast<std::ptrdiff_t>(oh * s.stride + i) - pad;
              const std::ptrdiff_t iw = static_cast<std::ptrdiff_t>(ow * s.stride + j) - pad;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              sum += static_cast<double>(w[f * c.patch + (ch * k + i) * k + j]) *
                     static_cast<double>(x[(static_cast<std::ptrdiff_t>(ch) * H + ih) * W + iw]);
            }
        y[(f * c.out_height + oh) * c.out_width + ow] = sum;
      }
  return y;
}

// One call of a method: a new output each call, and for im2col a new unfolded matrix (what
// it costs is part of the method).
Tensor run_method(std::string_view method, const Tensor& x, const Tensor& w, const ConvShape& s,
                  const ConvCounts& c) {
  Tensor y({s.filters, c.out_height, c.out_width});
  if (method == "direct") {
    direct_loops(y.data(), x.data(), w.data(), s, c);
  } else {
    Tensor col({c.patch, c.positions});
    im2col(col.data(), x.data(), s.channels, s.height, s.width, s.kernel, s.stride, s.padding);
    detail::gemm(y.data(), w.data(), col.data(), s.filters, c.patch, c.positions);
  }
  return y;
}

std::size_t whole_field(const json& j, const std::string& where, const char* key, std::size_t lo) {
  if (!j.contains(key)) {
    throw ValueError(where + "." + key + " is missing; a convolution shape has channels, "
                     "height, width, filters, kernel, stride, padding");
  }
  const json& v = j.at(key);
  const bool ok = v.is_number() && std::isfinite(v.get<double>()) &&
                  v.get<double>() == std::floor(v.get<double>()) &&
                  v.get<double>() >= static_cast<double>(lo) &&
                  v.get<double>() <= static_cast<double>(kMaxSpecDimension);
  if (!ok) {
    throw ValueError(where + "." + key + " must be an integer from " + std::to_string(lo) +
                     " to " + std::to_string(kMaxSpecDimension) + ", got " + describe(v));
  }
  return static_cast<std::size_t>(v.get<double>());
}

}  // namespace

ConvCounts conv_counts(const ConvShape& s) {
  const std::pair<const char*, std::size_t> sizes[] = {
      {"channels", s.channels}, {"height", s.height}, {"width", s.width},
      {"filters", s.filters},   {"kernel", s.kernel}, {"stride", s.stride}};
  for (const auto& [name, value] : sizes) {
    if (value < 1 || value > kMaxSpecDimension) {
      throw ValueError(std::string(name) + " must be an integer from 1 to " +
                       std::to_string(kMaxSpecDimension) + ", got " + std::to_string(value));
    }
  }
  if (s.padding >= s.kernel) {
    throw ValueError("padding must be below the kernel (" + std::to_string(s.kernel) +
                     "), got " + std::to_string(s.padding) +
                     "; a wider border only adds outputs that see nothing but zeros");
  }
  for (const auto& [name, size] : {std::pair{"height", s.height}, std::pair{"width", s.width}}) {
    if (size + 2 * s.padding < s.kernel) {
      throw ValueError(std::string("kernel ") + std::to_string(s.kernel) +
                       " is larger than the padded " + name + " " +
                       std::to_string(size + 2 * s.padding) + " (" + std::to_string(size) +
                       " with padding " + std::to_string(s.padding) + " on each side)");
    }
  }
  ConvCounts c;
  c.out_height = conv_output_size(s.height, s.kernel, s.stride, s.padding);
  c.out_width = conv_output_size(s.width, s.kernel, s.stride, s.padding);
  const double C = static_cast<double>(s.channels), k2 = static_cast<double>(s.kernel * s.kernel);
  const double positions = static_cast<double>(c.out_height) * static_cast<double>(c.out_width);
  const double input = C * static_cast<double>(s.height) * static_cast<double>(s.width);
  check_elements(input, "the input image");
  check_elements(static_cast<double>(s.filters) * positions, "the output");
  check_elements(C * k2 * positions, "the unfolded matrix (channels·kernel² × output positions)");
  check_elements(static_cast<double>(s.filters) * C * k2, "the weights");
  c.patch = s.channels * s.kernel * s.kernel;
  c.positions = c.out_height * c.out_width;
  c.flops = 2.0 * static_cast<double>(s.filters) * positions * C * k2;
  c.input_bytes = 4.0 * input;
  c.weight_bytes = 4.0 * static_cast<double>(s.filters) * C * k2;
  c.output_bytes = 4.0 * static_cast<double>(s.filters) * positions;
  c.col_bytes = 4.0 * C * k2 * positions;
  c.col_to_input = c.col_bytes / c.input_bytes;
  return c;
}

const std::vector<ConvMethod>& conv_methods() {
  static const std::vector<ConvMethod> methods = {
      {"direct",
       "the seven loops: each output sums its patch straight from the image (scalar; no copy, "
       "no extra memory)"},
      {"im2col",
       "im2col copies every patch into a column of a (C·k·k) × (Ho·Wo) matrix, then one "
       "matrix product with the weights (the layers' packed, vectorized matmul)"},
  };
  return methods;
}

std::vector<ConvShape> conv_plan(bool quick) {
  // {channels, height, width, filters, kernel, stride, padding}
  if (quick) return {{1, 28, 28, 8, 3, 1, 1}, {3, 32, 32, 16, 7, 1, 3}};
  return {
      {1, 28, 28, 8, 3, 1, 1},    // cnn_28's first convolution: patch 9
      {8, 14, 14, 16, 3, 1, 1},   // cnn_28's second: patch 72
      {16, 32, 32, 32, 3, 1, 1},  // patch 144
      {32, 56, 56, 64, 3, 1, 1},  // patch 288, 58 M multiply-adds
      {3, 64, 64, 16, 7, 1, 3},   // a 7×7 kernel: the unfolded matrix is 49× the image
  };
}

ConvMeasurement measure_conv(std::string_view method, const ConvShape& shape,
                             const TimerOptions& options, Clock& clock) {
  const auto& methods = conv_methods();
  if (std::none_of(methods.begin(), methods.end(),
                   [&](const ConvMethod& m) { return m.name == method; })) {
    throw ValueError("unknown convolution method " + describe(json(std::string(method))) +
                     "; the methods are " + methods_text());
  }
  const ConvCounts c = conv_counts(shape);
  const double madds = c.flops / 2.0;
  if (madds > kMaxConvMultiplyAdds) {
    throw ValueError("this convolution takes " + format_number(madds, 17) +
                     " multiply-adds (filters × output positions × channels × kernel²); at "
                     "most " + format_number(kMaxConvMultiplyAdds, 17) +
                     " are allowed, so that the direct loops finish a call in about a second");
  }
  options.validate();
  check_call_fits_budget(c.flops, "one " + std::string(method) + " convolution", options);

  const Tensor x = Tensor::random({shape.channels, shape.height, shape.width}, 1);
  const Tensor w = Tensor::random({shape.filters, c.patch}, 2);
  ConvMeasurement m;
  m.method = std::string(method);
  m.shape = shape;
  m.counts = c;
  {
    MemorySession session;
    const Tensor y = run_method(method, x, w, shape, c);
    m.peak_bytes = static_cast<double>(session.snapshot().peak_bytes);
    // Verified before it is timed: float sums of `patch` products of values in [-1, 1].
    const std::vector<double> ref = reference(x.data(), w.data(), shape, c);
    const double tolerance = 1e-5 * static_cast<double>(c.patch) + 1e-6;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if (std::abs(static_cast<double>(y.data()[i]) - ref[i]) > tolerance) {
        throw Error("the " + m.method + " convolution gave " + format_number(y.data()[i], 9) +
                    " at output " + std::to_string(i) + " where the double-precision reference "
                    "gives " + format_number(ref[i], 9));
      }
    }
  }
  m.stats = Timer(clock).options(options).run([&] { (void)run_method(method, x, w, shape, c); });
  m.gflops_per_s = m.stats.median_ms > 0 ? c.flops / (m.stats.median_ms * 1e6) : 0;
  return m;
}

Tensor im2col(const Tensor& x, std::size_t kernel, std::size_t stride, std::size_t padding) {
  if (x.ndim() != 3) {
    throw ValueError("im2col takes one image of shape (C, H, W), got shape " +
                     shape_to_string(x.shape()));
  }
  const ConvShape s{x.dim(0), x.dim(1), x.dim(2), 1, kernel, stride, padding};
  const ConvCounts c = conv_counts(s);
  Tensor col({c.patch, c.positions});
  im2col(col.data(), x.data(), s.channels, s.height, s.width, kernel, stride, padding);
  return col;
}

Tensor col2im(const Tensor& col, const Shape& image_shape, std::size_t kernel, std::size_t stride,
              std::size_t padding) {
  if (image_shape.size() != 3) {
    throw ValueError("col2im's image shape must be (C, H, W), got " + shape_to_string(image_shape));
  }
  const ConvShape s{image_shape[0], image_shape[1], image_shape[2], 1, kernel, stride, padding};
  const ConvCounts c = conv_counts(s);
  const Shape expected{c.patch, c.positions};
  if (col.shape() != expected) {
    throw ValueError("col2im's matrix must have shape " + shape_to_string(expected) +
                     " (C·k·k, Ho·Wo) for an image " + shape_to_string(image_shape) +
                     " and kernel " + std::to_string(kernel) + ", got " +
                     shape_to_string(col.shape()));
  }
  Tensor dx(image_shape);
  col2im(dx.data(), col.data(), s.channels, s.height, s.width, kernel, stride, padding);
  return dx;
}

json to_json(const ConvShape& s) {
  return {{"channels", s.channels}, {"height", s.height}, {"width", s.width},
          {"filters", s.filters},   {"kernel", s.kernel}, {"stride", s.stride},
          {"padding", s.padding}};
}

ConvShape conv_shape_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) {
    throw ValueError(where + " must be an object {channels, height, width, filters, kernel, "
                     "stride, padding}, got " + describe(j));
  }
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    if (key != "channels" && key != "height" && key != "width" && key != "filters" &&
        key != "kernel" && key != "stride" && key != "padding") {
      throw ValueError(where + "." + key + " is not a field of a convolution shape; the fields "
                       "are channels, height, width, filters, kernel, stride, padding");
    }
  }
  ConvShape s;
  s.channels = whole_field(j, where, "channels", 1);
  s.height = whole_field(j, where, "height", 1);
  s.width = whole_field(j, where, "width", 1);
  s.filters = whole_field(j, where, "filters", 1);
  s.kernel = whole_field(j, where, "kernel", 1);
  s.stride = whole_field(j, where, "stride", 1);
  s.padding = whole_field(j, where, "padding", 0);
  return s;
}

json to_json(const ConvMeasurement& m) {
  const ConvCounts& c = m.counts;
  return {{"method", m.method},
          {"shape", to_json(m.shape)},
          {"out_height", c.out_height},
          {"out_width", c.out_width},
          {"patch", c.patch},
          {"positions", c.positions},
          {"flops", c.flops},
          {"input_bytes", c.input_bytes},
          {"weight_bytes", c.weight_bytes},
          {"output_bytes", c.output_bytes},
          {"col_bytes", c.col_bytes},
          {"col_to_input", c.col_to_input},
          {"peak_bytes", m.peak_bytes},
          {"gflops_per_s", m.gflops_per_s},
          {"stats", to_json(m.stats)}};
}

}  // namespace perflab
