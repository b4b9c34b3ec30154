// Tracking allocator and tracemalloc-style sessions. Every Tensor allocates through
// MemoryTracker::global(), so current/peak bytes are exact for tensor storage (not for
// std::vector or other heap use, which the lab does not teach about).
// Single-threaded by design: the lab worker and the tests run on one thread.
#pragma once

#include <cstddef>
#include <string>

namespace perflab {

inline constexpr std::size_t kTensorAlignment = 16;  // one 128-bit SIMD register

// The tensor cap the native CLI sets (the wasm build sets its own, 768 MiB, below the module's
// 1 GiB): 4 GiB, so a spec whose activations need 16 GiB is refused before it allocates
// instead of running until the system kills it. The CLI reads PERFLAB_TENSOR_CAP_MIB to
// change it. 64-bit, as it does not fit a wasm32 size_t.
inline constexpr unsigned long long kNativeTensorCapBytes = 4ULL << 30;

struct MemorySnapshot {
  std::size_t current_bytes = 0;     // live bytes now, above the session baseline (may be < 0 → 0)
  std::size_t peak_bytes = 0;        // highest live bytes seen since start(), above the baseline
  std::size_t allocation_count = 0;  // allocations since start()
  std::size_t deallocation_count = 0;
};

class MemoryTracker {
 public:
  // The process-wide tracker that Tensor uses.
  static MemoryTracker& global();

  // 16-byte aligned storage. Throws AllocationError when current + bytes would exceed the
  // cap, or when the system allocator fails (wasm: memory cannot grow further).
  void* allocate(std::size_t bytes);
  void deallocate(void* p, std::size_t bytes) noexcept;

  std::size_t current_bytes() const { return current_bytes_; }
  std::size_t peak_bytes() const { return peak_bytes_; }  // since construction or start()
  std::size_t allocation_count() const { return allocation_count_; }

  // 0 means no cap. The wasm build sets one below the module's maximum memory.
  void set_cap_bytes(std::size_t cap) { cap_bytes_ = cap; }
  std::size_t cap_bytes() const { return cap_bytes_; }

  // Sessions, as tracemalloc.start() / take_snapshot() / stop(): start() records the
  // current bytes as the baseline and resets the peak; snapshot() reports relative to
  // the baseline; stop() returns the final snapshot. Sessions do not nest.
  void start();
  MemorySnapshot snapshot() const;
  MemorySnapshot stop();
  bool tracing() const { return tracing_; }

 private:
  std::size_t current_bytes_ = 0;
  std::size_t peak_bytes_ = 0;
  std::size_t allocation_count_ = 0;
  std::size_t deallocation_count_ = 0;
  std::size_t cap_bytes_ = 0;
  bool tracing_ = false;
  std::size_t baseline_bytes_ = 0;
  std::size_t baseline_allocations_ = 0;
  std::size_t baseline_deallocations_ = 0;
};

// RAII session: starts on construction, stops on destruction (or at stop()).
class MemorySession {
 public:
  explicit MemorySession(MemoryTracker& tracker = MemoryTracker::global());
  ~MemorySession();
  MemorySession(const MemorySession&) = delete;
  MemorySession& operator=(const MemorySession&) = delete;
  MemorySnapshot snapshot() const;
  MemorySnapshot stop();

 private:
  MemoryTracker& tracker_;
  bool active_ = true;
};

// "1.5 MiB", "512 B": for messages.
std::string format_bytes(std::size_t bytes);

}  // namespace perflab
