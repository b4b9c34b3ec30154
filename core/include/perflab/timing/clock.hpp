// Clock: the only platform seam besides the SIMD header. Native builds use steady_clock;
// the wasm bindings install a clock backed by emscripten_get_now() (performance.now());
// tests use FakeClock so timing statistics are deterministic.
#pragma once

#include <chrono>

namespace perflab {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double now_ms() = 0;
  virtual const char* name() const = 0;
};

class SteadyClock final : public Clock {
 public:
  double now_ms() override {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
  }
  const char* name() const override { return "steady_clock"; }
};

// A clock the test controls. now_ms() returns the current time rounded down to a
// multiple of resolution_ms (0: no rounding), then advances by read_cost_ms, so
// resolution measurement terminates and behaves like a coarse browser timer.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(double resolution_ms = 0.0, double read_cost_ms = 0.0)
      : resolution_ms_(resolution_ms), read_cost_ms_(read_cost_ms) {}
  double now_ms() override;
  const char* name() const override { return "fake"; }
  void advance(double ms) { t_ms_ += ms; }
  double raw_ms() const { return t_ms_; }
  long reads() const { return reads_; }

 private:
  double t_ms_ = 0.0;
  double resolution_ms_;
  double read_cost_ms_;
  long reads_ = 0;
};

// The clock used when none is given. Starts as a SteadyClock; set_default_clock lets the
// wasm bindings swap in performance.now(). The pointer is not owned.
Clock& default_clock();
void set_default_clock(Clock* clock);

}  // namespace perflab
