// The decoder of optimize/kv_cache.hpp, its greedy generation in both modes, the counts and
// the measurement. Both modes run one function, run_positions: recompute calls it on every
// position from 0 at every step, the cached mode on the new positions only, so the two differ
// in what they recompute and in nothing else (same kernels, same sums in the same order).
// Linear and LayerNorm layers hold the weights and draw them; the products call the
// registered matmul kernels on raw rows, so a slice of the prefix needs no tensor copy.
#include "perflab/optimize/kv_cache.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/random.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/norm.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/interleaved.hpp"

namespace perflab {

namespace {

constexpr double kLayerNormEps = 1e-5;

// An independent seed for tensor `part` of a decoder seeded with `seed` (splitmix64 of the
// seed mixed with the part), so adding a tensor never changes the others' values.
std::uint64_t tensor_seed(std::uint64_t seed, std::uint64_t part) {
  Rng rng(seed ^ (0x9E3779B97F4A7C15ull * (part + 1)));
  return rng.next_u64();
}

void check_range(const char* field, std::size_t value, std::size_t lo, std::size_t hi) {
  if (value < lo || value > hi) {
    throw ValueError(std::string("kv decoder: ") + field + " must be between " +
                     std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                     std::to_string(value));
  }
}

std::size_t parameter_count_of(const KvDecoderConfig& c) {
  const std::size_t D = c.d_model, F = c.d_ff;
  const std::size_t block = (D * 3 * D + 3 * D)  // qkv
                            + (D * D + D)        // output projection
                            + (D * F + F)        // MLP up
                            + (F * D + D)        // MLP down
                            + 4 * D;             // two LayerNorms
  return c.vocab * D + c.context * D + c.layers * block + 2 * D + D * c.vocab;
}

// The sizes generate accepts, as sentences; shared by generate and the counts.
void check_generation_sizes(const KvDecoderConfig& c, std::size_t prompt, std::size_t n_new) {
  if (prompt == 0) {
    throw ValueError("kv decoder: the prompt is empty; give at least one token to continue from");
  }
  if (n_new == 0) {
    throw ValueError(
        "kv decoder: n_new must be at least 1 (the number of tokens to generate), got 0");
  }
  if (prompt > c.context || n_new > c.context - prompt) {
    throw ValueError("kv decoder: the prompt (" + std::to_string(prompt) + " tokens) and the " +
                     std::to_string(n_new) + " new tokens make " + std::to_string(prompt + n_new) +
                     " positions, more than the context of " + std::to_string(c.context) +
                     "; generate at most " +
                     std::to_string(prompt < c.context ? c.context - prompt : 0) +
                     " tokens after this prompt, or raise context");
  }
}

// Σ_{t=0}^{N−1} (t + 1) = N(N + 1)/2, and the tetrahedral number Te(m) = Σ_{k=1}^{m} k(k+1)/2.
double triangle(double n) { return n * (n + 1) / 2; }
double tetrahedral(double m) { return m * (m + 1) * (m + 2) / 6; }

// Normwise error max |a − b| / max |b| (0 when both are zero).
double normwise_error(const std::vector<float>& got, const std::vector<float>& reference) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(got[i]) - reference[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(reference[i])));
  }
  if (std::isnan(diff)) return diff;
  return scale > 0 ? diff / scale : diff;
}

// Σ a[i]·b[i] over n floats, four sums of four lanes (one sum would wait on its own latency).
float dot(const float* a, const float* b, std::size_t n) {
  using namespace detail;
  f32x4 s0 = zero(), s1 = zero();
  std::size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    s0 = fmadd(loadu(a + i), loadu(b + i), s0);
    s1 = fmadd(loadu(a + i + kLanes), loadu(b + i + kLanes), s1);
  }
  for (; i + kLanes <= n; i += kLanes) s0 = fmadd(loadu(a + i), loadu(b + i), s0);
  float s = hsum(add(s0, s1));
  for (; i < n; ++i) s += a[i] * b[i];
  return s;
}

