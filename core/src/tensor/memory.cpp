// The tracking allocator behind every Tensor, and tracemalloc-style sessions over it.
// Accounting counts the bytes asked for (what a student computes by hand: elements × 4),
// not the 16-byte rounding the system allocator sees.
// Not for: tracking std::vector or other heap use, or use from several threads.
#include "perflab/tensor/memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>

#include "perflab/base/error.hpp"

namespace perflab {

MemoryTracker& MemoryTracker::global() {
  static MemoryTracker tracker;
  return tracker;
}

void* MemoryTracker::allocate(std::size_t bytes) {
  const auto refuse = [&](const std::string& reason) {
    throw AllocationError("cannot allocate " + format_bytes(bytes) + " for a tensor: " + reason +
                          "; use smaller sizes");
  };
  if (cap_bytes_ != 0 && (bytes > cap_bytes_ || current_bytes_ > cap_bytes_ - bytes)) {
    refuse("the lab's memory cap is " + format_bytes(cap_bytes_) + " and " +
           format_bytes(current_bytes_) + " is in use");
  }
  if (bytes > std::numeric_limits<std::size_t>::max() - kTensorAlignment) {
    refuse("the size does not fit this build's address space");
  }
  // aligned_alloc wants a size that is a multiple of the alignment; a 0-byte request gets
  // one block so the pointer is valid and unique.
  std::size_t rounded = (bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
  if (rounded == 0) rounded = kTensorAlignment;
  void* p = std::aligned_alloc(kTensorAlignment, rounded);
  if (p == nullptr) {
    refuse("the system allocator refused (in the browser, WebAssembly memory could not grow) and " +
           format_bytes(current_bytes_) + " is in use");
  }
  current_bytes_ += bytes;
  if (current_bytes_ > peak_bytes_) peak_bytes_ = current_bytes_;
  ++allocation_count_;
  return p;
}

void MemoryTracker::deallocate(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  std::free(p);
  // Guard against a caller passing a wrong size: never wrap below zero.
  current_bytes_ = bytes > current_bytes_ ? 0 : current_bytes_ - bytes;
  ++deallocation_count_;
}

void MemoryTracker::start() {
  if (tracing_) {
    throw ValueError("a memory session is already running and sessions do not nest; "
                     "stop it before starting another");
  }
  tracing_ = true;
  baseline_bytes_ = current_bytes_;
  baseline_allocations_ = allocation_count_;
  baseline_deallocations_ = deallocation_count_;
  peak_bytes_ = current_bytes_;
}

MemorySnapshot MemoryTracker::snapshot() const {
  // Outside a session the baselines are zero, so this reports absolute numbers.
  MemorySnapshot s;
  s.current_bytes = current_bytes_ > baseline_bytes_ ? current_bytes_ - baseline_bytes_ : 0;
  s.peak_bytes = peak_bytes_ > baseline_bytes_ ? peak_bytes_ - baseline_bytes_ : 0;
  s.allocation_count = allocation_count_ - baseline_allocations_;
  s.deallocation_count = deallocation_count_ - baseline_deallocations_;
  return s;
}

MemorySnapshot MemoryTracker::stop() {
  if (!tracing_) {
    throw ValueError("no memory session is running; call start() before stop()");
  }
  const MemorySnapshot final_snapshot = snapshot();
  tracing_ = false;
  baseline_bytes_ = 0;
  baseline_allocations_ = 0;
  baseline_deallocations_ = 0;
  return final_snapshot;
}

MemorySession::MemorySession(MemoryTracker& tracker) : tracker_(tracker) { tracker_.start(); }

MemorySession::~MemorySession() {
  if (!active_) return;
  try {
    tracker_.stop();
  } catch (const Error&) {
    // Someone stopped the tracker behind this session's back; nothing left to do.
  }
}

MemorySnapshot MemorySession::snapshot() const { return tracker_.snapshot(); }

MemorySnapshot MemorySession::stop() {
  if (!active_) {
    throw ValueError("this memory session was already stopped");
  }
  active_ = false;
  return tracker_.stop();
}

std::string format_bytes(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  // Move up a unit when one decimal would print 1024.0 or more.
  while (value >= 1023.95 && unit + 1 < sizeof(units) / sizeof(units[0])) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f %s", value, units[unit]);
  return buf;
}

}  // namespace perflab
