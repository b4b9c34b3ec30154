// Two-sample comparison: ratio of medians with its bootstrap interval, Welch's t (p from the
// regularized incomplete beta), Mann-Whitney U (exact counts or the normal approximation with
// tie and continuity corrections, as R's wilcox.test), Cohen's d, Cliff's delta, Spearman's
// rho, and the verdict sentence. Not for: paired designs.
#include "perflab/stats/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/random.hpp"
#include "perflab/timing/timer.hpp"
#include "stats_detail.hpp"

namespace perflab {

namespace {

// Exact distribution of U when both samples are under this size and nothing is tied (R's rule).
constexpr std::size_t kExactLimit = 50;

struct Moments {
  double mean = 0, var = 0;
};

Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  if (v.size() >= 2) {
    for (double x : v) m.var += (x - m.mean) * (x - m.mean);
    m.var /= static_cast<double>(v.size() - 1);
  }
  return m;
}

// Two-sided p of Student's t with df degrees of freedom: P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
double two_sided_t_p(double t, double df) {
  if (!std::isfinite(t)) return 0.0;
  return boost::math::ibeta(df / 2.0, 0.5, df / (df + t * t), detail::MathPolicy());
}

// Counts of every U value for samples of sizes na and nb (no ties): placing the pooled
// sorted values one by one, an A value placed as the k-th A after i − k B values adds i − k.
std::vector<double> exact_u_counts(std::size_t na, std::size_t nb) {
  const std::size_t max_u = na * nb;
  std::vector<std::vector<double>> count(na + 1, std::vector<double>(max_u + 1, 0.0));
  count[0][0] = 1.0;
  for (std::size_t i = 1; i <= na + nb; ++i) {
    for (std::size_t k = std::min(i, na); k >= 1; --k) {
      const std::size_t add = i - k;  // B values before this A value
      if (add > nb) continue;
      for (std::size_t u = max_u; u + 1 > add; --u) count[k][u] += count[k - 1][u - add];
    }
  }
  return count[na];
}

// Spearman's p is exact (every arrangement of the ranks) up to this many pairs, as R's
// cor.test: the t approximation gives p = 0 for a perfect order, which among 3 pairs happens
// by chance one time in three, and among 5 one time in 60.
constexpr std::size_t kSpearmanExactLimit = 9;

// Doubled centred midranks, 2·r − (n + 1): integers, so sums of their products are exact and
// orderings compare without rounding.
std::vector<long long> doubled_centred(const std::vector<double>& ranks) {
  const auto centre = static_cast<long long>(ranks.size()) + 1;
  std::vector<long long> out;
  out.reserve(ranks.size());
  for (double r : ranks) out.push_back(std::llround(2 * r) - centre);
  return out;
}

// Calls visit(S), S = Σ cx[i]·cy[π(i)], for each of the n! orderings π of cy. Heap's algorithm
// reaches every ordering by one swap from the one before, so S changes by one term: O(1) each
// (9! = 362,880 orderings take milliseconds, in wasm too).
template <class Visit>
void for_each_ordering(const std::vector<long long>& cx, std::vector<long long> cy, Visit visit) {
  const std::size_t n = cy.size();
  long long s = 0;
  for (std::size_t i = 0; i < n; ++i) s += cx[i] * cy[i];
  visit(s);
  std::vector<std::size_t> c(n, 0);
  for (std::size_t i = 1; i < n;) {
    if (c[i] < i) {
      const std::size_t j = i % 2 == 0 ? 0 : c[i];
      s += (cx[j] - cx[i]) * (cy[i] - cy[j]);  // swapping cy[i] and cy[j]
      std::swap(cy[i], cy[j]);
      visit(s);
      ++c[i];
      i = 1;
    } else {
      c[i] = 0;
      ++i;
    }
  }
}

// Two-sided exact p: the share of the n! orderings of the y ranks whose |S| is at least the
// observed one (tied ranks swapped among themselves count as orderings too; the share is the
// same as over distinct arrangements).
double spearman_exact_p(const std::vector<double>& rx, const std::vector<double>& ry) {
  const std::vector<long long> cx = doubled_centred(rx), cy = doubled_centred(ry);
  long long observed = 0;
  for (std::size_t i = 0; i < cx.size(); ++i) observed += cx[i] * cy[i];
  observed = observed < 0 ? -observed : observed;
  double at_least = 0, total = 0;
  for_each_ordering(cx, cy, [&](long long s) {
    total += 1;
    if ((s < 0 ? -s : s) >= observed) at_least += 1;
  });
  return at_least / total;
}

double ratio_or_inf(double num, double den) {
  if (den > 0) return num / den;
  return num > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

std::string p_text(double p) {
  return p < 0.001 ? "p < 0.001" : "p = " + detail::format_g(p, 2);
}

std::string ratio_text(double r) { return detail::format_fixed(r, 2); }

void check_two(const std::vector<double>& a, const std::vector<double>& b) {
  detail::check_sample(a, "a");
  detail::check_sample(b, "b");
}

WelchResult welch_unchecked(const std::vector<double>& a, const std::vector<double>& b,
                            double alpha) {
  const Moments ma = moments(a), mb = moments(b);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = ma.var / na, vb = mb.var / nb;
  const double se = std::sqrt(va + vb);
  const double diff = mb.mean - ma.mean;
  WelchResult w;
  if (se == 0) {
    // Both samples constant: the difference is certain.
    w.df = na + nb - 2;
    w.t = diff == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
    w.p_value = diff == 0 ? 1.0 : 0.0;
    w.difference = {diff, diff};
    return w;
  }
  w.t = diff / se;
  w.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  w.p_value = two_sided_t_p(w.t, w.df);
  const double q = student_t_quantile(1.0 - alpha / 2.0, w.df);
  w.difference = {diff - q * se, diff + q * se};
  return w;
}

MannWhitneyResult mann_whitney_unchecked(const std::vector<double>& a,
                                         const std::vector<double>& b) {
  const std::size_t na = a.size(), nb = b.size();
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const detail::Ranks r = detail::midranks(pooled);
  double rank_sum_a = 0;
  for (std::size_t i = 0; i < na; ++i) rank_sum_a += r.rank[i];
  const double dna = static_cast<double>(na), dnb = static_cast<double>(nb);
  MannWhitneyResult m;
  m.u = rank_sum_a - dna * (dna + 1) / 2;
  const double mu = dna * dnb / 2;

  if (r.tie_sum == 0 && na < kExactLimit && nb < kExactLimit) {
    m.exact = true;
    const std::vector<double> counts = exact_u_counts(na, nb);
    double total = 0, at_most = 0, at_least = 0;
    const auto u = static_cast<std::size_t>(std::llround(m.u));
    for (std::size_t k = 0; k < counts.size(); ++k) {
      total += counts[k];
      if (k <= u) at_most += counts[k];
      if (k >= u) at_least += counts[k];
    }
    m.p_value = std::min(1.0, 2.0 * std::min(at_most, at_least) / total);
    return m;
  }
  const double n = dna + dnb;
  const double sigma =
      std::sqrt(dna * dnb / 12.0 * ((n + 1) - r.tie_sum / (n * (n - 1))));
  if (sigma == 0) return m;  // every value tied: no evidence either way, p = 1
  const double d = m.u - mu;
  const double corrected = d > 0 ? d - 0.5 : (d < 0 ? d + 0.5 : 0.0);
  m.z = corrected / sigma;
  const boost::math::normal_distribution<double, detail::MathPolicy> standard;
  m.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(standard, std::fabs(m.z))));
  return m;
}