// y[i] += w·x[i] over n floats.
void axpy(float* y, float w, const float* x, std::size_t n) {
  using namespace detail;
  const f32x4 wv = splat(w);
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) storeu(y + i, fmadd(wv, loadu(x + i), loadu(y + i)));
  for (; i < n; ++i) y[i] += w * x[i];
}

}  // namespace

void KvDecoderConfig::validate() const {
  check_range("vocab", vocab, 2, kMaxKvVocab);
  check_range("d_model", d_model, 1, kMaxKvDModel);
  check_range("heads", heads, 1, d_model);
  if (d_model % heads != 0) {
    throw ValueError("kv decoder: heads (" + std::to_string(heads) + ") must divide d_model (" +
                     std::to_string(d_model) + ")");
  }
  check_range("layers", layers, 1, kMaxKvLayers);
  check_range("d_ff", d_ff, 1, kMaxKvDff);
  check_range("context", context, 1, kMaxKvContext);
  const std::size_t bytes = parameter_count_of(*this) * sizeof(float);
  if (bytes > kMaxKvParameterBytes) {
    throw ValueError("kv decoder: the weights would take " + format_bytes(bytes) +
                     ", more than the " + format_bytes(kMaxKvParameterBytes) +
                     " allowed; lower vocab, d_model, d_ff, layers or context");
  }
}

// ---------------------------------------------------------------------------------------
// The decoder's parts

struct KvDecoder::Block {
  Block(std::size_t D, std::size_t F, std::size_t C, std::uint64_t seed)
      : ln1(D),
        qkv(D, 3 * D, true, tensor_seed(seed, 0)),
        out(D, D, true, tensor_seed(seed, 1)),
        ln2(D),
        up(D, F, true, tensor_seed(seed, 2)),
        down(F, D, true, tensor_seed(seed, 3)),
        k_cache({C, D}),
        v_cache({C, D}) {}
  LayerNorm ln1;
  Linear qkv;  // (D, 3D): columns [0, D) q, [D, 2D) k, [2D, 3D) v
  Linear out;
  LayerNorm ln2;
  Linear up, down;
  Tensor k_cache, v_cache;  // (C, D): row t holds position t's key / value
};

struct KvDecoder::Head {
  explicit Head(const KvDecoderConfig& c)
      : tok(Tensor::random({c.vocab, c.d_model}, tensor_seed(c.seed, 1000))),
        pos(Tensor::random({c.context, c.d_model}, tensor_seed(c.seed, 1001))),
        ln(c.d_model),
        logits(c.d_model, c.vocab, false, tensor_seed(c.seed, 1002)) {}
  Tensor tok;  // (V, D), uniform in [−1, 1)
  Tensor pos;  // (C, D)
  LayerNorm ln;
  Linear logits;  // (D, V), no bias
};

KvDecoder::KvDecoder(const KvDecoderConfig& config) : config_(config) {
  config_.validate();
  head_ = std::make_unique<Head>(config_);
  for (std::size_t l = 0; l < config_.layers; ++l) {
    blocks_.push_back(std::make_unique<Block>(config_.d_model, config_.d_ff, config_.context,
                                              tensor_seed(config_.seed, l)));
  }
}

// Here, where Block and Head are complete types.
KvDecoder::~KvDecoder() = default;

std::string KvDecoder::description() {
  return "a small decoder-only transformer (token and learned position embeddings, pre-norm "
         "blocks of causal multi-head self-attention and a GELU MLP, a final LayerNorm and "
         "logits over the vocabulary) with random weights, generating greedily with or without "
         "a cache of past keys and values";
}

std::size_t KvDecoder::parameter_count() const { return parameter_count_of(config_); }

std::size_t KvDecoder::cache_bytes() const { return kv_cache_bytes(config_, config_.context); }

void KvDecoder::check_tokens(const std::vector<int>& tokens, const char* what) const {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= config_.vocab) {
      throw ValueError(std::string("kv decoder: ") + what + "[" + std::to_string(i) + "] is " +
                       std::to_string(tokens[i]) + ", outside the vocabulary [0, " +
                       std::to_string(config_.vocab) + ")");
    }
  }
}

// ---------------------------------------------------------------------------------------
// The forward over a range of positions

