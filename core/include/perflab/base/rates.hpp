// Work over time, in the lab's units: GFLOP/s (10^9 FLOP/s) and GB/s (10^9 bytes/s) from a
// count and a time in milliseconds, and counts per second. Every rate in core comes from
// here, so "flops / (ms · 10^6)" is written once. A time that is not positive (a coarse
// clock's zero, a run that did not happen) gives a rate of 0, never a division by zero.
// Not for: choosing which time to divide by (the median for kernels, the fastest sample
// for the probe's roofs: the caller decides).
#pragma once

namespace perflab {

// flops / (ms · 10^6): FLOPs per millisecond / 10^6 = GFLOP/s.
inline double gflops_per_s(double flops, double ms) { return ms > 0 ? flops / (ms * 1e6) : 0.0; }
// bytes / (ms · 10^6) = GB/s.
inline double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }
// count / (ms / 1000): samples per second and the like.
inline double per_second(double count, double ms) { return ms > 0 ? count / (ms * 1e-3) : 0.0; }
// ms · 10^6 / count: nanoseconds per element; 0 when count is not positive.
inline double ns_per(double ms, double count) { return count > 0 ? ms * 1e6 / count : 0.0; }

}  // namespace perflab
