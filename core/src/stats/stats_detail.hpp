// Helpers the statistics files share: argument checks whose messages name the argument, the
// index and the value; number formatting for messages and verdict sentences; medians of
// scratch buffers; and a seeded resampler. Private to core/src/stats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/math/policies/policy.hpp>

#include "perflab/base/random.hpp"

namespace perflab::detail {

// Boost.Math's policy for every distribution function core calls (the t quantile, the
// incomplete beta of Welch's p, the normal tail of Mann-Whitney's z): evaluate in double.
// Boost's default promotes double arguments to long double, which costs nothing natively
// (x87's 80 bits) but is 128-bit software arithmetic in wasm: about 170 KB of the page's
// module and slower calls, for digits past double's. The native and wasm builds compute the
// same way with it (docs/PERFORMANCE.md, "Load budget").
using MathPolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

// Throws ValueError if values is empty, holds more than kMaxSampleValues (check_sample_size)
// or a value that is not finite or is negative:
// "baseline_ms[3] is -1: values must be finite and not negative".
void check_sample(const std::vector<double>& values, const std::string& name);

// Throws ValueError "<field> must be between lo and hi, got v" (also for NaN).
void check_range(const std::string& field, double value, double lo, double hi);

// Whole numbers in full ("2", "1000000"); others with up to `digits` significant digits and
// no trailing zeros ("0.41", "1.5", "1e-07").
std::string format_g(double v, int digits = 6);
// Fixed decimals ("1.23").
std::string format_fixed(double v, int decimals);

// Median of a scratch buffer (reordered in place); size > 0.
double median_in_place(std::vector<double>& values);

// Sorted copy.
std::vector<double> sorted_copy(const std::vector<double>& values);

// Median of one bootstrap resample of `sorted` (ascending): n ranks drawn with replacement by
// rng are counted, then a cumulative scan finds the middle rank(s). O(n) with no sort, which
// keeps a 10,000-resample bootstrap of 100 values to a few milliseconds. counts is scratch.
double resampled_median(const std::vector<double>& sorted, Rng& rng,
                        std::vector<std::uint32_t>& counts);

// Midranks (1-based, ties share their average rank) of values, in input order, and the tie
// correction Σ(t³ − t) over groups of t equal values.
struct Ranks {
  std::vector<double> rank;
  double tie_sum = 0;
};
Ranks midranks(const std::vector<double>& values);

}  // namespace perflab::detail