namespace {

// y (R, out) = x (R, in)·W + b, W (in, out) the Linear's weight. Several rows go through
// the packed kernel (the layers' default); one row through the unpacked SIMD kernel, since
// packing W costs a copy as large as a one-row product and is never reused. Both sum each
// output over k in order, so for in <= 512 (one k block of the packed kernel) the one-row
// and many-row results are the same floats; above, the packed kernel adds block sums.
void project(float* y, const float* x, std::size_t R, Linear& lin, KvFlops& counted) {
  static const MatmulKernel many = find_matmul_variant("packed").kernel;
  static const MatmulKernel one = find_matmul_variant("simd").kernel;
  const std::size_t in = lin.in_features(), out = lin.out_features();
  (R == 1 ? one : many)(y, x, lin.weight().data(), R, in, out);
  if (lin.has_bias()) {
    const float* b = lin.bias().data();
    for (std::size_t r = 0; r < R; ++r) {
      float* row = y + r * out;
      for (std::size_t j = 0; j < out; ++j) row[j] += b[j];
    }
  }
  counted.projections +=
      2.0 * static_cast<double>(R) * static_cast<double>(in) * static_cast<double>(out);
}

// Causal attention of the queries at positions [start, start + R) over cache rows 0..t.
//   qkv  (R, 3D) the queries in columns [0, D)
//   k, v (C, D)  the caches, rows 0 .. start + R − 1 filled
//   ctx  (R, D)  overwritten with the heads' outputs side by side
// scores: scratch of at least start + R floats.
void attend(float* ctx, const float* qkv, const float* k, const float* v, std::size_t start,
            std::size_t R, std::size_t D, std::size_t H, float* scores, KvFlops& counted) {
  const std::size_t dh = D / H;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
  for (std::size_t i = 0; i < R; ++i) {
    const std::size_t keys = start + i + 1;  // positions 0 .. start + i
    float* out_row = ctx + i * D;
    std::fill(out_row, out_row + D, 0.0f);
    for (std::size_t h = 0; h < H; ++h) {
      const float* q = qkv + i * 3 * D + h * dh;
      float top = -std::numeric_limits<float>::infinity();
      for (std::size_t j = 0; j < keys; ++j) {
        scores[j] = dot(q, k + j * D + h * dh, dh) * scale;
        top = std::max(top, scores[j]);
      }
      float sum = 0.0f;
      for (std::size_t j = 0; j < keys; ++j) {
        scores[j] = std::exp(scores[j] - top);
        sum += scores[j];
      }
      const float inv = 1.0f / sum;
      float* out_h = out_row + h * dh;
      for (std::size_t j = 0; j < keys; ++j) axpy(out_h, scores[j] * inv, v + j * D + h * dh, dh);
    }
    counted.attention += 4.0 * static_cast<double>(D) * static_cast<double>(keys);
  }
}

}  // namespace

