// What this file protects: the one number formatter, the one describe() of JSON values and
// the one rate helper that every message, verdict and measured row in core goes through.
// Values are checked by hand: a change here changes text the student reads everywhere.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/rates.hpp"

using namespace perflab;
using nlohmann::json;

TEST_CASE("format_number prints whole numbers without decimals") {
  CHECK(format_number(20) == "20");
  CHECK(format_number(100000) == "100000");
  CHECK(format_number(-3) == "-3");
  CHECK(format_number(0) == "0");
  CHECK(format_number(7, 2) == "7");
  CHECK(format_number(123456789012345.0, 3) == "123456789012345");
}

TEST_CASE("format_number keeps the asked significant digits below 10^(digits-1)") {
  CHECK(format_number(0.25) == "0.25");
  CHECK(format_number(1.5) == "1.5");
  CHECK(format_number(2.0 / 3) == "0.667");
  CHECK(format_number(9.54e-07) == "9.54e-07");
  CHECK(format_number(12.34) == "12.3");
  CHECK(format_number(0.1666, 2) == "0.17");
  CHECK(format_number(8.333, 2) == "8.3");
  CHECK(format_number(0.07 * 100, 6) == "7");  // not 7.000000000000001
  CHECK(format_number(1e-9, 6) == "1e-09");
}

TEST_CASE("format_number rounds to a whole number from 10^(digits-1) up, never to an exponent") {
  CHECK(format_number(1234.5678) == "1235");
  CHECK(format_number(999.7) == "1000");  // %.3g would print 1e+03
  CHECK(format_number(123.4) == "123");
  CHECK(format_number(12.3, 2) == "12");
  CHECK(format_number(1234.4, 2) == "1234");
  CHECK(format_number(2.5e15 + 0.5) == "2.5e+15");  // beyond 1e15: as %g
}

TEST_CASE("format_number spells what is not a number as JavaScript does") {
  CHECK(format_number(std::nan("")) == "NaN");
  CHECK(format_number(std::numeric_limits<double>::infinity()) == "Infinity");
  CHECK(format_number(-std::numeric_limits<double>::infinity()) == "-Infinity");
}

TEST_CASE("format_number with kRoundTripDigits gives the fewest digits that read back") {
  CHECK(format_number(0.1, kRoundTripDigits) == "0.1");
  CHECK(format_number(2.575, kRoundTripDigits) == "2.575");
  CHECK(format_number(0.1 + 0.2, kRoundTripDigits) == "0.30000000000000004");
  CHECK(format_number(2500.5, kRoundTripDigits) == "2500.5");  // no rounding to whole
  CHECK(format_number(5, kRoundTripDigits) == "5");
}

TEST_CASE("format_decimal writes a table's numbers in one notation at every magnitude") {
  // A CLI column printed "1.23e-05" under "0.000123" (%.3g switches notation below 1e-4).
  CHECK(format_decimal(1.23e-5) == "0.0000123");
  CHECK(format_decimal(0.000123) == "0.000123");
  CHECK(format_decimal(0.0456789) == "0.0457");
  CHECK(format_decimal(1.23456) == "1.23");
  CHECK(format_decimal(12.345) == "12.3");
  CHECK(format_decimal(123.456) == "123");
  CHECK(format_decimal(1234.6) == "1235");  // whole, never 1.23e+03
  CHECK(format_decimal(0.099996) == "0.100");
  CHECK(format_decimal(-0.00123) == "-0.00123");
  CHECK(format_decimal(0) == "0");
  CHECK(format_decimal(5.57e-7, 2) == "0.00000056");
  CHECK(format_decimal(std::numeric_limits<double>::infinity()) == "Infinity");
  CHECK(format_decimal(1e-300).find('e') == std::string::npos);
}

