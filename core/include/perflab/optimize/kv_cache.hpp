// Autoregressive generation with and without a KV cache, on a small decoder-only transformer
// with random weights (the point is cost, not text): greedy generation that recomputes the
// whole prefix at every step, the same generation reading past keys and values from a cache,
// checked to give the same tokens and logits, their exact FLOP counts over a whole generation,
// the cache's memory, and a measurement of both with the interleaved timer.
// Not for: training, sampling strategies other than argmax, batching several sequences, or a
// model-spec layer type (the decoder is a core struct with its own forward).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/timing/timer.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// The decoder. Dimension names: V vocabulary, D d_model, H heads (d_head = D / H), L layers,
// F d_ff (the MLP's hidden width), C context (the longest sequence, positions 0 .. C−1).
//   x_t   = tok[token_t] + pos[t]                        tok (V, D), pos (C, D)
//   for each of the L pre-norm blocks:
//     q, k, v = split(LN1(x)·Wqkv + bqkv)                Wqkv (D, 3D), as GPT-2's c_attn
//     a_t   = concat over heads of Σ_{j ≤ t} softmax_j(q_t,h·k_j,h / √d_head)·v_j,h
//     x     = x + a·Wo + bo                              Wo (D, D)
//     x     = x + GELU(LN2(x)·W1 + b1)·W2 + b2          W1 (D, F), W2 (F, D)
//   logits_t = LNf(x_t)·Wout                             Wout (D, V), no bias
// Attention is causal: position t attends to positions 0..t only, so a position's output
// never depends on a later token, and its keys and values never change once computed (what
// makes caching them correct). Weights are Linear's layout (in, out), y = x·W + b.
struct KvDecoderConfig {
  std::size_t vocab = 256;
  std::size_t d_model = 128;
  std::size_t heads = 4;
  std::size_t layers = 2;
  std::size_t d_ff = 512;
  std::size_t context = 512;
  std::uint64_t seed = 1;
  // ValueError naming the field, its value and the allowed range (kKvLimits below), "heads
  // (5) must divide d_model (128)", or parameters above kMaxKvParameterBytes.
  void validate() const;
};
// Why these defaults: a recomputed generation of 256 new tokens after an 8-token prompt is
// 30 GFLOP, seconds on one core (measurable, not minutes), while one cached step is about
// 1 MFLOP, long enough that per-call overheads (allocations, kernel calls) stay small beside
// it.

// Allowed ranges, each from 1 (vocab from 2: argmax needs a choice) to these.
inline constexpr std::size_t kMaxKvVocab = 16384;
inline constexpr std::size_t kMaxKvDModel = 1024;
inline constexpr std::size_t kMaxKvLayers = 12;
inline constexpr std::size_t kMaxKvDff = 4096;
inline constexpr std::size_t kMaxKvContext = 4096;
// Weights of a decoder above this are refused (the page's memory is capped at 1 GiB).
inline constexpr std::size_t kMaxKvParameterBytes = std::size_t{256} << 20;

// Matmul FLOPs by the lab's convention (2 per multiply-accumulate; bias adds, LayerNorm,
// GELU, softmax and the attention scale not counted), split into:
//   projections  the QKV, output and MLP products of every block, and the logits;
//   attention    the scores q·kᵀ and the weighted sum of values, over the keys each query
//                sees (causal: a query at position t reads t + 1 keys).
struct KvFlops {
  double projections = 0;
  double attention = 0;
  double total() const { return projections + attention; }
  friend bool operator==(const KvFlops&, const KvFlops&) = default;
};

// One greedy generation. tokens: the n new tokens, each the argmax of the logits before it.
// logits: the V logits of the last step (those token n was chosen from). flops: what the run
// executed, counted by the code that ran it (kv_generation_flops gives the same by formula).
// positions: rows that went through the blocks.
struct KvGeneration {
  std::vector<int> tokens;
  std::vector<float> logits;
  bool use_cache = false;
  std::size_t positions = 0;
  KvFlops flops;
};

// The decoder and its cache. Per layer the cache holds K and V of every past position,
// (C, D) each, allocated once at construction for the whole context (kv_cache_bytes(config,
// C) bytes) so a generation never reallocates it.
// Not copyable (it owns layers); not thread-safe.
class KvDecoder {
 public:
  // Validates config; weights drawn from config.seed, one derived seed per tensor.
  explicit KvDecoder(const KvDecoderConfig& config = {});
  ~KvDecoder();
  KvDecoder(const KvDecoder&) = delete;
  KvDecoder& operator=(const KvDecoder&) = delete;