void KvDecoder::run_positions(const std::vector<int>& tokens, std::size_t start, std::size_t rows,
                              bool all_logits, std::vector<float>& logits) {
  const std::size_t D = config_.d_model, F = config_.d_ff, V = config_.vocab;
  // The residual stream of the new positions, (rows, D).
  Tensor x({rows, D});
  for (std::size_t i = 0; i < rows; ++i) {
    const float* t = head_->tok.data() + static_cast<std::size_t>(tokens[start + i]) * D;
    const float* p = head_->pos.data() + (start + i) * D;
    for (std::size_t j = 0; j < D; ++j) x[i * D + j] = t[j] + p[j];
  }
  Tensor qkv({rows, 3 * D}), ctx({rows, D}), proj({rows, D}), hidden({rows, F});
  std::vector<float> scores(start + rows);
  for (const auto& b : blocks_) {
    const Tensor h1 = layernorm(x, b->ln1.gamma(), b->ln1.beta(), kLayerNormEps);
    project(qkv.data(), h1.data(), rows, b->qkv, counted_);
    // The new positions' keys and values join the cache before anyone attends: position t
    // attends to itself.
    for (std::size_t i = 0; i < rows; ++i) {
      const float* row = qkv.data() + i * 3 * D;
      std::copy(row + D, row + 2 * D, b->k_cache.data() + (start + i) * D);
      std::copy(row + 2 * D, row + 3 * D, b->v_cache.data() + (start + i) * D);
    }
    attend(ctx.data(), qkv.data(), b->k_cache.data(), b->v_cache.data(), start, rows, D,
           config_.heads, scores.data(), counted_);
    project(proj.data(), ctx.data(), rows, b->out, counted_);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += proj[i];
    const Tensor h2 = layernorm(x, b->ln2.gamma(), b->ln2.beta(), kLayerNormEps);
    project(hidden.data(), h2.data(), rows, b->up, counted_);
    const Tensor activated = gelu(hidden);
    project(proj.data(), activated.data(), rows, b->down, counted_);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += proj[i];
  }
  // Logits of the last row, or of every row.
  const std::size_t first = all_logits ? 0 : rows - 1;
  const std::size_t out_rows = rows - first;
  Tensor last({out_rows, D});
  std::copy(x.data() + first * D, x.data() + rows * D, last.data());
  const Tensor normed = layernorm(last, head_->ln.gamma(), head_->ln.beta(), kLayerNormEps);
  logits.assign(out_rows * V, 0.0f);
  project(logits.data(), normed.data(), out_rows, head_->logits, counted_);
}

KvGeneration KvDecoder::generate(const std::vector<int>& prompt, std::size_t n_new,
                                 bool use_cache) {
  check_generation_sizes(config_, prompt.size(), n_new);
  check_tokens(prompt, "prompt");
  counted_ = {};
  KvGeneration g;
  g.use_cache = use_cache;
  std::vector<int> sequence = prompt;
  sequence.reserve(prompt.size() + n_new);
  std::size_t cached = 0;  // positions whose keys and values are in the cache
  for (std::size_t s = 0; s < n_new; ++s) {
    const std::size_t start = use_cache ? cached : 0;
    const std::size_t rows = sequence.size() - start;
    run_positions(sequence, start, rows, false, g.logits);
    g.positions += rows;
    cached = sequence.size();
    const auto best = std::max_element(g.logits.begin(), g.logits.end()) - g.logits.begin();
    sequence.push_back(static_cast<int>(best));
    g.tokens.push_back(static_cast<int>(best));
  }
  g.flops = counted_;
  return g;
}

std::vector<float> KvDecoder::forward_logits(const std::vector<int>& tokens) {
  if (tokens.empty()) {
    throw ValueError("kv decoder: the sequence is empty; give at least one token");
  }
  if (tokens.size() > config_.context) {
    throw ValueError("kv decoder: the sequence has " + std::to_string(tokens.size()) +
                     " tokens, more than the context of " + std::to_string(config_.context) +
                     "; give at most " + std::to_string(config_.context));
  }
  check_tokens(tokens, "tokens");
  counted_ = {};
  std::vector<float> logits;
  run_positions(tokens, 0, tokens.size(), true, logits);
  return logits;
}

// ---------------------------------------------------------------------------------------
// Counts

KvFlops kv_generation_flops(const KvDecoderConfig& config, std::size_t prompt, std::size_t n_new,
                            bool use_cache) {
  config.validate();
  check_generation_sizes(config, prompt, n_new);
  const double D = static_cast<double>(config.d_model), F = static_cast<double>(config.d_ff);
  const double L = static_cast<double>(config.layers), V = static_cast<double>(config.vocab);
  const double p = static_cast<double>(prompt), n = static_cast<double>(n_new);
  const double per_position = L * (8 * D * D + 4 * D * F);  // block products, every layer
  const double logits = n * 2 * D * V;                      // one row per step
  KvFlops f;
  if (use_cache) {
    const double positions = p + n - 1;
    f.projections = per_position * positions + logits;
    f.attention = 4 * D * L * triangle(positions);
  } else {
    const double positions = n * p + n * (n - 1) / 2;
    f.projections = per_position * positions + logits;
    f.attention = 4 * D * L * (tetrahedral(p + n - 1) - tetrahedral(p - 1));
  }
  return f;
}

