// Softmax cross-entropy and its gradient in one pass per row, in double where it sums: the
// row's log-sum-exp is m + log Σ exp(x − m) with m the row maximum, so no exp overflows.
// Not for: anything but integer-labelled classification.
#include "perflab/train/loss.hpp"

#include <cmath>
#include <string>

#include "perflab/base/error.hpp"

namespace perflab {

LossResult softmax_cross_entropy(const Tensor& logits, std::span<const std::uint8_t> labels,
                                 bool with_gradient) {
  if (logits.ndim() != 2) {
    throw ShapeError("softmax cross-entropy: logits must have shape (N, classes), got " +
                     shape_to_string(logits.shape()));
  }
  const std::size_t N = logits.dim(0), C = logits.dim(1);
  if (labels.size() != N) {
    throw ShapeError("softmax cross-entropy: " + std::to_string(labels.size()) +
                     " labels for " + std::to_string(N) + " rows of logits; give one label per row");
  }
  if (C == 0) throw ShapeError("softmax cross-entropy: logits have 0 classes, need at least 1");
  for (std::size_t n = 0; n < N; ++n) {
    if (labels[n] >= C) {
      throw ValueError("softmax cross-entropy: label " + std::to_string(labels[n]) + " of row " +
                       std::to_string(n) + " is not below the " + std::to_string(C) +
                       " classes of the logits");
    }
  }
  LossResult r;
  if (with_gradient) r.dlogits = Tensor(logits.shape());
  double total = 0;
  const double inv_n = N > 0 ? 1.0 / static_cast<double>(N) : 0.0;
  for (std::size_t n = 0; n < N; ++n) {
    const float* x = logits.data() + n * C;
    std::size_t best = 0;
    for (std::size_t c = 1; c < C; ++c) {
      if (x[c] > x[best]) best = c;
    }
    const double m = x[best];
    double sum = 0;
    for (std::size_t c = 0; c < C; ++c) sum += std::exp(static_cast<double>(x[c]) - m);
    const double log_sum = m + std::log(sum);
    total += log_sum - static_cast<double>(x[labels[n]]);
    if (best == labels[n]) ++r.correct;
    if (with_gradient) {
      float* d = r.dlogits.data() + n * C;
      for (std::size_t c = 0; c < C; ++c) {
        const double p = std::exp(static_cast<double>(x[c]) - log_sum);
        d[c] = static_cast<float>((p - (c == labels[n] ? 1.0 : 0.0)) * inv_n);
      }
    }
  }
  r.loss = total * inv_n;
  return r;
}

}  // namespace perflab
