// The training loss: softmax cross-entropy fused with its gradient, over the logits of a
// classifier (N, classes) and integer labels. Numerically stable: log-sum-exp with the row
// maximum subtracted, so logits of ±1e4 give finite losses. Also the distillation loss, which
// mixes it with a teacher's softened outputs. Not for: smoothed labels, per-sample weights,
// or a Softmax layer before it (the losses take raw logits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "perflab/tensor/tensor.hpp"

namespace perflab {

struct LossResult {
  double loss = 0;        // mean over the N rows of −log softmax(logits)[label]
  Tensor dlogits;         // (N, classes): d(mean loss)/d logits = (softmax − one_hot) / N
  std::size_t correct = 0;  // rows whose largest logit is the label's (ties: the first index)
};

// logits (N, classes), labels (N), each < classes. ShapeError when logits are not 2-D or the
// label count differs from N; ValueError for a label >= classes. NaN or infinite logits are
// not refused: the loss is then NaN or infinite, which the trainer turns into a sentence.
// with_gradient false leaves dlogits empty (evaluation).
LossResult softmax_cross_entropy(const Tensor& logits, std::span<const std::uint8_t> labels,
                                 bool with_gradient = true);

// Hinton, Vinyals and Dean's distillation loss ("Distilling the Knowledge in a Neural
// Network", 2015) over a student's logits s, a teacher's logits t for the same rows and the
// labels y, at temperature T and mixing weight α:
//   L = α · T² · KL(softmax(t/T) ‖ softmax(s/T)) + (1 − α) · CE(softmax(s), y), mean over rows;
//   dL/ds = [α · T · (softmax(s/T) − softmax(t/T)) + (1 − α) · (softmax(s) − one_hot(y))] / N.
// T² keeps the soft term's gradient the same size as the hard one's whatever T (softened
// probabilities differ by about 1/T, and the gradient of s/T carries another 1/T). α = 0 is
// training on labels alone (the same numbers as softmax_cross_entropy); correct counts the
// student's argmax against the labels. ShapeError when the teacher's logits are not the
// student's shape, and softmax_cross_entropy's refusals; ValueError for T outside (0, 100] or
// α outside [0, 1].
inline constexpr double kMaxDistillationTemperature = 100;
LossResult distillation_loss(const Tensor& logits, const Tensor& teacher_logits,
                             std::span<const std::uint8_t> labels, double temperature,
                             double alpha);

// FLOPs per row of the loss, for plans: softmax (5 per logit, layers.hpp's table) and the
// gradient (subtract the one-hot and divide by N: 2 per logit).
inline constexpr double kCrossEntropyForwardPerLogit = 5, kCrossEntropyBackwardPerLogit = 2;

}  // namespace perflab