double cohens_d_unchecked(const std::vector<double>& a, const std::vector<double>& b) {
  const Moments ma = moments(a), mb = moments(b);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double dof = na + nb - 2;
  const double pooled = dof > 0 ? std::sqrt(((na - 1) * ma.var + (nb - 1) * mb.var) / dof) : 0.0;
  const double diff = mb.mean - ma.mean;
  if (pooled == 0) {
    return diff == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
  }
  return diff / pooled;
}

double cliffs_delta_unchecked(const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<double> sa = detail::sorted_copy(a);
  double score = 0;
  for (double x : b) {
    const auto below = std::lower_bound(sa.begin(), sa.end(), x) - sa.begin();
    const auto above = sa.end() - std::upper_bound(sa.begin(), sa.end(), x);
    score += static_cast<double>(below - above);
  }
  return score / (static_cast<double>(a.size()) * static_cast<double>(b.size()));
}

// B against A as a factor of at least 1 in B's direction ("1.25x faster", "1.10x slower"), with
// the interval of that same factor: the ratio A/B's interval as it is, or inverted when B is
// slower. Every branch of the sentence prints this pair, so the interval always belongs to the
// factor beside it.
struct Factor {
  std::string text;  // "B is 1.10x slower than A", or "B's median equals A's"
  std::string ci;    // "95% CI 1.08-1.12x"
};