TEST_CASE("describe writes a JSON value as its writer would, at most 60 characters") {
  CHECK(describe(json("ten")) == "\"ten\"");
  CHECK(describe(json(5)) == "5");
  CHECK(describe(json(-2)) == "-2");
  CHECK(describe(json(true)) == "true");
  CHECK(describe(json(nullptr)) == "null");
  CHECK(describe(json::parse("[2, -1]")) == "[2,-1]");
  CHECK(describe(json::parse(R"({"a": 1})")) == "{\"a\":1}");
  SUBCASE("floats: 10 significant digits, and a whole float keeps its .0") {
    CHECK(describe(json(2.5749999999999997)) == "2.575");
    CHECK(describe(json(0.1)) == "0.1");
    CHECK(describe(json(8.0)) == "8.0");
    CHECK(describe(json(1e-5)) == "1e-05");
    CHECK(describe(json(1e20)) == "1e+20");
    CHECK(describe(json(std::nan(""))) == "NaN");
  }
  SUBCASE("floats inside arrays and objects read as alone, not as the round-trip digits") {
    // A code exercise's feedback read "expected [17.494999999999997, ...]".
    CHECK(describe(json::parse("[17.494999999999997, 2.5, 8.0, 3]")) == "[17.495,2.5,8.0,3]");
    CHECK(describe(json::parse(R"({"x": [0.30000000000000004], "s": "a"})")) ==
          R"({"s":"a","x":[0.3]})");
    // A long array is cut without writing it all out first.
    const std::string d = describe(json(std::vector<double>(100000, 0.1)));
    CHECK(d.size() == 60);
    CHECK(d.substr(0, 9) == "[0.1,0.1,");
    CHECK(d.substr(57) == "...");
  }
  SUBCASE("a long value is cut to 57 characters and ...") {
    const std::string long_text(100, 'x');
    const std::string d = describe(json(long_text));
    CHECK(d.size() == 60);
    CHECK(d == "\"" + std::string(56, 'x') + "...");
    CHECK(describe(json(std::string(58, 'y'))).size() == 60);  // 60 with quotes: kept whole
    CHECK(describe(json(std::string(58, 'y'))).find("...") == std::string::npos);
  }
}

TEST_CASE("rates divide by milliseconds into GFLOP/s, GB/s and per second") {
  CHECK(gflops_per_s(2e9, 1000) == doctest::Approx(2));   // 2e9 FLOPs in 1 s
  CHECK(gflops_per_s(1e6, 1) == doctest::Approx(1));      // 1e6 FLOPs in 1 ms
  CHECK(gb_per_s(12e6, 2) == doctest::Approx(6));         // 12 MB in 2 ms
  CHECK(per_second(32, 4) == doctest::Approx(8000));      // 32 samples in 4 ms
  CHECK(ns_per(2, 1000) == doctest::Approx(2000));        // 2 ms over 1000 elements
  SUBCASE("a time that is not positive gives 0, not a division by zero") {
    CHECK(gflops_per_s(1e9, 0) == 0);
    CHECK(gb_per_s(1e9, -1) == 0);
    CHECK(per_second(10, 0) == 0);
    CHECK(ns_per(5, 0) == 0);
  }
}

TEST_CASE("format_fixed writes exactly the decimals asked, and refuses a count printf cannot") {
  CHECK(format_fixed(0.5, 2) == "0.50");
  CHECK(format_fixed(0.8985 * 100, 2) == "89.85");
  CHECK(format_fixed(2.0, 0) == "2");
  CHECK(format_fixed(-1.005, 1) == "-1.0");
  CHECK(format_fixed(1e300, 0).size() == 301);
  CHECK_THROWS_WITH_AS(format_fixed(1.0, 18), "format_fixed: decimals is 18; allowed: 0 to 17",
                       ValueError);
}

TEST_CASE("quoted_list quotes each name and separates them with commas") {
  CHECK(quoted_list({}) == "");
  CHECK(quoted_list({"profiling"}) == "\"profiling\"");
  CHECK(quoted_list({"a", "b c", ""}) == "\"a\", \"b c\", \"\"");
}
