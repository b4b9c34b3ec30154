// Protects the argument rules the wasm bindings apply to JS values (js_args.hpp), compiled
// and run natively so the sanitizers see them: which numbers are integers, sizes and seeds
// (with the parameter's name in every refusal), how a JS string is quoted in a message (lone
// surrogates replaced alone, a pair never cut in half) and how option names are checked.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/js_args.hpp"
#include "perflab/base/utf8.hpp"

using namespace perflab;

namespace {
const js_args::Shown shown_x = [] { return std::string("x"); };
constexpr std::uint64_t kWasm32 = std::numeric_limits<std::uint32_t>::max();
}  // namespace

TEST_CASE("numbers are read as integers, sizes and seeds, or refused with the parameter's name") {
  CHECK(js_args::int32(-3, "n", shown_x) == -3);
  CHECK_THROWS_WITH_AS(js_args::int32(1.5, "n", shown_x), "n must be an integer, got x", ValueError);
  CHECK_THROWS_WITH_AS(js_args::int32(NAN, "n", shown_x), "n must be an integer, got x", ValueError);
  CHECK_THROWS_WITH_AS(js_args::int32(2147483648.0, "n", shown_x),
                       "n must fit a 32-bit integer, got x", ValueError);
  CHECK(js_args::size(4294967295.0, "n", shown_x, kWasm32) == 4294967295u);
  CHECK_THROWS_WITH_AS(js_args::size(4294967296.0, "n", shown_x, kWasm32),
                       "n is x, more than this 32-bit build can address (4294967295)", ValueError);
  CHECK_THROWS_WITH_AS(js_args::size(-1, "n", shown_x, kWasm32),
                       "n must be a non-negative integer, got x", ValueError);
  CHECK(js_args::seed(0, shown_x) == 0u);
  CHECK_THROWS_WITH_AS(js_args::seed(4294967296.0, shown_x),
                       "seed must be an integer in [0, 4294967295], got x", ValueError);
  CHECK_THROWS_WITH_AS(js_args::finite_number(INFINITY, "alpha", shown_x),
                       "alpha must be a finite number, got x", ValueError);
  CHECK_THROWS_WITH_AS(js_args::check_length(4294967295.0, "values", 1000),
                       "values has 4294967295 values; at most 1000 are allowed", ValueError);
  // The value is described only when the call fails.
  int asked = 0;
  const js_args::Shown counted = [&] { return std::to_string(++asked); };
  CHECK(js_args::int32(7, "n", counted) == 7);
  CHECK(asked == 0);
}

TEST_CASE("a JS string is quoted whole up to 40 units, never cutting a pair or a neighbour") {
  CHECK(js_args::quote(u"naive", false) == "\"naive\"");
  CHECK(js_args::quote(u"\xD800naive", false) == "\"\xEF\xBF\xBDnaive\"");
  const std::u16string cut_pair = std::u16string(39, u'a') + u"\xD83D\xDE00";
  CHECK(js_args::quote(cut_pair, false) == "\"" + std::string(39, 'a') + "...\"");
  CHECK(js_args::quote(std::u16string(45, u'b'), false) == "\"" + std::string(40, 'b') + "...\"");
  CHECK(js_args::quote(u"ab", true) == "\"ab...\"");
  CHECK(is_valid_utf8(js_args::quote(u"\xDC00\xD800", false)));
}

TEST_CASE("option names are checked against the allowed ones, which the refusal lists") {
  CHECK(js_args::and_list({}).empty());
  CHECK(js_args::and_list({"a"}) == "a");
  CHECK(js_args::and_list({"a", "b", "c"}) == "a, b and c");
  CHECK_NOTHROW(js_args::check_keys({"warmup"}, {"warmup", "samples"}));
  CHECK_THROWS_WITH_AS(js_args::check_keys({"warmup", "x"}, {"warmup", "samples"}),
                       "unknown option \"x\"; the allowed options are warmup and samples",
                       ValueError);
  // The same check words an argument's fields and the tiles' (each binding's refusal).
  CHECK_THROWS_WITH_AS(js_args::check_keys({"name", "ridge"}, {"name", "flops"},
                                           {"field", " in point", "fields"}),
                       "unknown field \"ridge\" in point; the allowed fields are name and flops",
                       ValueError);
  CHECK_THROWS_WITH_AS(js_args::check_keys({"tile_x"}, {"tile_m", "tile_n", "tile_k"},
                                           {"tile field", "", "fields"}),
                       "unknown tile field \"tile_x\"; the allowed fields are tile_m, tile_n and "
                       "tile_k",
                       ValueError);
  // A name that is not UTF-8 is quoted as valid UTF-8.
  try {
    js_args::check_keys({"\xC3"}, {"a"});
    FAIL("no error");
  } catch (const ValueError& e) {
    CHECK(is_valid_utf8(e.what()));
  }
}
