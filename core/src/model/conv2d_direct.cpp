// Conv2d's two paths besides im2col + gemm (layers.hpp, above Conv2d, has the rule and the
// measurements behind it): the register-blocked direct convolution for stride 1 and small
// patches, and the padded copy it reads. Not for: choosing the path (Conv2d does) or strided
// and large-patch convolutions (im2col + the packed matmul is faster there).
#include <algorithm>
#include <cstddef>

#include "layers_detail.hpp"
#include "perflab/detail/simd.hpp"

namespace perflab::detail {

namespace {

// Output channels [f, f + 4) at columns [ow, ow + 4·V) of output row oh accumulate in 4·V
// vector registers over the whole patch: per patch entry V loads of the input row feed 4·V
// multiply-adds, where im2col would first copy the patch entry out.
template <int V>
void direct_block(float* y, const float* xp, const float* w, std::size_t C, std::size_t Hp,
                  std::size_t Wp, std::size_t k, std::size_t plane, std::size_t Wo, std::size_t f,
                  std::size_t oh, std::size_t ow) {
  const std::size_t patch = C * k * k;
  const float* w0 = w + f * patch;
  f32x4 acc[4][V];
  for (auto& row : acc)
    for (auto& a : row) a = splat(0.0f);
  std::size_t q = 0;
  for (std::size_t c = 0; c < C; ++c) {
    for (std::size_t i = 0; i < k; ++i) {
      const float* xr = xp + (c * Hp + oh + i) * Wp + ow;
      for (std::size_t j = 0; j < k; ++j, ++q) {
        f32x4 xv[V];
        for (int v = 0; v < V; ++v) xv[v] = loadu(xr + j + 4 * v);
        for (int r = 0; r < 4; ++r) {
          const f32x4 b = splat(w0[r * patch + q]);
          for (int v = 0; v < V; ++v) acc[r][v] = fmadd(b, xv[v], acc[r][v]);
        }
      }
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int v = 0; v < V; ++v) storeu(y + (f + r) * plane + oh * Wo + ow + 4 * v, acc[r][v]);
}

// One output element: the remainder columns and channels.
float direct_one(const float* xp, const float* wf, std::size_t C, std::size_t Hp, std::size_t Wp,
                 std::size_t k, std::size_t oh, std::size_t ow) {
  float sum = 0.0f;
  std::size_t q = 0;
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j, ++q) sum += wf[q] * xp[(c * Hp + oh + i) * Wp + ow + j];
  return sum;
}

}  // namespace

void pad_image(float* xp, const float* x, std::size_t C, std::size_t H, std::size_t W,
               std::size_t padding) {
  const std::size_t Hp = H + 2 * padding, Wp = W + 2 * padding;
  std::fill(xp, xp + C * Hp * Wp, 0.0f);
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t h = 0; h < H; ++h)
      std::copy(x + (c * H + h) * W, x + (c * H + h + 1) * W,
                xp + (c * Hp + h + padding) * Wp + padding);
}

void conv_direct_stride1(float* y, const float* xp, const float* w, std::size_t C, std::size_t Hp,
                         std::size_t Wp, std::size_t F, std::size_t k) {
  const std::size_t Ho = Hp - k + 1, Wo = Wp - k + 1, patch = C * k * k, plane = Ho * Wo;
  std::size_t f = 0;
  for (; f + 4 <= F; f += 4) {
    for (std::size_t oh = 0; oh < Ho; ++oh) {
      std::size_t ow = 0;
      for (; ow + 8 <= Wo; ow += 8) direct_block<2>(y, xp, w, C, Hp, Wp, k, plane, Wo, f, oh, ow);
      for (; ow + 4 <= Wo; ow += 4) direct_block<1>(y, xp, w, C, Hp, Wp, k, plane, Wo, f, oh, ow);
      for (; ow < Wo; ++ow)
        for (std::size_t r = 0; r < 4; ++r)
          y[(f + r) * plane + oh * Wo + ow] = direct_one(xp, w + (f + r) * patch, C, Hp, Wp, k, oh, ow);
    }
  }
  for (; f < F; ++f)
    for (std::size_t oh = 0; oh < Ho; ++oh)
      for (std::size_t ow = 0; ow < Wo; ++ow)
        y[f * plane + oh * Wo + ow] = direct_one(xp, w + f * patch, C, Hp, Wp, k, oh, ow);
}

}  // namespace perflab::detail