std::size_t kv_cache_bytes(const KvDecoderConfig& config, std::size_t tokens) {
  config.validate();
  return 2 * config.layers * tokens * config.d_model * sizeof(float);
}

std::size_t kv_cache_limit_tokens(const KvDecoderConfig& config, std::size_t budget_bytes) {
  const std::size_t per_token = kv_cache_bytes(config, 1);
  return budget_bytes / per_token + 1;
}

// ---------------------------------------------------------------------------------------
// Measurement

KvCacheMeasurement measure_kv_cache(const KvDecoderConfig& config, std::size_t prompt,
                                    const std::vector<std::size_t>& lengths,
                                    const TimerOptions& options, Clock& clock,
                                    const ProgressFn& progress) {
  config.validate();
  if (prompt == 0) {
    throw ValueError("kv cache measurement: prompt must be at least 1 token, got 0");
  }
  if (prompt >= config.context) {
    throw ValueError("kv cache measurement: a prompt of " + std::to_string(prompt) +
                     " tokens leaves no room in the context of " + std::to_string(config.context) +
                     "; use a prompt of at most " + std::to_string(config.context - 1) + " tokens");
  }
  if (lengths.empty() || lengths.size() > kMaxKvMeasureLengths) {
    throw ValueError("kv cache measurement: give between 1 and " +
                     std::to_string(kMaxKvMeasureLengths) + " generated lengths, got " +
                     std::to_string(lengths.size()));
  }
  for (std::size_t n : lengths) {
    if (n == 0 || n > config.context - prompt) {
      throw ValueError("kv cache measurement: a generated length must be between 1 and " +
                       std::to_string(config.context - prompt) + " (the context of " +
                       std::to_string(config.context) + " less the prompt of " +
                       std::to_string(prompt) + "), got " + std::to_string(n));
    }
  }
  options.validate();
  for (std::size_t n : lengths) {
    check_call_fits_budget(kv_generation_flops(config, prompt, n, false).total(),
                           "recomputed generation of " + std::to_string(n) + " tokens", options);
  }

  KvDecoder decoder(config);
  std::vector<int> tokens(prompt);
  Rng rng(tensor_seed(config.seed, 2000));
  for (int& t : tokens)
    t = static_cast<int>(rng.integer(0, static_cast<std::int64_t>(config.vocab) - 1));

  KvCacheMeasurement m;
  m.config = config;
  m.prompt = prompt;
  m.parameter_bytes = decoder.parameter_bytes();
  m.cache_bytes = decoder.cache_bytes();
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const std::size_t n = lengths[i];
    // Verify before timing: the same tokens, and logits within the tolerance.
    const KvGeneration recomputed = decoder.generate(tokens, n, false);
    const KvGeneration cached = decoder.generate(tokens, n, true);
    const double error = normwise_error(cached.logits, recomputed.logits);
    if (recomputed.tokens != cached.tokens || !(error <= kKvLogitTolerance)) {
      std::size_t first = 0;
      while (first < n && recomputed.tokens[first] == cached.tokens[first]) ++first;
      throw Error(
          "kv cache: cached and recomputed generations disagree at " + std::to_string(n) +
          " tokens (" +
          (first < n ? "token " + std::to_string(first) + " differs" : std::string("same tokens")) +
          ", last logits' normwise error " + format_number(error) + ", allowed " +
          format_number(kKvLogitTolerance) + ")");
    }
    KvCachePoint pt;
    pt.tokens = n;
    pt.logit_error = error;
    pt.recompute_flops = recomputed.flops;
    pt.cached_flops = cached.flops;
    pt.flop_ratio = recomputed.flops.total() / cached.flops.total();
    pt.cache_bytes_used = kv_cache_bytes(config, prompt + n - 1);
    ProgressFn part;
    if (progress) {
      part = [&, i](double fraction) {
        return progress((static_cast<double>(i) + fraction) / static_cast<double>(lengths.size()));
      };
    }
    const InterleavedStats run = run_interleaved(
        {[&] { decoder.generate(tokens, n, false); }, [&] { decoder.generate(tokens, n, true); }},
        options, clock, part);
    pt.recompute = run.stats[0];
    pt.cached = run.stats[1];
    const double nd = static_cast<double>(n);
    if (pt.recompute.median_ms > 0) pt.recompute_tokens_per_s = nd / pt.recompute.median_ms * 1e3;
    if (pt.cached.median_ms > 0) pt.cached_tokens_per_s = nd / pt.cached.median_ms * 1e3;
    pt.speedup = pt.cached.median_ms > 0 ? pt.recompute.median_ms / pt.cached.median_ms : 0.0;
    pt.flop_efficiency = pt.flop_ratio > 0 ? pt.speedup / pt.flop_ratio : 0.0;
    m.points.push_back(std::move(pt));
  }
  return m;
}

