// interval_coverage: small samples drawn from a reference run, their three intervals, and
// how often each contains the reference median. Not for: the intervals (summary.cpp).
#include "perflab/stats/coverage.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/timing/timer.hpp"
#include "stats_detail.hpp"

namespace perflab {

namespace {

constexpr double kZ975 = 1.959963984540054;  // the normal's 97.5th percentile

// A share as the page prints it: one decimal of a percent ("94.0%").
std::string percent(double share) { return detail::format_fixed(100.0 * share, 1) + "%"; }

// "z", "z and t", "z, t and bootstrap".
std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

}  // namespace

const char* coverage_finding_name(CoverageFinding f) {
  switch (f) {
    case CoverageFinding::short_of_promise: return "short";
    case CoverageFinding::within_noise: return "within_noise";
    case CoverageFinding::above_promise: return "above";
  }
  return "unknown";
}

Interval wilson_interval(double successes, double trials) {
  if (!(trials >= 1) || !(successes >= 0) || !(successes <= trials)) {
    throw ValueError("a Wilson interval needs 0 <= successes <= trials and trials >= 1, got " +
                     detail::format_g(successes) + " of " + detail::format_g(trials));
  }
  const double p = successes / trials, z2 = kZ975 * kZ975;
  const double scale = 1.0 + z2 / trials;
  const double centre = (p + z2 / (2.0 * trials)) / scale;
  const double half =
      kZ975 / scale * std::sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

CoverageFinding coverage_finding(const Interval& i) {
  // In tenths of a percent, as printed: 0.9496 prints 95.0% and does not fall short.
  const auto tenths = [](double share) { return std::round(1000.0 * share); };
  const double promised = tenths(kPromisedCoverage);
  if (tenths(i.high) < promised) return CoverageFinding::short_of_promise;
  if (tenths(i.low) > promised) return CoverageFinding::above_promise;
  return CoverageFinding::within_noise;
}

std::string coverage_sentence(const CoverageRow& row, int trials) {
  const std::pair<const char*, const MethodCoverage*> methods[] = {
      {"z", &row.z}, {"t", &row.t}, {"bootstrap", &row.bootstrap}};
  const std::string promised = detail::format_g(100.0 * kPromisedCoverage) + "%";
  std::string s = "At n = " + std::to_string(row.n) + ": ";
  std::vector<std::string> short_of, within, above;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& [name, m] = methods[i];
    const std::string range =
        percent(m->coverage_interval.low) + " to " + percent(m->coverage_interval.high);
    s += std::string(i == 0 ? "" : i == 2 ? " and " : ", ") + name + " " + percent(m->coverage) +
         (i == 0 ? " of " + std::to_string(trials) + " trials (95% Monte Carlo interval " + range +
                       ")"
                 : " (" + range + ")");
    (m->finding == CoverageFinding::short_of_promise ? short_of
     : m->finding == CoverageFinding::above_promise  ? above
                                                     : within)
        .push_back(name);
  }
  s += ".";
  const auto its = [](const std::vector<std::string>& v) {
    return v.size() == 1 ? std::string("its interval lies") : std::string("their intervals lie");
  };
  if (!short_of.empty()) {
    s += " " + joined(short_of) + " fell short of the promised " + promised + ": " + its(short_of) +
         " below it.";
  }
  if (!above.empty()) {
    s += " " + joined(above) + " covered more often than the promised " + promised + ": " +
         its(above) + " above it, so " + (above.size() == 1 ? "that interval is" : "those are") +
         " wider than " + promised + " needs.";
  }
  if (!within.empty()) {
    s += " " + (within.size() == 3 ? std::string("All three are") : joined(within) +
                (within.size() == 1 ? " is" : " are")) +
         " within the noise of " + std::to_string(trials) + " trials of " + promised + ".";
  }
  return s;
}

void CoverageOptions::validate() const {
  detail::check_range("trials", trials, 10, 100000);
  detail::check_range("bootstrap_resamples", bootstrap_resamples, 100, 1000000);
}

CoverageReport interval_coverage(const std::vector<double>& reference,
                                 const std::vector<std::size_t>& sizes,
                                 const CoverageOptions& options) {
  options.validate();
  detail::check_sample(reference, "reference");
  if (reference.size() < 20) {
    throw ValueError("reference must hold at least 20 values to stand for the population, got " +
                     std::to_string(reference.size()));
  }
  if (sizes.empty() || sizes.size() > 64) {
    throw ValueError("sizes must list 1 to 64 sample sizes, got " + std::to_string(sizes.size()));
  }
  std::set<std::size_t> seen;
  double work_per_trial = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t n = sizes[i];
    if (n < 2 || n > 100000) {
      throw ValueError("sizes[" + std::to_string(i) + "] must be between 2 and 100000, got " +
                       std::to_string(n));
    }
    if (!seen.insert(n).second) {
      throw ValueError("sizes[" + std::to_string(i) + "] repeats the size " + std::to_string(n));
    }
    work_per_trial += static_cast<double>(n) + kCoverageResampleOverhead;
  }
  const double work = work_per_trial * options.trials * options.bootstrap_resamples;
  if (work > kMaxCoverageWork) {
    throw ValueError("this coverage run would draw " + detail::format_g(work, 3) +
                     " values (trials × bootstrap_resamples × the sum of the sizes, each "
                     "size counted as " + detail::format_g(kCoverageResampleOverhead) +
                     " more for its resample's own cost); the limit "
                     "is " + detail::format_g(kMaxCoverageWork, 3) +
                     ": use fewer trials, fewer resamples or smaller sizes");
  }

