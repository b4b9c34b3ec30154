// Protects the lab's memory numbers: the tracker counts exactly the bytes tensors ask for,
// sessions report relative to their baseline like tracemalloc, the cap refuses with a
// message a student can act on, and storage is 16-byte aligned for SIMD loads.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/tensor/tensor.hpp"

using namespace perflab;

namespace {
constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;
constexpr std::size_t kGiB = 1024 * kMiB;
}  // namespace

TEST_CASE("format_bytes prints bytes below 1 KiB and one decimal in binary units above") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1023) == "1023 B");
  CHECK(format_bytes(1024) == "1.0 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(12 * kMiB) == "12.0 MiB");
  CHECK(format_bytes(kGiB) == "1.0 GiB");
  CHECK(format_bytes(kGiB + kGiB / 2) == "1.5 GiB");
  // Just under 1 MiB would print "1024.0 KiB"; it moves up a unit instead.
  CHECK(format_bytes(kMiB - 1) == "1.0 MiB");
}

TEST_CASE("the memory tracker counts current and peak bytes and allocations exactly") {
  MemoryTracker tracker;
  void* a = tracker.allocate(100);
  void* b = tracker.allocate(300);
  CHECK(tracker.current_bytes() == 400);
  CHECK(tracker.peak_bytes() == 400);
  CHECK(tracker.allocation_count() == 2);
  tracker.deallocate(a, 100);
  CHECK(tracker.current_bytes() == 300);
  CHECK(tracker.peak_bytes() == 400);
  void* c = tracker.allocate(50);
  CHECK(tracker.current_bytes() == 350);
  CHECK(tracker.peak_bytes() == 400);
  tracker.deallocate(b, 300);
  tracker.deallocate(c, 50);
  CHECK(tracker.current_bytes() == 0);
  CHECK(tracker.peak_bytes() == 400);
  CHECK(tracker.allocation_count() == 3);
}

TEST_CASE("allocations are 16-byte aligned whatever the requested size") {
  MemoryTracker tracker;
  for (std::size_t bytes : {1u, 4u, 12u, 16u, 17u, 100u, 4096u}) {
    CAPTURE(bytes);
    void* p = tracker.allocate(bytes);
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % kTensorAlignment == 0);
    tracker.deallocate(p, bytes);
  }
}

TEST_CASE("a zero-byte allocation returns a valid unique pointer and counts no bytes") {
  MemoryTracker tracker;
  void* a = tracker.allocate(0);
  void* b = tracker.allocate(0);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a != b);
  CHECK(tracker.current_bytes() == 0);
  CHECK(tracker.allocation_count() == 2);
  tracker.deallocate(a, 0);
  tracker.deallocate(b, 0);
}

TEST_CASE("an allocation over the cap is refused with the sizes and the remedy") {
  MemoryTracker tracker;
  tracker.set_cap_bytes(kGiB);
  void* in_use = tracker.allocate(12 * kMiB);
  CHECK_THROWS_WITH_AS(tracker.allocate(kGiB + kGiB / 2),
                       "cannot allocate 1.5 GiB for a tensor: the lab's memory cap is 1.0 GiB and "
                       "12.0 MiB is in use; use smaller sizes",
                       AllocationError);
  // A refused allocation changes nothing.
  CHECK(tracker.current_bytes() == 12 * kMiB);
  CHECK(tracker.allocation_count() == 1);
  tracker.deallocate(in_use, 12 * kMiB);
}

TEST_CASE("allocations may fill the cap exactly but not pass it") {
  MemoryTracker tracker;
  tracker.set_cap_bytes(1000);
  void* a = tracker.allocate(600);
  CHECK_THROWS_WITH_AS(tracker.allocate(401),
                       "cannot allocate 401 B for a tensor: the lab's memory cap is 1000 B and "
                       "600 B is in use; use smaller sizes",
                       AllocationError);
  void* b = tracker.allocate(400);
  CHECK(tracker.current_bytes() == 1000);
  CHECK_THROWS_AS(tracker.allocate(1), AllocationError);
  tracker.deallocate(b, 400);
  tracker.deallocate(a, 600);
}

TEST_CASE("an allocation the system cannot satisfy is an AllocationError, not a crash") {
  MemoryTracker tracker;  // no cap: the system allocator is what refuses
  const std::size_t huge_bytes = std::numeric_limits<std::size_t>::max() / 2;
  const std::string expected = "cannot allocate " + format_bytes(huge_bytes) +
                               " for a tensor: the system allocator refused (in the browser, "
                               "WebAssembly memory could not grow) and 0 B is in use; use "
                               "smaller sizes";
  CHECK_THROWS_WITH_AS(tracker.allocate(huge_bytes), expected.c_str(), AllocationError);
  CHECK(tracker.current_bytes() == 0);
  CHECK(tracker.allocation_count() == 0);
}

