// Softmax cross-entropy and its gradient in one pass per row, in double where it sums: the
// row's log-sum-exp is m + log Σ exp(x − m) with m the row maximum, so no exp overflows.
// Not for: anything but integer-labelled classification.
#include "perflab/train/loss.hpp"

#include <algorithm>
#include <cmath>
#include <vector>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

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

LossResult distillation_loss(const Tensor& logits, const Tensor& teacher_logits,
                             std::span<const std::uint8_t> labels, double temperature,
                             double alpha) {
  if (!(temperature > 0 && temperature <= kMaxDistillationTemperature)) {
    throw ValueError("distillation temperature must be above 0 and at most " +
                     format_number(kMaxDistillationTemperature) +
                     " (1 is the teacher's own probabilities; 2 to 8 soften them), got " +
                     format_number(temperature));
  }
  if (!(alpha >= 0 && alpha <= 1)) {
    throw ValueError("distillation alpha must be between 0 and 1 (the weight of the teacher's "
                     "softened outputs; 1 - alpha goes to the labels), got " + format_number(alpha));
  }
  if (teacher_logits.shape() != logits.shape()) {
    throw ShapeError("distillation: the teacher's logits have shape " +
                     shape_to_string(teacher_logits.shape()) + ", the student's " +
                     shape_to_string(logits.shape()) + "; both must be (rows, classes)");
  }
  LossResult r = softmax_cross_entropy(logits, labels, true);
  if (alpha == 0) return r;
  const std::size_t N = logits.dim(0), C = logits.dim(1);
  const double inv_n = N > 0 ? 1.0 / static_cast<double>(N) : 0.0;
  // Softmax of a row divided by T, in double, with the row maximum subtracted.
  const auto softened = [&](const float* x, std::vector<double>& p) {
    double m = x[0];
    for (std::size_t c = 1; c < C; ++c) m = std::max(m, static_cast<double>(x[c]));
    double sum = 0;
    for (std::size_t c = 0; c < C; ++c) sum += (p[c] = std::exp((x[c] - m) / temperature));
    for (double& v : p) v /= sum;
  };
  std::vector<double> ps(C), pt(C);
  double soft = 0;
  for (std::size_t n = 0; n < N; ++n) {
    softened(logits.data() + n * C, ps);
    softened(teacher_logits.data() + n * C, pt);
    float* d = r.dlogits.data() + n * C;
    for (std::size_t c = 0; c < C; ++c) {
      // 0 · log 0 is 0: a class the teacher rules out adds nothing.
      if (pt[c] > 0) soft += pt[c] * (std::log(pt[c]) - std::log(std::max(ps[c], 1e-300)));
      d[c] = static_cast<float>((1 - alpha) * d[c] + alpha * temperature * (ps[c] - pt[c]) * inv_n);
    }
  }
  r.loss = (1 - alpha) * r.loss + alpha * temperature * temperature * soft * inv_n;
  return r;
}

}  // namespace perflab
