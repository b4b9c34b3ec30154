// What every kernel family shares: a variant's name and description (KernelInfo) and the
// FLOPs and bytes one call moves (OpCost), declared beside each kernel (cost_matmul in
// matmul.hpp, cost_gelu_* in elementwise.hpp, ...). kernels/ is the bottom of the two
// measuring folders: it includes nothing from roofline/, which places these counts against a
// machine's roofs (the counts are facts of the kernels; the roofs are facts of the machine).
// Header only: two plain structs, no functions.
#pragma once

#include <string>

namespace perflab {

// Name and one-sentence description of a variant, for lists whose kernels have varying
// signatures (sum, softmax, LayerNorm) and are dispatched by name.
struct KernelInfo {
  std::string name;
  std::string description;
};

// FLOPs and bytes moved by one call of a kernel: the ideal traffic, each operand read once
// and each output written once, in float32 (4 bytes). The real traffic is at least this
// (caches that are too small re-read operands); tensors' zero-fill on allocation and the
// write-allocate reads of outputs are not counted. Units: counts (the roofline's intensity
// is flops / bytes, roofline/roofline.hpp).
struct OpCost {
  double flops = 0;
  double bytes = 0;
};

}  // namespace perflab