  CoverageReport report;
  report.reference_median = median(reference);
  report.reference_n = reference.size();
  report.trials = options.trials;
  report.bootstrap_resamples = options.bootstrap_resamples;
  report.seed = options.seed;

  Rng draw(options.seed);
  const auto last = static_cast<std::int64_t>(reference.size()) - 1;
  std::vector<double> sample;
  for (const std::size_t n : sizes) {
    CoverageRow row;
    row.n = n;
    for (int trial = 0; trial < options.trials; ++trial) {
      sample.clear();
      for (std::size_t k = 0; k < n; ++k) {
        sample.push_back(reference[static_cast<std::size_t>(draw.integer(0, last))]);
      }
      SummaryOptions so;
      so.bootstrap_resamples = options.bootstrap_resamples;
      so.seed = draw.next_u64() >> 11;  // each trial's bootstrap its own stream, reproducible
      const Summary s = summarize(sample, "sample", so);
      const auto tally = [&](MethodCoverage& m, const Interval& i) {
        m.mean_width += i.width();
        m.coverage += i.contains(report.reference_median) ? 1.0 : 0.0;
      };
      tally(row.z, s.z_interval);
      tally(row.t, s.t_interval);
      tally(row.bootstrap, s.bootstrap_median_interval);
    }
    for (MethodCoverage* m : {&row.z, &row.t, &row.bootstrap}) {
      m->coverage_interval = wilson_interval(m->coverage, options.trials);
      m->finding = coverage_finding(m->coverage_interval);
      m->mean_width /= options.trials;
      m->coverage /= options.trials;
    }
    row.sentence = coverage_sentence(row, options.trials);
    report.rows.push_back(row);
  }
  return report;
}

// The JSON of a coverage report, written by to_json and read by coverage_report_from_json;
// a finding is its name (coverage_finding_name).
auto json_fields_of(const MethodCoverage*) {
  using M = MethodCoverage;
  const JsonComputed<M> finding{
      "finding", [](const M& m) -> nlohmann::json { return coverage_finding_name(m.finding); },
      [](const nlohmann::json& v, const std::string& field, M& m) {
        constexpr CoverageFinding kFindings[] = {CoverageFinding::short_of_promise,
                                                 CoverageFinding::within_noise,
                                                 CoverageFinding::above_promise};
        m.finding = json_enum(v, field, kFindings, coverage_finding_name);
      }};
  return std::make_tuple(JsonField{"mean_width", &M::mean_width, JsonRange::non_negative},
                         JsonField{"coverage", &M::coverage, JsonRange::non_negative},
                         JsonField{"coverage_interval", &M::coverage_interval}, finding);
}

auto json_fields_of(const CoverageRow*) {
  return std::make_tuple(JsonField{"n", &CoverageRow::n}, JsonField{"z", &CoverageRow::z},
                         JsonField{"t", &CoverageRow::t},
                         JsonField{"bootstrap", &CoverageRow::bootstrap},
                         JsonField{"sentence", &CoverageRow::sentence});
}

auto json_fields_of(const CoverageReport*) {
  using R = CoverageReport;
  return std::make_tuple(JsonField{"reference_median", &R::reference_median, JsonRange::non_negative},
                         JsonField{"reference_n", &R::reference_n}, JsonField{"trials", &R::trials},
                         JsonField{"bootstrap_resamples", &R::bootstrap_resamples},
                         JsonField{"seed", &R::seed}, JsonField{"rows", &R::rows});
}

nlohmann::json to_json(const CoverageReport& report) { return write_fields(report); }
CoverageReport coverage_report_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<CoverageReport>(j, where);
}

}  // namespace perflab