Factor factor_of(const Comparison& c, const std::string& level, const std::string& name_a,
                 const std::string& name_b) {
  const Interval& r = c.ratio_interval;
  if (c.ratio == 1.0) {
    return {name_b + "'s median equals " + name_a + "'s",
            level + "of " + name_a + " / " + name_b + " " + ratio_text(r.low) + "-" +
                ratio_text(r.high) + "x"};
  }
  if (c.ratio > 1.0) {
    return {name_b + " is " + ratio_text(c.ratio) + "x faster than " + name_a,
            level + ratio_text(r.low) + "-" + ratio_text(r.high) + "x"};
  }
  return {name_b + " is " + ratio_text(1.0 / c.ratio) + "x slower than " + name_a,
          level + ratio_text(1.0 / r.high) + "-" + ratio_text(1.0 / r.low) + "x"};
}

std::string verdict_sentence(const Comparison& c, const std::string& name_a,
                             const std::string& name_b) {
  const std::string level = detail::format_g(100.0 * (1.0 - c.alpha), 3) + "% CI ";
  const std::string p = p_text(c.mann_whitney.p_value);
  const Factor f = factor_of(c, level, name_a, name_b);
  switch (c.verdict) {
    case Verdict::too_few_samples:
      return "too few samples to decide: " + std::to_string(c.n_a) + " of " + name_a + " and " +
             std::to_string(c.n_b) + " of " + name_b + ", need at least " +
             std::to_string(c.min_samples) + " each";
    case Verdict::faster:
    case Verdict::slower:
      return f.text + " (" + f.ci + ", " + p + ")";
    case Verdict::no_difference:
      break;
  }
  const bool significant = c.mann_whitney.p_value < c.alpha;
  const bool includes_one = c.ratio_interval.contains(1.0);
  if (significant && !includes_one) {
    return "no meaningful difference: " + f.text + ", within the " +
           detail::format_g(100.0 * c.threshold, 3) + "% noise threshold (" + f.ci + ", " + p +
           ")";
  }
  if (significant) {
    return "no significant difference: " + f.text + " (" + p + ", but the " + f.ci +
           " includes 1)";
  }
  if (includes_one) {
    return "no significant difference: " + f.text + " (" + p + "; the " + f.ci + " includes 1)";
  }
  return "no significant difference: " + f.text + " (" + p + ", not below " +
         detail::format_g(c.alpha, 3) + ", though the " + f.ci + " excludes 1)";
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::no_difference: return "no_difference";
    case Verdict::too_few_samples: return "too_few_samples";
  }
  return "unknown";
}

const char* verdict_word(Verdict v) {
  switch (v) {
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::no_difference: return "no clear difference";
    case Verdict::too_few_samples: return "too few samples";
  }
  return "unknown";
}

// The JSON of a comparison, written by to_json and read by comparison_from_json from these
// lists. Statistics that can be infinite (a t, a df or Cohen's d of samples without spread)
// are null; the verdict is one object: its identifier, its words and the sentence.
auto json_fields_of(const WelchResult*) {
  constexpr JsonRange kNull = JsonRange::unbounded_as_null;
  return std::make_tuple(JsonField{"t", &WelchResult::t, kNull}, JsonField{"df", &WelchResult::df, kNull},
                         JsonField{"p_value", &WelchResult::p_value},
                         JsonField{"difference", &WelchResult::difference});
}

auto json_fields_of(const MannWhitneyResult*) {
  using M = MannWhitneyResult;
  return std::make_tuple(JsonField{"u", &M::u}, JsonField{"z", &M::z},
                         JsonField{"p_value", &M::p_value}, JsonField{"exact", &M::exact});
}

