// Tensor storage and construction: every byte comes from MemoryTracker::global() so the
// lab's memory numbers are exact. Shapes come from students, so sizes are checked.
// Not for: arithmetic (kernels.cpp) or views/strides (tensors are always contiguous).
#include "perflab/tensor/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/base/random.hpp"

namespace perflab {

std::string shape_to_string(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + ")";
}

std::size_t shape_numel(const Shape& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) {
    if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d) {
      // A zero later in the shape would make the product 0, but such a shape is
      // meaningless anyway; reject it rather than special-case it.
      throw ValueError("shape " + shape_to_string(shape) +
                       " has more elements than this build can address");
    }
    n *= d;
  }
  return n;
}

void Tensor::Deleter::operator()(float* p) const noexcept {
  MemoryTracker::global().deallocate(p, bytes);
}

Tensor::Storage Tensor::allocate_storage(std::size_t n, const Shape& shape) {
  if (n == 0) return Storage();
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(float)) {
    throw ValueError("shape " + shape_to_string(shape) +
                     " has more elements than this build can address");
  }
  const std::size_t bytes = n * sizeof(float);
  auto* p = static_cast<float*>(MemoryTracker::global().allocate(bytes));
  std::memset(p, 0, bytes);
  return Storage(p, Deleter(bytes));
}

Tensor::Tensor() : shape_{0} {}

Tensor::Tensor(Shape shape)
    : shape_(std::move(shape)),
      size_(shape_numel(shape_)),
      data_(allocate_storage(size_, shape_)) {}

Tensor::Tensor(Shape shape, const std::vector<float>& values) : shape_(std::move(shape)) {
  size_ = shape_numel(shape_);
  if (values.size() != size_) {
    throw ShapeError("shape " + shape_to_string(shape_) + " has " + std::to_string(size_) +
                     " elements but " + std::to_string(values.size()) + " values were given");
  }
  data_ = allocate_storage(size_, shape_);
  std::copy(values.begin(), values.end(), data_.get());
}

Tensor Tensor::full(Shape shape, float value) {
  Tensor t(std::move(shape));
  std::fill(t.data(), t.data() + t.size(), value);
  return t;
}

Tensor Tensor::random(Shape shape, std::uint64_t seed, float lo, float hi) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) {
    throw ValueError("random tensors need finite lo < hi, got lo " + std::to_string(lo) +
                     " and hi " + std::to_string(hi));
  }
  Tensor t(std::move(shape));
  Rng rng(seed);
  // Rounding the double to float can land on hi itself; keep the interval half-open.
  const float below_hi = std::nextafter(hi, lo);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto v = static_cast<float>(rng.uniform(lo, hi));
    t.data_[i] = v < hi ? v : below_hi;
  }
  return t;
}

Tensor::Tensor(const Tensor& other)
    : shape_(other.shape_), size_(other.size_), data_(allocate_storage(size_, shape_)) {
  if (size_ > 0) std::copy(other.data(), other.data() + size_, data_.get());
}

Tensor& Tensor::operator=(const Tensor& other) {
  if (this != &other) {
    Tensor copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Tensor::Tensor(Tensor&& other) noexcept
    : shape_(std::exchange(other.shape_, Shape{0})),
      size_(std::exchange(other.size_, 0)),
      data_(std::move(other.data_)) {}

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this != &other) {
    shape_ = std::exchange(other.shape_, Shape{0});
    size_ = std::exchange(other.size_, 0);
    data_ = std::move(other.data_);
  }
  return *this;
}

std::size_t Tensor::dim(int axis) const {
  const auto n = static_cast<long long>(shape_.size());
  const long long i = axis < 0 ? axis + n : axis;
  if (i < 0 || i >= n) {
    throw ValueError("axis " + std::to_string(axis) + " is out of range for shape " +
                     shape_to_string(shape_) +
                     (n == 0 ? std::string(": it has no axes")
                             : ": allowed " + std::to_string(-n) + " to " + std::to_string(n - 1)));
  }
  return shape_[static_cast<std::size_t>(i)];
}

std::vector<float> Tensor::to_vector() const {
  if (size_ == 0) return {};
  return std::vector<float>(data(), data() + size_);
}

Tensor Tensor::reshaped(Shape shape) const {
  const std::size_t n = shape_numel(shape);
  if (n != size_) {
    throw ShapeError("cannot reshape " + shape_to_string(shape_) + " (" + std::to_string(size_) +
                     " elements) to " + shape_to_string(shape) + " (" + std::to_string(n) +
                     " elements)");
  }
  Tensor t(*this);
  t.shape_ = std::move(shape);
  return t;
}

}  // namespace perflab
