// KV cache benchmark: greedy generation by the default kv decoder (optimize/kv_cache.hpp) at
// 16, 64, 128 and 256 new tokens after an 8-token prompt, recomputing the prefix at every step
// and reading keys and values from the cache, each length verified (same tokens, same logits)
// and then both modes timed interleaved (one of each per round). Prints tokens/s both ways,
// the speedup (recompute median / cached median) beside the FLOP ratio, whether the speedup
// follows the FLOP ratio within the header's stated band, the cache's memory, and the floor:
// the cached generation at least 10× faster than recomputation at 256 tokens.
// Not a test: it asserts nothing and exits 0 unless the modes disagree or an argument is
// unknown. `--quick` shortens the budgets (a smoke run; its figures are noisy).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/optimize/kv_cache.hpp"
#include "perflab/tensor/memory.hpp"

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "unknown argument '%s'; usage: perflab_bench_kv_cache [--quick]\n",
                   argv[i]);
      return 2;
    }
  }
  const perflab::KvDecoderConfig config;  // the defaults
  constexpr std::size_t kPrompt = 8;
  const std::vector<std::size_t> lengths = {16, 64, 128, 256};
  constexpr std::size_t kFloorTokens = 256;
  constexpr double kFloorSpeedup = 10.0;

  // Each sample is one whole generation (a recomputed one of 256 tokens lasts seconds), so
  // few samples, a long budget, and no batching beyond one call.
  perflab::TimerOptions options;
  options.warmup = 1;
  options.samples = quick ? 3 : 9;
  options.min_sample_ms = 0.0;
  options.max_total_ms = quick ? 8000.0 : 40000.0;

  std::printf("perflab kv cache bench: simd backend %s, %s budgets\n", perflab::simd_backend(),
              quick ? "quick" : "full");
  std::printf(
      "decoder: V=%zu D=%zu H=%zu L=%zu d_ff=%zu context=%zu, prompt %zu tokens, "
      "greedy\n",
      config.vocab, config.d_model, config.heads, config.layers, config.d_ff, config.context,
      kPrompt);

  perflab::KvCacheMeasurement m;
  try {
    m = perflab::measure_kv_cache(config, kPrompt, lengths, options, perflab::default_clock(),
                                  [](double fraction) {
                                    std::fprintf(stderr, "\r%3.0f%%", 100.0 * fraction);
                                    return true;
                                  });
    std::fprintf(stderr, "\n");
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "\nbench failed: %s\n", e.what());
    return 1;
  }

  std::printf("\n%6s %15s %14s %9s %16s %10s %11s %9s %12s\n", "tokens", "recompute tok/s",
              "cached tok/s", "speedup", "speedup range", "FLOP ratio", "efficiency", "samples",
              "cache used");
  for (const perflab::KvCachePoint& p : m.points) {
    // The speedup's range from the two medians' 95% intervals: recompute's low end over
    // cached's high end, and the reverse (the widest the ratio can be).
    const double lo = p.recompute.ci95_low_ms / p.cached.ci95_high_ms;
    const double hi = p.recompute.ci95_high_ms / p.cached.ci95_low_ms;
    char range[40];
    std::snprintf(range, sizeof range, "%.1f-%.1fx", lo, hi);
    std::printf("%6zu %15.1f %14.1f %8.1fx %16s %9.1fx %11.2f %4zu/%-4zu %12s\n", p.tokens,
                p.recompute_tokens_per_s, p.cached_tokens_per_s, p.speedup, range, p.flop_ratio,
                p.flop_efficiency, p.recompute.samples, p.cached.samples,
                perflab::format_bytes(p.cache_bytes_used).c_str());
  }
  std::printf("\nFLOPs per generation (matmul FLOPs: projections + attention):\n");
  for (const perflab::KvCachePoint& p : m.points) {
    std::printf("  %3zu tokens  recompute %.3g + %.3g = %.3g   cached %.3g + %.3g = %.3g\n",
                p.tokens, p.recompute_flops.projections, p.recompute_flops.attention,
                p.recompute_flops.total(), p.cached_flops.projections, p.cached_flops.attention,
                p.cached_flops.total());
  }
  std::printf("\nspeedup against the FLOP ratio (stated band %.2f to %.2f of it):\n",
              perflab::kKvEfficiencyLow, perflab::kKvEfficiencyHigh);
  for (const perflab::KvCachePoint& p : m.points) {
    std::printf("  %s\n", perflab::kv_speedup_follows_flops(p).sentence.c_str());
  }

  std::printf(
      "\nmemory: weights %s; cache %s allocated for the context of %zu, %s per token; "
      "the cache passes the weights at %zu tokens and 1 GiB at %zu tokens\n",
      perflab::format_bytes(m.parameter_bytes).c_str(),
      perflab::format_bytes(m.cache_bytes).c_str(), config.context,
      perflab::format_bytes(perflab::kv_cache_bytes(config, 1)).c_str(),
      perflab::kv_cache_limit_tokens(config, m.parameter_bytes),
      perflab::kv_cache_limit_tokens(config, std::size_t{1} << 30));

  int warned = 0;
  std::string example;
  for (const perflab::KvCachePoint& p : m.points) {
    for (const perflab::Stats* s : {&p.recompute, &p.cached}) {
      if (s->warning.empty()) continue;
      ++warned;
      example = std::to_string(p.tokens) + " tokens: " + s->warning;
    }
  }
  if (warned > 0) {
    std::printf("%d figure%s flagged by the Timer, e.g. %s\n", warned,
                warned == 1 ? " was" : "s were", example.c_str());
  }
  for (const perflab::KvCachePoint& p : m.points) {
    if (p.tokens != kFloorTokens) continue;
    std::printf("\nfloor: >= %.0fx at %zu tokens: %s (%.1fx)\n", kFloorSpeedup, kFloorTokens,
                p.speedup >= kFloorSpeedup ? "met" : "not met", p.speedup);
  }
  return 0;
}