auto json_fields_of(const Comparison*) {
  using C = Comparison;
  constexpr JsonRange kNonNegative = JsonRange::non_negative;
  const JsonComputed<C> verdict{
      "verdict",
      [](const C& c) -> nlohmann::json {
        return {{"name", verdict_name(c.verdict)},
                {"word", verdict_word(c.verdict)},
                {"sentence", c.sentence}};
      },
      [](const nlohmann::json& v, const std::string& field, C& c) {
        constexpr Verdict kVerdicts[] = {Verdict::faster, Verdict::slower, Verdict::no_difference,
                                         Verdict::too_few_samples};
        c.verdict = json_enum(json_member(v, field, "name"), field + ".name", kVerdicts, verdict_name);
        read_json_value(json_member(v, field, "sentence"), field + ".sentence", c.sentence,
                        JsonRange::any);
      }};
  return std::make_tuple(
      JsonField{"n_a", &C::n_a}, JsonField{"n_b", &C::n_b},
      JsonField{"median_a", &C::median_a, kNonNegative},
      JsonField{"median_b", &C::median_b, kNonNegative}, JsonField{"ratio", &C::ratio, kNonNegative},
      JsonField{"ratio_interval", &C::ratio_interval}, JsonField{"change", &C::change},
      JsonField{"welch", &C::welch}, JsonField{"mann_whitney", &C::mann_whitney},
      JsonField{"cohens_d", &C::cohens_d, JsonRange::unbounded_as_null},
      JsonField{"cliffs_delta", &C::cliffs_delta}, JsonField{"alpha", &C::alpha},
      JsonField{"threshold", &C::threshold}, JsonField{"min_samples", &C::min_samples},
      JsonField{"bootstrap_resamples", &C::bootstrap_resamples},
      JsonField{"bootstrap_resamples_requested", &C::bootstrap_resamples_requested},
      JsonField{"seed", &C::seed}, verdict, JsonField{"warning", &C::warning});
}

nlohmann::json to_json(const Comparison& comparison) { return write_fields(comparison); }
Comparison comparison_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<Comparison>(j, where);
}

std::string comparison_sentence(const Comparison& c, const std::string& name_a,
                                const std::string& name_b) {
  return verdict_sentence(c, name_a, name_b);
}

void CompareOptions::validate() const {
  detail::check_range("alpha", alpha, 0.0001, 0.5);
  detail::check_range("threshold", threshold, 0, 1);
  detail::check_range("bootstrap_resamples", bootstrap_resamples, 100, 1000000);
  detail::check_range("min_samples", min_samples, 2, 100000);
}

WelchResult welch_t_test(const std::vector<double>& a, const std::vector<double>& b,
                         double alpha) {
  check_two(a, b);
  detail::check_range("alpha", alpha, 0.0001, 0.5);
  for (const auto* s : {&a, &b}) {
    if (s->size() < 2) {
      throw ValueError(std::string("Welch's t-test needs at least 2 values in each sample, got ") +
                       std::to_string(s->size()) + " in " + (s == &a ? "a" : "b"));
    }
  }
  return welch_unchecked(a, b, alpha);
}

MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  check_two(a, b);
  return mann_whitney_unchecked(a, b);
}

double cohens_d(const std::vector<double>& a, const std::vector<double>& b) {
  check_two(a, b);
  return cohens_d_unchecked(a, b);
}

double cliffs_delta(const std::vector<double>& a, const std::vector<double>& b) {
  check_two(a, b);
  return cliffs_delta_unchecked(a, b);
}

RankCorrelation spearman(const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() != ys.size()) {
    throw ValueError("a rank correlation needs as many x as y values, got " +
                     std::to_string(xs.size()) + " and " + std::to_string(ys.size()));
  }
  if (xs.size() < 3) {
    throw ValueError("a rank correlation needs at least 3 pairs, got " + std::to_string(xs.size()));
  }
  for (const auto* v : {&xs, &ys}) {
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!std::isfinite((*v)[i])) {
        throw ValueError(std::string(v == &xs ? "x" : "y") + "[" + std::to_string(i) + "] is " +
                         detail::format_g((*v)[i]) + ": values must be finite");
      }
    }
  }
  const std::vector<double> rx = detail::midranks(xs).rank, ry = detail::midranks(ys).rank;
  const double n = static_cast<double>(xs.size());
  const double mean = (n + 1) / 2;  // midranks always average (n + 1) / 2
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  RankCorrelation r;
  if (sxx == 0 || syy == 0) return r;
  r.rho = std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
  if (xs.size() <= kSpearmanExactLimit) {
    r.p_value = spearman_exact_p(rx, ry);
    return r;
  }
  if (std::fabs(r.rho) == 1.0) {
    r.p_value = 0.0;
    return r;
  }
  const double df = n - 2;
  r.p_value = two_sided_t_p(r.rho * std::sqrt(df / (1 - r.rho * r.rho)), df);
  return r;
}

