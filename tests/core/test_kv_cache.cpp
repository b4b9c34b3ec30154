// Generation with and without a KV cache (optimize/kv_cache.hpp): the attention is causal (a
// later token never moves an earlier position's logits), the cached generation gives the
// recomputed one's tokens and logits, the FLOP formulas equal what the code counted as it ran
// and a count worked by hand, the cache's bytes, the refusals' sentences, and a measurement's
// fields on a tiny budget (its times are never asserted).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/optimize/kv_cache.hpp"
#include "timer_helpers.hpp"

using namespace perflab;

namespace {

KvDecoderConfig tiny(std::size_t d_model = 8, std::size_t heads = 2, std::size_t layers = 2) {
  KvDecoderConfig c;
  c.vocab = 17;
  c.d_model = d_model;
  c.heads = heads;
  c.layers = layers;
  c.d_ff = 12;
  c.context = 24;
  c.seed = 7;
  return c;
}

double max_abs_diff(const float* a, const float* b, std::size_t n) {
  double d = 0;
  for (std::size_t i = 0; i < n; ++i) d = std::max(d, std::fabs(static_cast<double>(a[i]) - b[i]));
  return d;
}

double normwise(const std::vector<float>& got, const std::vector<float>& ref) {
  double scale = 0;
  for (float v : ref) scale = std::max(scale, std::fabs(static_cast<double>(v)));
  return max_abs_diff(got.data(), ref.data(), got.size()) / scale;
}

}  // namespace

