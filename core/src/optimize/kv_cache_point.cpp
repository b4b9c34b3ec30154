#include "perflab/optimize/kv_cache_point.hpp"

#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"

namespace perflab {

using nlohmann::json;

KvDecoderConfig kv_decoder_config_from_json(const json& decoder) {
  if (!decoder.is_object()) {
    throw ValueError("decoder must be an object {vocab, d_model, heads, layers, d_ff, context, "
                     "seed}, got " + describe(decoder));
  }
  KvDecoderConfig c;
  const std::pair<const char*, std::size_t*> sizes[] = {
      {"vocab", &c.vocab},   {"d_model", &c.d_model}, {"heads", &c.heads},
      {"layers", &c.layers}, {"d_ff", &c.d_ff},       {"context", &c.context}};
  for (const auto& item : decoder.items()) {
    const std::string& key = item.key();
    const std::string field = "decoder." + key;
    if (key == "name") {
      if (item.value() != json(KvDecoder::kName)) {
        throw ValueError(field + " must be \"" + std::string(KvDecoder::kName) + "\", got " +
                         describe(item.value()));
      }
      continue;
    }
    if (key == "seed") {
      read_json_value(item.value(), field, c.seed, JsonRange::any);
      continue;
    }
    bool known = false;
    for (const auto& [name, member] : sizes) {
      if (key != name) continue;
      read_json_value(item.value(), field, *member, JsonRange::any);
      known = true;
    }
    if (!known) {
      throw ValueError("decoder has an unknown field \"" + key +
                       "\"; the fields are vocab, d_model, heads, layers, d_ff, context, seed "
                       "(and name)");
    }
  }
  c.validate();
  return c;
}

json measure_kv_cache_point(const KvDecoderConfig& config, std::size_t prompt,
                            std::size_t tokens, const TimerOptions& options, Clock& clock) {
  const KvCacheMeasurement m = measure_kv_cache(config, prompt, {tokens}, options, clock);
  json row = to_json(m.points.at(0));
  row["decoder"] = to_json(m.config);
  row["prompt"] = m.prompt;
  row["positions"] = m.prompt + tokens - 1;
  row["parameter_bytes"] = m.parameter_bytes;
  row["cache_bytes_per_token"] = kv_cache_bytes(m.config, 1);
  row["cache_bytes_allocated"] = m.cache_bytes;
  return row;
}

}  // namespace perflab
