// compare_samples with a memory of its last results, for the grading code: a re-grade compares
// the same rows twice (the exercise that counts an A/A run's verdicts, then the forensic checks
// of the same rows), and each comparison draws 10,000 bootstrap resamples. The result is the
// same Comparison compare_samples returns for the same samples and options.
// Not for: measuring (a measurement's samples are new each time).
#pragma once

#include <string>
#include <vector>

#include "perflab/stats/compare.hpp"

namespace perflab::detail {

// The last kCompareCacheSize distinct calls are remembered (a class's A/A run has 40 rows).
inline constexpr std::size_t kCompareCacheSize = 128;

Comparison compare_samples_cached(const std::vector<double>& a, const std::vector<double>& b,
                                  const CompareOptions& options, const std::string& name_a,
                                  const std::string& name_b);

}  // namespace perflab::detail