  static constexpr const char* kName = "kv-decoder";
  // One sentence for the page.
  static std::string description();
  const KvDecoderConfig& config() const { return config_; }
  std::size_t parameter_count() const;
  std::size_t parameter_bytes() const { return parameter_count() * sizeof(float); }
  // The cache as allocated: kv_cache_bytes(config, context).
  std::size_t cache_bytes() const;

  // Greedy generation of n_new tokens after the prompt.
  //   recompute (use_cache false): step s runs the full causal forward over all p + s − 1
  //     tokens so far, keys and values of every position computed again;
  //   cached (use_cache true): step 1 runs the prompt once and stores its keys and values
  //     (prefill); every later step runs only the newest token, appends its key and value
  //     and attends over the cache.
  // Both read logits of the last position only, and the last new token is never run (nothing
  // reads its logits). Recompute holds its forward's keys and values in the same buffers as
  // the cache, written from position 0 at every step: a step reads nothing an earlier step
  // wrote, so the two modes differ only in what they recompute, not in memory layout. ValueError: an empty prompt, n_new 0, prompt + n_new above the
  // context, a token outside [0, V).
  KvGeneration generate(const std::vector<int>& prompt, std::size_t n_new, bool use_cache);

  // The full causal forward of a sequence: logits (T, V) of every position, row-major.
  // What the causal-mask test reads; same errors as generate.
  std::vector<float> forward_logits(const std::vector<int>& tokens);

 private:
  struct Block;
  // Runs positions [start, start + rows) of tokens through the model, writing their keys and
  // values into the caches at those rows and attending over cache rows 0..t. Logits of the
  // last row only (or of every row when all_logits), into logits.
  void run_positions(const std::vector<int>& tokens, std::size_t start, std::size_t rows,
                     bool all_logits, std::vector<float>& logits);
  void check_tokens(const std::vector<int>& tokens, const char* what) const;

  KvDecoderConfig config_;
  // Behind pointers: Layer members make a Block immovable, and the header stays free of
  // layers.hpp.
  std::vector<std::unique_ptr<Block>> blocks_;
  struct Head;
  std::unique_ptr<Head> head_;  // embeddings, final LayerNorm, output projection
  KvFlops counted_;             // FLOPs executed since the last reset (generate resets it)
};

// ---------------------------------------------------------------------------------------
// Counts. With p the prompt length, n new tokens, D, F, L, V as above, and per position and
// layer the block products P = 2·D·3D + 2·D·D + 2·D·F + 2·F·D = 8D² + 4DF:
//   recompute  step s (1..n) runs T_s = p + s − 1 positions:
//     projections = L·P·Σ T_s + n·2DV,            Σ T_s = n·p + n(n − 1)/2       O(n²)
//     attention   = 4DL·Σ_s T_s(T_s + 1)/2 = 4DL·(Te(p + n − 1) − Te(p − 1))      O(n³)
//                   Te(m) = m(m + 1)(m + 2)/6, the tetrahedral numbers
//   cached     p positions once, then one per step for steps 2..n: N = p + n − 1 positions:
//     projections = L·P·N + n·2DV                                                 O(n)
//     attention   = 4DL·Σ_{t=0}^{N−1}(t + 1) = 4DL·N(N + 1)/2                     O(n²)
// A query at position t costs 4D(t + 1) per layer: 2·d_head·(t + 1) for its scores and as
// much for the weighted sum, in each of H heads. The logits are one row per step (2DV) in
// both modes. Throws what generate throws for bad sizes (no tokens needed).
KvFlops kv_generation_flops(const KvDecoderConfig& config, std::size_t prompt, std::size_t n_new,
                            bool use_cache);

// The cache's bytes for T positions: K and V, L layers, D floats each: 2·L·T·D·4.
std::size_t kv_cache_bytes(const KvDecoderConfig& config, std::size_t tokens);
// Where memory becomes the limit: the first sequence length whose cache needs more than
// budget_bytes, floor(budget / (8·L·D)) + 1. The cache grows linearly with the sequence while
// the weights stay fixed, so at long contexts (or many sequences at once) it, not the
// weights, fills memory; with budget = parameter_bytes() this is the length at which the cache
// outgrows the weights. The defaults need 2 KiB per token: 1 GiB lasts 524288 tokens, the
// weights' 1.7 MiB are passed at 860 tokens. (A 7B model in float16, L = 32, D = 4096, needs
// 512 KiB per token: 16 GiB at 32768 tokens, as much as its weights.) ValueError for a bad
// config.
std::size_t kv_cache_limit_tokens(const KvDecoderConfig& config, std::size_t budget_bytes);

// Logits of the two modes agree within this normwise error, max |cached − recomputed| /
// max |recomputed|: the same kernels run the same sums in the same order, so they agree to
// the last bit on the builds checked, and this only leaves room for a compiler that
// contracts differently in the one-row and many-row paths.
inline constexpr double kKvLogitTolerance = 1e-5;