double spearman_critical_rho(std::size_t n, double alpha) {
  detail::check_range("alpha", alpha, 0.0001, 0.5);
  if (n < 3) return std::numeric_limits<double>::infinity();
  if (n > kSpearmanExactLimit) {
    // p < alpha exactly when |t| exceeds the quantile; t = rho·√(df / (1 − rho²)) inverted.
    const double df = static_cast<double>(n) - 2;
    const double t = student_t_quantile(1.0 - alpha / 2.0, df);
    return t / std::sqrt(df + t * t);
  }
  // Every ordering of 1..n against 1..n: how often each |S| occurs, then the smallest |S|
  // whose share of orderings at least as extreme is below alpha.
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n; ++i) ranks[i] = static_cast<double>(i + 1);
  const std::vector<long long> c = doubled_centred(ranks);
  const auto most = static_cast<long long>(n * (n * n - 1) / 3);  // S of a perfect order
  std::vector<double> count(static_cast<std::size_t>(most) + 1, 0.0);  // |S| -> orderings
  double total = 0;
  for_each_ordering(c, c, [&](long long s) {
    count[static_cast<std::size_t>(s < 0 ? -s : s)] += 1;
    total += 1;
  });
  double at_least = 0;
  double critical = std::numeric_limits<double>::infinity();
  for (long long s = most; s >= 0; --s) {
    at_least += count[static_cast<std::size_t>(s)];
    if (at_least / total >= alpha) break;
    if (count[static_cast<std::size_t>(s)] > 0) {
      critical = static_cast<double>(s) / static_cast<double>(most);
    }
  }
  return critical;
}

Comparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                           const CompareOptions& options, const std::string& name_a,
                           const std::string& name_b) {
  detail::check_sample(a, name_a);
  detail::check_sample(b, name_b);
  options.validate();

  Comparison c;
  c.n_a = a.size();
  c.n_b = b.size();
  c.alpha = options.alpha;
  c.threshold = options.threshold;
  c.bootstrap_resamples_requested = options.bootstrap_resamples;
  const double drawn = static_cast<double>(a.size() + b.size());  // per resample
  c.bootstrap_resamples = bootstrap_resamples_within_budget(options.bootstrap_resamples, drawn);
  c.warning = bootstrap_cut_note(c.bootstrap_resamples_requested, c.bootstrap_resamples, drawn);
  c.seed = options.seed;
  c.min_samples = options.min_samples;
  c.median_a = median(a);
  c.median_b = median(b);
  for (const auto& [m, name] : {std::pair{c.median_a, name_a}, std::pair{c.median_b, name_b}}) {
    if (!(m > 0)) {
      throw ValueError("the median of " + name +
                       " is 0: a ratio of medians needs positive medians (a clock too coarse "
                       "for the work? batch more calls per sample)");
    }
  }
  c.ratio = c.median_a / c.median_b;
  c.change = c.median_b / c.median_a - 1.0;

  // Percentile bootstrap of the ratio: A and B resampled independently.
  Rng rng(options.seed);
  const std::vector<double> sa = detail::sorted_copy(a), sb = detail::sorted_copy(b);
  std::vector<std::uint32_t> counts;
  std::vector<double> ratios(static_cast<std::size_t>(c.bootstrap_resamples));
  for (double& r : ratios) {
    const double ma = detail::resampled_median(sa, rng, counts);
    r = ratio_or_inf(ma, detail::resampled_median(sb, rng, counts));
  }
  std::sort(ratios.begin(), ratios.end());
  const auto quantile = [&](double p) {
    const double q = percentile_sorted(ratios, p);
    return std::isnan(q) ? std::numeric_limits<double>::infinity() : q;  // inf − inf
  };
  c.ratio_interval = {quantile(50.0 * options.alpha), quantile(100.0 - 50.0 * options.alpha)};

  if (c.n_a >= 2 && c.n_b >= 2) c.welch = welch_unchecked(a, b, options.alpha);
  c.mann_whitney = mann_whitney_unchecked(a, b);
  c.cohens_d = cohens_d_unchecked(a, b);
  c.cliffs_delta = cliffs_delta_unchecked(a, b);

  const auto min_n = static_cast<std::size_t>(options.min_samples);
  if (c.n_a < min_n || c.n_b < min_n) {
    c.verdict = Verdict::too_few_samples;
  } else {
    const bool significant =
        c.mann_whitney.p_value < options.alpha && !c.ratio_interval.contains(1.0);
    if (significant && c.ratio > 1.0 + options.threshold) {
      c.verdict = Verdict::faster;
    } else if (significant && 1.0 / c.ratio > 1.0 + options.threshold) {
      c.verdict = Verdict::slower;
    } else {
      c.verdict = Verdict::no_difference;
    }
  }
  c.sentence = verdict_sentence(c, "A", "B");
  return c;
}

}  // namespace perflab
