// The KV cache experiment's point (optimize/kv_cache_point.hpp) and the plans of the
// Optimization chapter's KV cache and int8 experiments: a decoder config read from the page's
// JSON (defaults for missing fields, each wrong field refused by name), one measured length as
// a row whose counts agree with kv_cache.hpp's formulas (times never asserted), and plans the
// functions they feed accept.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/optimize/kv_cache_point.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "timer_helpers.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

json tiny_decoder() {
  return {{"vocab", 17}, {"d_model", 8}, {"heads", 2}, {"layers", 2},
          {"d_ff", 12},  {"context", 24}, {"seed", 7}};
}

}  // namespace

TEST_CASE("A decoder config reads to_json's fields, takes defaults for missing ones") {
  const KvDecoderConfig c = kv_decoder_config_from_json(tiny_decoder());
  CHECK(c.vocab == 17);
  CHECK(c.d_model == 8);
  CHECK(c.heads == 2);
  CHECK(c.layers == 2);
  CHECK(c.d_ff == 12);
  CHECK(c.context == 24);
  CHECK(c.seed == 7);
  // Round trip through to_json (which writes the name too).
  const KvDecoderConfig back = kv_decoder_config_from_json(to_json(c));
  CHECK(to_json(back) == to_json(c));
  const KvDecoderConfig defaults = kv_decoder_config_from_json(json::object());
  CHECK(to_json(defaults) == to_json(KvDecoderConfig{}));
}

TEST_CASE("A decoder config refuses a wrong field by name") {
  CHECK_THROWS_WITH_AS(kv_decoder_config_from_json(json::array()),
                       "decoder must be an object {vocab, d_model, heads, layers, d_ff, context, "
                       "seed}, got []",
                       ValueError);
  CHECK_THROWS_WITH_AS(kv_decoder_config_from_json({{"width", 3}}),
                       "decoder has an unknown field \"width\"; the fields are vocab, d_model, "
                       "heads, layers, d_ff, context, seed (and name)",
                       ValueError);
  CHECK_THROWS_AS(kv_decoder_config_from_json({{"layers", -1}}), ValueError);
  CHECK_THROWS_AS(kv_decoder_config_from_json({{"layers", 1.5}}), ValueError);
  CHECK_THROWS_AS(kv_decoder_config_from_json({{"d_model", "128"}}), ValueError);
  CHECK_THROWS_AS(kv_decoder_config_from_json({{"name", "gpt"}}), ValueError);
  // validate()'s own sentence: heads must divide d_model.
  json odd = tiny_decoder();
  odd["heads"] = 3;
  CHECK_THROWS_AS(kv_decoder_config_from_json(odd), ValueError);
}

TEST_CASE("One measured length is a row whose counts are kv_cache.hpp's formulas") {
  const KvDecoderConfig c = kv_decoder_config_from_json(tiny_decoder());
  const json row = measure_kv_cache_point(c, 3, 6, timer_test::tiny_timer());
  CHECK(row["tokens"] == 6);
  CHECK(row["prompt"] == 3);
  CHECK(row["positions"] == 8);
  CHECK(row["decoder"] == to_json(c));
  CHECK(row["cache_bytes_per_token"] == 2 * 2 * 8 * 4);
  CHECK(row["cache_bytes_used"] == kv_cache_bytes(c, 8));
  CHECK(row["cache_bytes_allocated"] == kv_cache_bytes(c, 24));
  CHECK(row["parameter_bytes"].get<std::size_t>() > 0);
  const KvFlops rec = kv_generation_flops(c, 3, 6, false);
  const KvFlops cac = kv_generation_flops(c, 3, 6, true);
  CHECK(row["recompute_flops"]["total"].get<double>() == doctest::Approx(rec.total()));
  CHECK(row["cached_flops"]["total"].get<double>() == doctest::Approx(cac.total()));
  CHECK(row["flop_ratio"].get<double>() == doctest::Approx(rec.total() / cac.total()));
  CHECK(row["logit_error"].get<double>() <= kKvLogitTolerance);
  CHECK(row["recompute"].contains("median_ms"));
  CHECK(row["cached"].contains("median_ms"));
}

TEST_CASE("A point refuses a length the context cannot hold, naming the limit") {
  const KvDecoderConfig c = kv_decoder_config_from_json(tiny_decoder());
  CHECK_THROWS_WITH_AS(measure_kv_cache_point(c, 4, 21, timer_test::tiny_timer()),
                       "kv cache measurement: a generated length must be between 1 and 20 (the "
                       "context of 24 less the prompt of 4), got 21",
                       ValueError);
  CHECK_THROWS_AS(measure_kv_cache_point(c, 0, 2, timer_test::tiny_timer()), ValueError);
}

TEST_CASE("experiment plan optimization-kv-cache: core's decoder, lengths that fit its context") {
  for (const bool quick : {false, true}) {
    CAPTURE(quick);
    const json plan = experiment_plan("optimization-kv-cache", quick);
    const KvDecoderConfig c = kv_decoder_config_from_json(plan["decoder"]);
    CHECK(to_json(c) == to_json(KvDecoderConfig{}));
    const std::size_t prompt = plan["prompt"].get<std::size_t>();
    const json& lengths = plan["lengths"];
    REQUIRE(lengths.size() >= 2);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      if (i > 0) CHECK(lengths[i].get<std::size_t>() > lengths[i - 1].get<std::size_t>());
      CHECK(prompt + lengths[i].get<std::size_t>() <= c.context);
    }
    TimerOptions options;
    for (const auto& [key, value] : plan["options"].items()) {
      CHECK(read_timer_option(options, key, value, "options." + key));
    }
    CHECK_NOTHROW(options.validate());
    // The longest recomputed generation fits the budget (what measure_kv_cache checks first).
    CHECK_NOTHROW(check_call_fits_budget(
        kv_generation_flops(c, prompt, lengths.back().get<std::size_t>(), false).total(), "kv",
        options));
  }
  const json full = experiment_plan("optimization-kv-cache", false);
  const json quick = experiment_plan("optimization-kv-cache", true);
  CHECK(full["lengths"].back().get<std::size_t>() >= 256);
  CHECK(quick["lengths"].back().get<std::size_t>() < full["lengths"].back().get<std::size_t>());
  CHECK(quick["options"]["max_total_ms"].get<double>() <
        full["options"]["max_total_ms"].get<double>());
}

TEST_CASE("experiment plan optimization-int8: fashion_mlp's Linears at batch 256, known variants") {
  const json full = experiment_plan("optimization-int8", false);
  const json quick = experiment_plan("optimization-int8", true);
  std::size_t linears = 0;
  for (const json& layer : zoo_spec("fashion_mlp")["layers"]) linears += layer["type"] == "Linear";
  CHECK(full["shapes"].size() == linears);
  CHECK(quick["shapes"].size() < full["shapes"].size());
  for (const json* plan : {&full, &quick}) {
    REQUIRE((*plan)["shapes"].size() >= 1);
    for (const json& s : (*plan)["shapes"]) {
      CHECK(s["batch"] == 256);
      CHECK(s["in"].get<std::size_t>() <= kMaxInt8Dimension);
      CHECK(s["out"].get<std::size_t>() <= kMaxInt8Dimension);
    }
    for (const json& v : (*plan)["variants"]) {
      CHECK_NOTHROW(find_int8_linear_variant(v.get<std::string>()));
    }
  }
  CHECK(full["shapes"][0]["in"] == 784);
  CHECK(quick["options"]["max_total_ms"].get<double>() <
        full["options"]["max_total_ms"].get<double>());
}
