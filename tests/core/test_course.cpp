#include <doctest/doctest.h>

#include "perflab/base/error.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/grading/course.hpp"

using namespace perflab;
using nlohmann::json;

TEST_CASE("fnv1a64 matches the published FNV-1a test vectors and continues over parts") {
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);  // the FNV reference value for "a"
  CHECK(fnv1a64("bc", fnv1a64("a")) == fnv1a64("abc"));
}

TEST_CASE("course.json is read with every field checked") {
  const Course c = course_from_json(
      {{"id", "perf-2026"}, {"title", "ML Systems"}, {"salt", "pepper"}});
  CHECK(c.id == "perf-2026");
  CHECK(c.chapters == exercise_chapter_names());
  CHECK(exercise_chapter_names() ==
        std::vector<std::string>{"profiling", "acceleration", "benchmarking", "optimization"});
  // Chapters are kept in the bank's order whatever order the file gives.
  const Course two = course_from_json({{"id", "c"}, {"title", "t"}, {"salt", "s"},
                                       {"chapters", {"benchmarking", "profiling"}}});
  CHECK(two.chapters == std::vector<std::string>{"profiling", "benchmarking"});
  json shown = to_json(two);
  shown.erase("modes");  // every exercise's answer mode: test_answer_modes.cpp
  CHECK(shown == json{{"id", "c"}, {"title", "t"}, {"salt", "s"},
                      {"chapters", {"profiling", "benchmarking"}}});

  CHECK_THROWS_WITH_AS(course_from_json(json::array()),
                       doctest::Contains("course.json must be an object like"), ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"title", "t"}, {"salt", "s"}}),
                       doctest::Contains("course.json \"id\" is missing"), ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"id", "a b"}, {"title", "t"}, {"salt", "s"}}),
                       "course.json \"id\" may hold only letters, digits, '.', '_' and '-', got \"a b\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"id", "c"}, {"title", 3}, {"salt", "s"}}),
                       "course.json \"title\" must be a string (the course's title), got 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"id", "c"}, {"title", "t"}, {"salt", ""}}),
                       "course.json \"salt\" must be 1 to 200 characters, got 0", ValueError);
  CHECK_THROWS_WITH_AS(
      course_from_json({{"id", "c"}, {"title", "t"}, {"salt", "s"}, {"chapters", {"roofline"}}}),
      "course.json \"chapters\"[0] is \"roofline\"; the chapters are \"profiling\", "
      "\"acceleration\", \"benchmarking\", \"optimization\"",
      ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"id", "c"}, {"title", "t"}, {"salt", "s"},
                                         {"chapters", {"profiling", "profiling"}}}),
                       "course.json \"chapters\" names \"profiling\" twice", ValueError);
  CHECK_THROWS_WITH_AS(course_from_json({{"id", "c"}, {"title", "t"}, {"salt", "s"}, {"seed", 1}}),
                       doctest::Contains("course.json has an unknown field \"seed\"; allowed: "
                                         "\"id\", \"title\", \"salt\", \"chapters\", "),
                       ValueError);
}

TEST_CASE("a student's seed comes from course, salt and the normalized id") {
  const Course c = course_from_json({{"id", "perf-2026"}, {"title", "t"}, {"salt", "pepper"}});
  // A value computed once, on purpose: its point is that every platform (native, both wasm
  // builds, the browser test's own JavaScript) derives the same seed. Computed independently
  // in Python: h = fmix64(FNV-1a 64 of b"perf-2026\x1fpepper\x1fs123"), (h ^ (h >> 32)) &
  // 0xffffffff.
  CHECK(course_seed(c, "s123") == 298644646u);
  CHECK(course_seed(c, "  S123\t") == course_seed(c, "s123"));
  CHECK(course_seed(c, "s124") != course_seed(c, "s123"));
  Course salted = c;
  salted.salt = "salt";
  CHECK(course_seed(salted, "s123") != course_seed(c, "s123"));

  CHECK(normalize_student_id("  Ada.Lovelace ") == "ada.lovelace");
  CHECK_THROWS_WITH_AS(normalize_student_id("   "),
                       "the student id is empty; enter the id your course uses", ValueError);
  CHECK_THROWS_WITH_AS(normalize_student_id(std::string(101, 'x')),
                       "the student id has 101 characters; at most 100 are allowed", ValueError);
  CHECK_THROWS_AS(normalize_student_id("a\x01"), ValueError);
}

TEST_CASE("fmix64 is murmur3's finalizer") {
  CHECK(fmix64(0) == 0);
  // Computed in Python from murmur3's fmix64 (constants 0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53).
  CHECK(fmix64(1) == 0xb456bcfc34c2cb2cull);
}

TEST_CASE("consecutive student ids get seeds spread over the whole range") {
  // Course ids are handed out in runs (s1000, s1001, ...). Plain FNV-1a gave such ids seeds
  // that shared their high bits (S1001 -> 2273390906, s1002 -> 2273399031), so variants drawn
  // from a seed's high bits came out alike for neighbours. Over 1,000 consecutive ids each of
  // the 16 values of the top 4 bits should hold about 62.5 seeds; the bounds are generous
  // (a uniform draw falls outside 25..110 with probability below 1e-6 per bucket).
  const Course c = course_from_json({{"id", "perf-2026"}, {"title", "t"}, {"salt", "pepper"}});
  std::vector<int> buckets(16, 0);
  std::vector<std::uint32_t> seeds;
  for (int i = 1000; i < 2000; ++i) {
    const std::uint32_t seed = course_seed(c, "s" + std::to_string(i));
    buckets[seed >> 28] += 1;
    seeds.push_back(seed);
  }
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    CAPTURE(b);
    CHECK(buckets[b] >= 25);
    CHECK(buckets[b] <= 110);
  }
  // Neighbours differ in about half of their 32 bits, not in a few low ones.
  int close = 0;
  for (std::size_t i = 1; i < seeds.size(); ++i) {
    if (__builtin_popcount(seeds[i] ^ seeds[i - 1]) < 8) close += 1;
  }
  CHECK(close < 20);  // binomial(32, 1/2) < 8 has probability about 2e-4 per pair
}
