// The training loss: softmax cross-entropy fused with its gradient, over the logits of a
// classifier (N, classes) and integer labels. Numerically stable: log-sum-exp with the row
// maximum subtracted, so logits of ±1e4 give finite losses. Not for: soft or smoothed labels,
// per-sample weights, or a Softmax layer before it (the loss takes raw logits).
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

// FLOPs per row of the loss, for plans: softmax (5 per logit, layers.hpp's table) and the
// gradient (subtract the one-hot and divide by N: 2 per logit).
inline constexpr double kCrossEntropyForwardPerLogit = 5, kCrossEntropyBackwardPerLogit = 2;

}  // namespace perflab