TEST_CASE(
    "Attention is causal: changing a token moves its own and later logits, never earlier ones") {
  KvDecoder decoder(tiny());
  const std::size_t V = decoder.config().vocab;
  const std::vector<int> a = {3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<int> b = a;
  b[5] = 10;
  const std::vector<float> la = decoder.forward_logits(a);
  const std::vector<float> lb = decoder.forward_logits(b);
  REQUIRE(la.size() == a.size() * V);
  REQUIRE(lb.size() == a.size() * V);
  for (std::size_t t = 0; t < a.size(); ++t) {
    CAPTURE(t);
    const double d = max_abs_diff(la.data() + t * V, lb.data() + t * V, V);
    if (t < 5) {
      CHECK(d == 0.0);  // positions before the change see none of it
    } else {
      CHECK(d > 1e-4);  // the changed position and every later one do
    }
  }
}

TEST_CASE("The full forward's last row is what the first generation step chooses from") {
  KvDecoder decoder(tiny());
  const std::size_t V = decoder.config().vocab;
  const std::vector<int> prompt = {2, 7, 1, 8};
  const std::vector<float> all = decoder.forward_logits(prompt);
  for (bool cache : {false, true}) {
    CAPTURE(cache);
    const KvGeneration g = decoder.generate(prompt, 1, cache);
    REQUIRE(g.logits.size() == V);
    CHECK(max_abs_diff(g.logits.data(), all.data() + 3 * V, V) == 0.0);
    const auto best = std::max_element(all.begin() + 3 * V, all.end()) - (all.begin() + 3 * V);
    CHECK(g.tokens == std::vector<int>{static_cast<int>(best)});
  }
}

TEST_CASE("Cached generation gives the recomputed tokens and logits, for several shapes") {
  // d_head 4 (the SIMD width), 5 and 3 (scalar tails), one and three layers.
  const std::vector<KvDecoderConfig> configs = {tiny(8, 2, 2), tiny(10, 2, 1), tiny(9, 3, 3)};
  const std::vector<std::vector<int>> prompts = {{0}, {5, 5, 5}, {16, 3, 9, 12, 0, 4, 11}};
  for (const KvDecoderConfig& c : configs) {
    KvDecoder decoder(c);
    for (const auto& prompt : prompts) {
      for (std::size_t n : {1, 2, 9, 17}) {
        CAPTURE(c.d_model);
        CAPTURE(c.heads);
        CAPTURE(prompt.size());
        CAPTURE(n);
        const KvGeneration slow = decoder.generate(prompt, n, false);
        const KvGeneration fast = decoder.generate(prompt, n, true);
        REQUIRE(slow.tokens.size() == n);
        CHECK(fast.tokens == slow.tokens);
        CHECK(normwise(fast.logits, slow.logits) <= kKvLogitTolerance);
        CHECK_FALSE(slow.use_cache);
        CHECK(fast.use_cache);
        // The cache really was used: one position per step after the prompt.
        CHECK(fast.positions == prompt.size() + n - 1);
        CHECK(slow.positions == n * prompt.size() + n * (n - 1) / 2);
      }
    }
  }
}

TEST_CASE("A generation does not depend on the one before it (the cache is rebuilt per call)") {
  KvDecoder decoder(tiny());
  const KvGeneration first = decoder.generate({1, 2, 3}, 6, true);
  decoder.generate({16, 15, 14, 13, 12}, 10, true);  // fills more of the cache, differently
  const KvGeneration again = decoder.generate({1, 2, 3}, 6, true);
  CHECK(again.tokens == first.tokens);
  CHECK(again.logits == first.logits);
  // And the seed matters: another seed draws other weights.
  KvDecoderConfig other = tiny();
  other.seed = 8;
  KvDecoder reseeded(other);
  CHECK(reseeded.generate({1, 2, 3}, 6, true).logits != first.logits);
}

TEST_CASE("FLOPs by formula equal what the code counted as it ran, in both modes") {
  for (const KvDecoderConfig& c : {tiny(8, 2, 2), tiny(9, 3, 3)}) {
    KvDecoder decoder(c);
    for (std::size_t p : {1, 4}) {
      for (std::size_t n : {1, 3, 12}) {
        const std::vector<int> prompt(p, 3);
        for (bool cache : {false, true}) {
          CAPTURE(c.d_model);
          CAPTURE(p);
          CAPTURE(n);
          CAPTURE(cache);
          const KvFlops formula = kv_generation_flops(c, p, n, cache);
          const KvFlops counted = decoder.generate(prompt, n, cache).flops;
          CHECK(formula.projections == counted.projections);
          CHECK(formula.attention == counted.attention);
        }
      }
    }
  }
}

TEST_CASE("FLOPs of a tiny generation worked by hand") {
  // D 4, F 8, L 1, V 5, prompt 2, 3 new tokens. Per position the block products are
  // 2·4·12 + 2·4·4 + 2·4·8 + 2·8·4 = 96 + 32 + 64 + 64 = 256; the logits 2·4·5 = 40 a step.
  KvDecoderConfig c;
  c.vocab = 5;
  c.d_model = 4;
  c.heads = 1;
  c.layers = 1;
  c.d_ff = 8;
  c.context = 8;
  // Recompute runs 2, 3 and 4 positions: 9 positions, 9·256 + 3·40 = 2424; attention
  // 4·D·(1+2 + 1+2+3 + 1+2+3+4) = 16·19 = 304.
  const KvFlops slow = kv_generation_flops(c, 2, 3, false);
  CHECK(slow.projections == 2424);
  CHECK(slow.attention == 304);
  CHECK(slow.total() == 2728);
  // Cached runs positions 0, 1 (prefill), 2, 3: 4·256 + 3·40 = 1144; attention
  // 16·(1 + 2 + 3 + 4) = 160.
  const KvFlops fast = kv_generation_flops(c, 2, 3, true);
  CHECK(fast.projections == 1144);
  CHECK(fast.attention == 160);
  // The orders: at n = 256 from one token, recompute's projections grow as n², attention
  // as n³; doubling n from 128 multiplies them by about 4 and 8, the cached ones by 2 and 4.
  const KvDecoderConfig d;
  const KvFlops r128 = kv_generation_flops(d, 1, 128, false),
                r256 = kv_generation_flops(d, 1, 256, false);
  const KvFlops c128 = kv_generation_flops(d, 1, 128, true),
                c256 = kv_generation_flops(d, 1, 256, true);
  CHECK(r256.attention / r128.attention == doctest::Approx(8).epsilon(0.03));
  CHECK(r256.projections / r128.projections == doctest::Approx(4).epsilon(0.03));
  CHECK(c256.attention / c128.attention == doctest::Approx(4).epsilon(0.03));
  CHECK(c256.projections / c128.projections == doctest::Approx(2).epsilon(0.03));
}

TEST_CASE("The cache's bytes, the weights' bytes and where the cache passes a budget") {
  const KvDecoderConfig d;  // L 2, D 128, context 512
  CHECK(kv_cache_bytes(d, 1) == 2 * 2 * 128 * 4);
  CHECK(kv_cache_bytes(d, 512) == 1048576);
  KvDecoder decoder(d);
  CHECK(decoder.cache_bytes() == 1048576);
  // tok 256·128 + pos 512·128 + 2 blocks (qkv 128·384 + 384, out 128·128 + 128, up 128·512
  // + 512, down 512·128 + 128, two LayerNorms 4·128) + final LayerNorm 2·128 + logits
  // 128·256.
  const std::size_t block =
      128 * 384 + 384 + 128 * 128 + 128 + 128 * 512 + 512 + 512 * 128 + 128 + 4 * 128;
  CHECK(decoder.parameter_count() == 256 * 128 + 512 * 128 + 2 * block + 2 * 128 + 128 * 256);
  CHECK(decoder.parameter_bytes() == 2111488);
  // 2 KiB a token: 1 GiB lasts 524288 tokens, the weights 1031 (exactly equal there).
  CHECK(kv_cache_limit_tokens(d, std::size_t{1} << 30) == 524289);
  CHECK(kv_cache_limit_tokens(d, decoder.parameter_bytes()) == 1032);
  CHECK(kv_cache_limit_tokens(d, 0) == 1);
  KvDecoderConfig deep = d;
  deep.layers = 4;
  CHECK(kv_cache_limit_tokens(deep, std::size_t{1} << 30) == 262145);
}

TEST_CASE("Bad sizes and tokens are refused with sentences") {
  KvDecoderConfig c = tiny();
  c.heads = 3;
  CHECK_THROWS_WITH_AS(c.validate(), "kv decoder: heads (3) must divide d_model (8)", ValueError);
  c = tiny();
  c.vocab = 1;
  CHECK_THROWS_WITH_AS(c.validate(), "kv decoder: vocab must be between 2 and 16384, got 1",
                       ValueError);
  c = tiny();
  c.context = 0;
  CHECK_THROWS_WITH_AS(KvDecoder{c}, "kv decoder: context must be between 1 and 4096, got 0",
                       ValueError);
  c = tiny();
  c.layers = 13;
  CHECK_THROWS_WITH_AS(c.validate(), "kv decoder: layers must be between 1 and 12, got 13",
                       ValueError);
  c = tiny();
  c.vocab = 16384;
  c.d_model = 1024;
  c.d_ff = 4096;
  c.layers = 12;
  CHECK_THROWS_WITH_AS(c.validate(),
                       "kv decoder: the weights would take 704.7 MiB, more than the 256.0 MiB "
                       "allowed; lower vocab, d_model, d_ff, layers or context",
                       ValueError);

  KvDecoder decoder(tiny());  // context 24
  CHECK_THROWS_WITH_AS(decoder.generate({}, 3, true),
                       "kv decoder: the prompt is empty; give at least one token to continue from",
                       ValueError);
  CHECK_THROWS_WITH_AS(decoder.generate({1}, 0, false),
                       "kv decoder: n_new must be at least 1 (the number of tokens to generate), "
                       "got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(decoder.generate({1, 2, 3, 4}, 21, true),
                       "kv decoder: the prompt (4 tokens) and the 21 new tokens make 25 positions, "
                       "more than the context of 24; generate at most 20 tokens after this "
                       "prompt, or raise context",
                       ValueError);
  CHECK_THROWS_WITH_AS(decoder.generate({1, 17}, 2, true),
                       "kv decoder: prompt[1] is 17, outside the vocabulary [0, 17)", ValueError);
  CHECK_THROWS_WITH_AS(decoder.generate({-1}, 2, false),
                       "kv decoder: prompt[0] is -1, outside the vocabulary [0, 17)", ValueError);
  CHECK_THROWS_WITH_AS(decoder.forward_logits(std::vector<int>(25, 0)),
                       "kv decoder: the sequence has 25 tokens, more than the context of 24; give "
                       "at most 24",
                       ValueError);
  CHECK_THROWS_WITH_AS(kv_generation_flops(tiny(), 0, 4, true),
                       "kv decoder: the prompt is empty; give at least one token to continue from",
                       ValueError);

  const TimerOptions o = timer_test::tiny_timer();
  CHECK_THROWS_WITH_AS(measure_kv_cache(tiny(), 4, {}, o),
                       "kv cache measurement: give between 1 and 16 generated lengths, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_kv_cache(tiny(), 4, {2, 21}, o),
                       "kv cache measurement: a generated length must be between 1 and 20 (the "
                       "context of 24 less the prompt of 4), got 21",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_kv_cache(tiny(), 24, {1}, o),
                       "kv cache measurement: a prompt of 24 tokens leaves no room in the context "
                       "of 24; use a prompt of at most 23 tokens",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_kv_cache(tiny(), 0, {1}, o),
                       "kv cache measurement: prompt must be at least 1 token, got 0", ValueError);
}

TEST_CASE("A measurement at tiny sizes returns sane fields, and its JSON names them") {
  const KvDecoderConfig c = tiny();
  const KvCacheMeasurement m = measure_kv_cache(c, 3, {2, 8}, timer_test::tiny_timer());
  CHECK(m.prompt == 3);
  CHECK(m.cache_bytes == kv_cache_bytes(c, c.context));
  CHECK(m.parameter_bytes == KvDecoder(c).parameter_bytes());
  REQUIRE(m.points.size() == 2);
  for (const KvCachePoint& p : m.points) {
    CAPTURE(p.tokens);
    CHECK(p.recompute.samples > 0);
    CHECK(p.cached.samples > 0);
    CHECK(p.recompute_tokens_per_s == doctest::Approx(p.tokens / p.recompute.median_ms * 1e3));
    CHECK(p.cached_tokens_per_s == doctest::Approx(p.tokens / p.cached.median_ms * 1e3));
    CHECK(p.speedup == doctest::Approx(p.recompute.median_ms / p.cached.median_ms));
    CHECK(p.recompute_flops == kv_generation_flops(c, 3, p.tokens, false));
    CHECK(p.cached_flops == kv_generation_flops(c, 3, p.tokens, true));
    CHECK(p.flop_ratio == doctest::Approx(p.recompute_flops.total() / p.cached_flops.total()));
    CHECK(p.flop_efficiency == doctest::Approx(p.speedup / p.flop_ratio));
    CHECK(p.logit_error <= kKvLogitTolerance);
    CHECK(p.cache_bytes_used == kv_cache_bytes(c, 3 + p.tokens - 1));
  }
  CHECK(m.points[0].tokens == 2);
  CHECK(m.points[1].flop_ratio > m.points[0].flop_ratio);  // recompute's waste grows with n
  const nlohmann::json j = to_json(m);
  CHECK(j["config"]["name"] == "kv-decoder");
  CHECK(j["config"]["d_model"] == 8);
  CHECK(j["points"].size() == 2);
  CHECK(j["points"][1]["tokens"] == 8);
  CHECK(j["points"][1]["cached_flops"]["total"] == m.points[1].cached_flops.total());
  CHECK(j["points"][1]["recompute"].contains("median_ms"));
  CHECK(j["points"][1]["follows_flops"].is_boolean());
  // Cancelling through progress stops the run.
  CHECK_THROWS_AS(measure_kv_cache(c, 3, {2}, timer_test::tiny_timer(), default_clock(),
                                   [](double) { return false; }),
                  CancelledError);
}

TEST_CASE("The speedup follows the FLOP ratio within the stated band") {
  KvCachePoint p;
  p.tokens = 256;
  p.flop_ratio = 100;
  p.speedup = 60;
  const KvFlopAgreement in = kv_speedup_follows_flops(p);
  CHECK(in.within);
  CHECK(in.efficiency == doctest::Approx(0.6));
  CHECK(in.sentence ==
        "at 256 tokens the speedup 60× is 0.6 of the FLOP ratio 100×, so it follows the FLOP "
        "ratio (the lab counts 0.25 to 1.25 of it as following)");
  p.speedup = 20;
  CHECK(kv_speedup_follows_flops(p).sentence.find("so it does not follow the FLOP ratio (the lab "
                                                  "counts 0.25 to 1.25 of it as following) (") !=
        std::string::npos);
  p.speedup = 20;
  CHECK_FALSE(kv_speedup_follows_flops(p).within);
  p.speedup = 130;
  CHECK_FALSE(kv_speedup_follows_flops(p).within);
  p.speedup = 125;
  CHECK(kv_speedup_follows_flops(p).within);
  const KvGeneration g = KvDecoder(tiny()).generate({1, 2}, 3, true);
  const nlohmann::json j = to_json(g);
  CHECK(j["tokens"].size() == 3);
  CHECK(j["logits"].size() == 17);
  CHECK(j["positions"] == 4);
  CHECK(j["flops"]["attention"] == g.flops.attention);
}
