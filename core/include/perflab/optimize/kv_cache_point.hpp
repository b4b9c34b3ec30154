// One point of the page's KV cache experiment (optimization-kv-cache): a decoder config read
// from the page's JSON, and one generated length measured by measure_kv_cache (verified
// first: the same tokens and logits with and without the cache) as one flat row with the
// decoder's facts beside it, so each row says which decoder it measured.
// Not for: the decoder or its counts (kv_cache.hpp), several lengths in one call (the page
// sweeps points and sees a cancel between them).
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "perflab/optimize/kv_cache.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// A decoder config from {vocab, d_model, heads, layers, d_ff, context, seed} (to_json's
// fields; "name" may be present and must then be KvDecoder::kName). A missing field takes
// KvDecoderConfig's default. ValueError naming "decoder.<field>" for a value of the wrong
// type, an unknown field (listing the known ones), or a config validate() refuses.
KvDecoderConfig kv_decoder_config_from_json(const nlohmann::json& decoder);

// measure_kv_cache at the one length `tokens` after a prompt of `prompt` tokens, as one row:
// to_json(KvCachePoint)'s fields, then
//   decoder          to_json(config)
//   prompt           the prompt's tokens
//   positions        prompt + tokens − 1, the positions the cache holds at the end
//   parameter_bytes  the weights' bytes
//   cache_bytes_per_token  kv_cache_bytes(config, 1) = 2·L·D·4
//   cache_bytes_allocated  the cache as allocated, for the whole context
// Errors: measure_kv_cache's (a bad config or length, a budget too small, the two modes
// disagreeing).
nlohmann::json measure_kv_cache_point(const KvDecoderConfig& config, std::size_t prompt,
                                      std::size_t tokens, const TimerOptions& options,
                                      Clock& clock = default_clock());

}  // namespace perflab