TEST_CASE("a memory session reports bytes and counts relative to its start") {
  MemoryTracker tracker;
  void* before = tracker.allocate(1000);
  tracker.start();
  CHECK(tracker.tracing());
  MemorySnapshot s = tracker.snapshot();
  CHECK(s.current_bytes == 0);
  CHECK(s.peak_bytes == 0);
  CHECK(s.allocation_count == 0);

  void* a = tracker.allocate(200);
  void* b = tracker.allocate(300);
  tracker.deallocate(a, 200);
  s = tracker.snapshot();
  CHECK(s.current_bytes == 300);
  CHECK(s.peak_bytes == 500);
  CHECK(s.allocation_count == 2);
  CHECK(s.deallocation_count == 1);

  // Freeing what existed before the session goes below the baseline: reported as 0.
  tracker.deallocate(before, 1000);
  CHECK(tracker.snapshot().current_bytes == 0);

  s = tracker.stop();
  CHECK_FALSE(tracker.tracing());
  CHECK(s.peak_bytes == 500);
  CHECK(s.allocation_count == 2);
  CHECK(s.deallocation_count == 2);
  tracker.deallocate(b, 300);
}

TEST_CASE("starting a session resets the peak to the current bytes") {
  MemoryTracker tracker;
  void* big = tracker.allocate(10000);
  tracker.deallocate(big, 10000);
  CHECK(tracker.peak_bytes() == 10000);
  tracker.start();
  CHECK(tracker.peak_bytes() == 0);
  void* small = tracker.allocate(10);
  CHECK(tracker.stop().peak_bytes == 10);
  tracker.deallocate(small, 10);
}

TEST_CASE("sessions do not nest and stop needs a running session") {
  MemoryTracker tracker;
  CHECK_THROWS_WITH_AS(tracker.stop(), "no memory session is running; call start() before stop()",
                       ValueError);
  tracker.start();
  CHECK_THROWS_WITH_AS(tracker.start(),
                       "a memory session is already running and sessions do not nest; stop it "
                       "before starting another",
                       ValueError);
  tracker.stop();
}

TEST_CASE("a MemorySession starts on construction and stops on destruction") {
  MemoryTracker tracker;
  {
    MemorySession session(tracker);
    CHECK(tracker.tracing());
    void* p = tracker.allocate(64);
    CHECK(session.snapshot().current_bytes == 64);
    tracker.deallocate(p, 64);
  }
  CHECK_FALSE(tracker.tracing());

  MemorySession session(tracker);
  void* p = tracker.allocate(32);
  const MemorySnapshot s = session.stop();
  CHECK(s.peak_bytes == 32);
  CHECK_FALSE(tracker.tracing());
  CHECK_THROWS_WITH_AS(session.stop(), "this memory session was already stopped", ValueError);
  tracker.deallocate(p, 32);
}

TEST_CASE("tensors allocate through the global tracker, four bytes per element") {
  MemorySession session;  // the global tracker
  {
    Tensor a({2, 3});  // 24 bytes
    Tensor b({4, 4});  // 64 bytes
    MemorySnapshot s = session.snapshot();
    CHECK(s.current_bytes == 88);
    CHECK(s.allocation_count == 2);
    {
      Tensor c = a;  // deep copy: tracked too
      CHECK(session.snapshot().current_bytes == 112);
    }
    CHECK(session.snapshot().current_bytes == 88);
    CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % kTensorAlignment == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % kTensorAlignment == 0);
    Tensor moved = std::move(b);  // a move allocates nothing
    CHECK(session.snapshot().allocation_count == 3);
  }
  const MemorySnapshot s = session.stop();
  CHECK(s.current_bytes == 0);
  CHECK(s.peak_bytes == 112);
  CHECK(s.allocation_count == 3);
  CHECK(s.deallocation_count == 3);
}

TEST_CASE("a tensor over the global cap is refused and leaves the tracker unchanged") {
  MemoryTracker& tracker = MemoryTracker::global();
  // Restores the cap even if a check throws, so later cases see the usual tracker.
  struct CapGuard {
    MemoryTracker& tracker;
    std::size_t old_cap = tracker.cap_bytes();
    ~CapGuard() { tracker.set_cap_bytes(old_cap); }
  } guard{tracker};
  const std::size_t before_bytes = tracker.current_bytes();
  tracker.set_cap_bytes(before_bytes + 1000);
  CHECK_THROWS_AS(Tensor({500}), AllocationError);  // 2000 bytes
  CHECK(tracker.current_bytes() == before_bytes);
  Tensor fits({250});  // exactly 1000 bytes
  CHECK(tracker.current_bytes() == before_bytes + 1000);
}
