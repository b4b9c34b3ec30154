// Tensor: float32, row-major, contiguous, 16-byte aligned, storage from the tracking
// allocator. Shapes always include the batch dimension. Conventions used across core:
//   images    (N, C, H, W)
//   sequences (B, T, D)
//   matrices  (M, K) @ (K, N) -> (M, N), batched as (..., M, K) @ (..., K, N)
// Strides are implicit: element (i0, ..., in) lives at ((i0 * d1 + i1) * d2 + ...) * dn + in.
// Not for: views, strided slices or autograd; layers keep their own caches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace perflab {

using Shape = std::vector<std::size_t>;

// "(2, 3, 4)"; "()" for a scalar shape.
std::string shape_to_string(const Shape& shape);

// Product of the dimensions; throws ValueError on overflow of size_t (checked, because
// shapes come from students).
std::size_t shape_numel(const Shape& shape);

class Tensor {
 public:
  Tensor();                     // empty: shape (0), no storage
  explicit Tensor(Shape shape);  // zero-filled
  Tensor(Shape shape, const std::vector<float>& values);  // values.size() must equal numel

  static Tensor zeros(Shape shape) { return Tensor(std::move(shape)); }
  static Tensor full(Shape shape, float value);
  // Uniform in [lo, hi) from a fixed-seed generator: the same seed gives the same tensor
  // natively and in wasm.
  static Tensor random(Shape shape, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

  Tensor(const Tensor& other);  // deep copy (tracked)
  Tensor& operator=(const Tensor& other);
  // Moves leave the source as Tensor() (shape (0), size 0), never a size without storage.
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(Tensor&& other) noexcept;
  ~Tensor() = default;

  const Shape& shape() const { return shape_; }
  std::size_t ndim() const { return shape_.size(); }
  std::size_t size() const { return size_; }  // number of elements
  std::size_t bytes() const { return size_ * sizeof(float); }
  // dim(-1) is the last dimension; throws ValueError when out of range.
  std::size_t dim(int axis) const;

  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  float& operator[](std::size_t i) { return data_.get()[i]; }
  float operator[](std::size_t i) const { return data_.get()[i]; }

  std::vector<float> to_vector() const;
  // Same data, new shape with the same number of elements; throws ShapeError otherwise.
  Tensor reshaped(Shape shape) const;

 private:
  // Constructors instead of a default member initializer: GCC treats a nested class with
  // one as not default-constructible inside the enclosing class (GCC bug 96645).
  struct Deleter {
    Deleter() noexcept : bytes(0) {}
    explicit Deleter(std::size_t n_bytes) noexcept : bytes(n_bytes) {}
    std::size_t bytes;
    void operator()(float* p) const noexcept;
  };
  using Storage = std::unique_ptr<float[], Deleter>;
  // Zero-filled, tracked storage for n floats; empty for n == 0.
  static Storage allocate_storage(std::size_t n, const Shape& shape);
  Shape shape_;
  std::size_t size_ = 0;
  Storage data_;
};

}  // namespace perflab