KvFlopAgreement kv_speedup_follows_flops(const KvCachePoint& point) {
  KvFlopAgreement a;
  a.efficiency = point.flop_ratio > 0 ? point.speedup / point.flop_ratio : 0.0;
  a.within = a.efficiency >= kKvEfficiencyLow && a.efficiency <= kKvEfficiencyHigh;
  a.sentence = "at " + std::to_string(point.tokens) + " tokens the speedup " +
               format_number(point.speedup) + "× is " + format_number(a.efficiency, 2) +
               " of the FLOP ratio " + format_number(point.flop_ratio) + "×, so it " +
               (a.within ? "follows" : "does not follow") + " the FLOP ratio (the lab counts " +
               format_number(kKvEfficiencyLow) + " to " + format_number(kKvEfficiencyHigh) +
               " of it as following)";
  if (!a.within) {
    a.sentence += a.efficiency < kKvEfficiencyLow
                      ? " (the cached steps ran far fewer FLOPs per second than recompute: "
                        "per-call overheads or a noisy machine)"
                      : " (the cached steps ran more FLOPs per second than recompute: a noisy "
                        "machine)";
  }
  return a;
}

// ---------------------------------------------------------------------------------------
// JSON

nlohmann::json to_json(const KvFlops& flops) {
  return {
      {"projections", flops.projections}, {"attention", flops.attention}, {"total", flops.total()}};
}

nlohmann::json to_json(const KvDecoderConfig& c) {
  return {{"name", KvDecoder::kName}, {"vocab", c.vocab},   {"d_model", c.d_model},
          {"heads", c.heads},         {"layers", c.layers}, {"d_ff", c.d_ff},
          {"context", c.context},     {"seed", c.seed}};
}

nlohmann::json to_json(const KvGeneration& g) {
  return {{"tokens", g.tokens},
          {"logits", g.logits},
          {"use_cache", g.use_cache},
          {"positions", g.positions},
          {"flops", to_json(g.flops)}};
}

nlohmann::json to_json(const KvCachePoint& p) {
  const KvFlopAgreement a = kv_speedup_follows_flops(p);
  return {{"tokens", p.tokens},
          {"recompute_tokens_per_s", p.recompute_tokens_per_s},
          {"cached_tokens_per_s", p.cached_tokens_per_s},
          {"speedup", p.speedup},
          {"flop_ratio", p.flop_ratio},
          {"flop_efficiency", p.flop_efficiency},
          {"follows_flops", a.within},
          {"follows_flops_sentence", a.sentence},
          {"logit_error", p.logit_error},
          {"recompute_flops", to_json(p.recompute_flops)},
          {"cached_flops", to_json(p.cached_flops)},
          {"cache_bytes_used", p.cache_bytes_used},
          {"recompute", to_json(p.recompute)},
          {"cached", to_json(p.cached)}};
}

nlohmann::json to_json(const KvCacheMeasurement& m) {
  nlohmann::json points = nlohmann::json::array();
  for (const KvCachePoint& p : m.points) points.push_back(to_json(p));
  return {{"config", to_json(m.config)},
          {"prompt", m.prompt},
          {"parameter_bytes", m.parameter_bytes},
          {"cache_bytes", m.cache_bytes},
          {"points", std::move(points)}};
}

}  // namespace perflab
