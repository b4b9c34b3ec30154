// FNV-1a, 64-bit: a fixed, portable hash, so a value derived from text (an exercise
// variant's stream, a course seed, the bank's version) is the same natively and in wasm
// (std::hash differs between standard libraries). Not for: secrets (it is not
// cryptographic; nothing in the lab relies on a hash being hard to invert).
#pragma once

#include <cstdint>
#include <string_view>

namespace perflab {

inline constexpr std::uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;

// Continue a hash over more text: fnv1a64("ab") == fnv1a64("b", fnv1a64("a")).
inline std::uint64_t fnv1a64(std::string_view text, std::uint64_t h = kFnv1a64Offset) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// murmur3's 64-bit finalizer (fmix64): every input bit flips each output bit with
// probability near 1/2. FNV-1a alone leaves texts that differ in their last byte close
// together in the high bits ("s1001" and "s1002" gave seeds 8,000 apart); a hash that
// becomes a seed ends with this step.
inline std::uint64_t fmix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

}  // namespace perflab
