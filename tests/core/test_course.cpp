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
  CHECK(to_json(two) == json{{"id", "c"}, {"title", "t"}, {"salt", "s"},
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
                       "course.json has an unknown field \"seed\"; allowed: \"id\", \"title\", "
                       "\"salt\", \"chapters\"",
                       ValueError);
}

TEST_CASE("a student's seed comes from course, salt and the normalized id") {
  const Course c = course_from_json({{"id", "perf-2026"}, {"title", "t"}, {"salt", "pepper"}});
  // Computed independently in Python: h = FNV-1a 64 of b"perf-2026\x1fpepper\x1fs123",
  // (h ^ (h >> 32)) & 0xffffffff.
  CHECK(course_seed(c, "s123") == 3661337344u);
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