// ---------------------------------------------------------------------------------------
// Measurement: for each generated length n, both modes timed with run_interleaved (each
// round one recomputed and one cached generation of n tokens from the same prompt, so a
// machine that slows down slows both), after checking they agree (tokens equal, logits within
// kKvLogitTolerance). Each round runs recompute, then cached (run_interleaved's fixed order);
// run_ab, which shuffles the order per round, caps a whole run at kMaxAbTotalMs (6 s), less
// than a few recomputed generations of 256 tokens.
struct KvCachePoint {
  std::size_t tokens = 0;             // n, generated
  double recompute_tokens_per_s = 0;  // n / median
  double cached_tokens_per_s = 0;
  double speedup = 0;          // recompute median / cached median
  double flop_ratio = 0;       // recompute FLOPs / cached FLOPs
  double flop_efficiency = 0;  // speedup / flop_ratio: 1 when time follows FLOPs exactly
  double logit_error = 0;      // normwise, as kKvLogitTolerance
  KvFlops recompute_flops, cached_flops;
  std::size_t cache_bytes_used = 0;  // kv_cache_bytes at p + n − 1 positions
  Stats recompute, cached;
};
struct KvCacheMeasurement {
  KvDecoderConfig config;
  std::size_t prompt = 0;
  std::size_t parameter_bytes = 0;
  std::size_t cache_bytes = 0;  // as allocated, for the whole context
  std::vector<KvCachePoint> points;
};
// Limits of a measurement: up to this many lengths.
inline constexpr std::size_t kMaxKvMeasureLengths = 16;
// prompt: a seeded random prompt of this many tokens. ValueError: a bad config, prompt 0, no
// lengths or more than kMaxKvMeasureLengths, a length 0 or above context − prompt, a
// recomputed generation that cannot fit options' time budget (check_call_fits_budget).
// Error when the two modes disagree. progress: the fraction over all lengths; false cancels.
KvCacheMeasurement measure_kv_cache(const KvDecoderConfig& config, std::size_t prompt,
                                    const std::vector<std::size_t>& lengths,
                                    const TimerOptions& options, Clock& clock = default_clock(),
                                    const ProgressFn& progress = nullptr);

// Does the measured speedup follow the FLOP ratio? Time is FLOPs over the rate each mode
// computes them at, so speedup = flop_ratio × (cached rate / recompute rate). The rates
// differ: a cached step multiplies one row by each weight matrix, recompute many rows. The
// many-row products keep 8 vector sums going in the packed kernel; the one-row product (the
// unpacked simd kernel, faster than packed for one row) keeps two, each multiply-add waiting
// on the one before, and is most of a cached step's time. So the cached mode runs fewer FLOPs
// per second and the speedup falls short of the FLOP ratio. Stated tolerance:
// flop_efficiency (speedup / flop_ratio) within [kKvEfficiencyLow, kKvEfficiencyHigh].
//   low 0.25: measured 0.44-0.80 natively over four runs at 16-256 tokens (0.44-0.51 at
//             256) and 0.32-0.48 in wasm over two (0.41 at 256; bench/bench_kv_cache.cpp,
//             one AMD EPYC core of a shared 2-core machine, 2026-12-01; docs/PERFORMANCE.md);
//             0.25 leaves room for noise and for machines whose caches hold less of the
//             weights;
//   high 1.25: above 1 the one-row steps would compute faster per FLOP than the many-row
//             products, which they cannot; 1.25 is the noise.
inline constexpr double kKvEfficiencyLow = 0.25;
inline constexpr double kKvEfficiencyHigh = 1.25;
struct KvFlopAgreement {
  bool within = false;
  double efficiency = 0;
  std::string sentence;  // "at 256 tokens the speedup 60× is 0.51 of the FLOP ratio 117×, ..."
};
KvFlopAgreement kv_speedup_follows_flops(const KvCachePoint& point);

// {projections, attention, total}.
nlohmann::json to_json(const KvFlops& flops);
// {name, vocab, d_model, heads, layers, d_ff, context, seed}.
nlohmann::json to_json(const KvDecoderConfig& config);
// {tokens, logits, use_cache, positions, flops}.
nlohmann::json to_json(const KvGeneration& generation);
// {tokens, recompute_tokens_per_s, cached_tokens_per_s, speedup, flop_ratio,
//  flop_efficiency, follows_flops, follows_flops_sentence, logit_error, recompute_flops,
//  cached_flops, cache_bytes_used, recompute: stats, cached: stats}.
nlohmann::json to_json(const KvCachePoint& point);
// {config, prompt, parameter_bytes, cache_bytes, points: [...]}.
nlohmann::json to_json(const KvCacheMeasurement& m);

}  // namespace perflab
