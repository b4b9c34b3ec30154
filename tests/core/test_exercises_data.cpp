// The exercises' prose lives in core/exercises/<chapter>.json and their drawing and grading
// in C++. These tests keep the two halves together: every data entry has C++ code and the
// reverse, every placeholder of a prompt or a choice is a parameter its draw produces (and
// every plain parameter is shown), and a data file that does not fit its code is refused
// with a message naming the file and the entry.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using namespace perflab::detail;
using nlohmann::json;

namespace {

VariantData draw_demo(Rng& rng, const Fragments& fragments) {
  VariantData v;
  const std::int64_t side = rng.integer(2, 9);
  v.params = {{"side", side}, {"shape", fragments.render("square", {{"side", side}})}};
  v.expected_value = static_cast<double>(side * side);
  return v;
}

void demo_from_evidence(const Exercise&, const json&, VariantData& v) { v.expected_value = 1; }

// A one-exercise chapter "demo": its C++, and a data file that fits it.
std::vector<ExerciseCode> demo_code() {
  return {{.id = "demo.area",
           .kind = ExerciseKind::Numeric,
           .points = 10,
           .draw = draw_demo,
           .tolerance = {0.0, 0.5},
           .constants = {{"sides", 4}}}};
}

json demo_data() {
  return json::parse(R"json({
    "chapter": "demo",
    "shared": {"convention": "Lengths are in cm."},
    "exercises": [{
      "id": "demo.area",
      "title": "Area of a square",
      "prompt": "{convention} What is the area of {shape}?",
      "hints": ["A square has {sides} equal sides.", "Multiply the side by itself."],
      "grader_reference": "side²",
      "unit": "cm²",
      "fragments": {"square": "a square of side {side} cm"}
    }]
  })json");
}

std::vector<ExerciseEntry> load_demo(const json& data,
                                     const std::vector<ExerciseCode>& code = demo_code()) {
  const std::string text = data.dump();
  return load_chapter({"core/exercises/demo.json", text}, "demo", code);
}

std::string load_error(const json& data, const std::vector<ExerciseCode>& code = demo_code()) {
  try {
    load_demo(data, code);
  } catch (const Error& e) {
    return e.what();
  }
  return "(loaded)";
}

std::set<std::string> ids_in(const json& data) {
  std::set<std::string> ids;
  for (const auto& e : data.at("exercises")) ids.insert(e.at("id").get<std::string>());
  return ids;
}

}  // namespace

TEST_CASE("every data entry has C++ that draws it, and every C++ exercise has its prose") {
  REQUIRE_NOTHROW(exercise_entries());
  std::set<std::string> files_of_chapters;
  for (const auto& chapter : exercise_chapters()) {
    CAPTURE(chapter.name);
    const std::string path = "core/exercises/" + chapter.name + ".json";
    files_of_chapters.insert(path);
    const ExerciseFile* file = nullptr;
    for (const auto& f : exercise_files()) {
      if (f.path == path) file = &f;
    }
    REQUIRE(file != nullptr);
    std::set<std::string> code_ids;
    for (const auto& code : chapter.code()) {
      CAPTURE(code.id);
      // Exactly one draw: a variant per seed, or per try for a choice exercise.
      CHECK(((code.draw != nullptr) != (code.draw_try != nullptr)));
      CHECK(((code.draw_try != nullptr) == (code.kind == ExerciseKind::Choice)));
      code_ids.insert(code.id);
    }
    CHECK(ids_in(json::parse(file->text)) == code_ids);
  }
  for (const auto& f : exercise_files()) CHECK(files_of_chapters.count(std::string(f.path)) == 1);
  CHECK(exercise_files().size() == exercise_chapters().size());
}

TEST_CASE("prompt and choice placeholders are exactly the parameters each draw produces") {
  for (const auto& e : exercise_bank()) {
    CAPTURE(e.id);
    // Texts shown as they are name nothing: shared texts and constants were filled in.
    CHECK(placeholder_names(e.title).empty());
    CHECK(placeholder_names(e.grader_reference).empty());
    for (const auto& hint : e.hints) CHECK(placeholder_names(hint).empty());
    for (std::uint32_t seed = 0; seed < 30; ++seed) {
      const json params = exercise_variant(e.id, seed).at("params");
      std::set<std::string> named;
      for (const auto& name : placeholder_names(e.prompt)) named.insert(name);
      for (const auto& choice : e.choices) {
        for (const auto& name : placeholder_names(choice)) named.insert(name);
      }
      for (const auto& name : named) {
        CAPTURE(name);
        CHECK(params.contains(name));
      }
      // Arrays are data for the page (latency-statistic's samples_ms, shown as samples_text).
      for (const auto& item : params.items()) {
        CAPTURE(item.key());
        CHECK((item.value().is_array() || named.count(item.key()) == 1));
      }
    }
  }
}

TEST_CASE("starter code defines the function the tests call") {
  for (const auto& e : exercise_bank()) {
    if (e.kind != ExerciseKind::Code) continue;
    CAPTURE(e.id);
    CHECK(e.starter_code.rfind("function " + e.function_name + "(", 0) == 0);
  }
}

TEST_CASE("a data file that fits its C++ loads with shared texts and constants filled in") {
  const auto entries = load_demo(demo_data());
  REQUIRE(entries.size() == 1);
  const Exercise& e = entries[0].exercise;
  CHECK(e.id == "demo.area");
  CHECK(e.chapter == "demo");
  CHECK(e.kind == ExerciseKind::Numeric);
  CHECK(e.points == 10);
  CHECK(e.tolerance.abs == 0.5);
  CHECK(e.unit == "cm²");
  // Shared texts and constants at load time; the variant's parameters stay placeholders.
  CHECK(e.prompt == "Lengths are in cm. What is the area of {shape}?");
  CHECK(e.hints ==
        std::vector<std::string>{"A square has 4 equal sides.", "Multiply the side by itself."});
  Rng rng(7);
  const VariantData v = entries[0].draw(rng, entries[0].fragments);
  const std::int64_t side = v.params.at("side").get<std::int64_t>();
  CHECK(v.params.at("shape") == "a square of side " + std::to_string(side) + " cm");
  CHECK_THROWS_WITH_AS(entries[0].fragments.render("circle", json::object()),
                       "core/exercises/demo.json, demo.area has no fragment \"circle\"; its "
                       "fragments: square",
                       Error);
  CHECK_THROWS_WITH_AS(entries[0].fragments.render("square", json::object()),
                       "core/exercises/demo.json, demo.area, fragment square: the text names "
                       "{side}, which is not one of its parameters",
                       Error);

  // Code exercises: starter code is a list of lines.
  json code_data = demo_data();
  auto& entry = code_data["exercises"][0];
  entry.erase("unit");
  entry["function_name"] = "area";
  entry["starter_code"] = {"function area(side) {", "  // side²", "}"};
  auto code = demo_code();
  code[0].kind = ExerciseKind::Code;
  CHECK(load_demo(code_data, code)[0].exercise.starter_code ==
        "function area(side) {\n  // side²\n}");
}

TEST_CASE("a data entry without C++, or C++ without a data entry, stops the bank loading") {
  json extra = demo_data();
  json other = extra["exercises"][0];
  other["id"] = "demo.volume";
  extra["exercises"].push_back(other);
  CHECK(load_error(extra) ==
        "core/exercises/demo.json, demo.volume: no C++ draws this exercise; add an "
        "ExerciseCode with this id to demo_exercises() in exercise_bank_demo.cpp, or remove "
        "the entry");

  auto code = demo_code();
  code.push_back(code[0]);
  code[1].id = "demo.volume";
  CHECK(load_error(demo_data(), code) ==
        "core/exercises/demo.json: no entry for demo.volume, which demo_exercises() in "
        "exercise_bank_demo.cpp defines; add its prose to this file");

  auto no_draw = demo_code();
  no_draw[0].draw = nullptr;
  CHECK(load_error(demo_data(), no_draw) ==
        "core/exercises/demo.json, demo.area: its C++ must set exactly one of draw and draw_try");
}

TEST_CASE("a choice exercise draws a variant per try and offers at least kMinChoices choices") {
  json data = demo_data();
  auto& entry = data["exercises"][0];
  entry.erase("unit");
  entry["choices"] = {"4", "9", "16"};
  auto code = demo_code();
  code[0].kind = ExerciseKind::Choice;
  CHECK(load_error(data, code) ==
        "core/exercises/demo.json, demo.area: a choice exercise draws a variant per try "
        "(draw_try), other kinds draw one (draw)");
  code[0].draw = nullptr;
  code[0].draw_try = [](Rng&, const Fragments&, const ChoiceTry&) { return VariantData{}; };
  CHECK(load_error(data, code) ==
        "core/exercises/demo.json, demo.area: \"choices\" must list at least 4 choices, so that "
        "a guess is right at most one time in 4");
  entry["choices"].push_back("25");
  CHECK(load_demo(data, code)[0].exercise.choices.size() == 4);
}

TEST_CASE("a malformed data file is refused with the file, the entry and the field") {
  try {
    load_chapter({"core/exercises/demo.json", "{\"chapter\": \"demo\", "}, "demo", demo_code());
    FAIL("loaded a truncated file");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).rfind("core/exercises/demo.json is not valid JSON: ", 0) == 0);
  }

  json data = demo_data();
  data["chapter"] = "profiling";
  CHECK(load_error(data) ==
        "core/exercises/demo.json: \"chapter\" must be \"demo\", got \"profiling\"");

  data = demo_data();
  data["exercises"][0].erase("title");
  CHECK(load_error(data) == "core/exercises/demo.json, demo.area: \"title\" is missing");

  data = demo_data();
  data["exercises"][0]["hint"] = "one hint";
  CHECK(load_error(data) ==
        "core/exercises/demo.json, demo.area: unknown field \"hint\"; allowed: id, title, "
        "prompt, hints, grader_reference, unit, parts, choices, function_name, starter_code, "
        "evidence, fragments");

  data = demo_data();
  data["exercises"][0]["hints"] = {"fine", 3};
  CHECK(load_error(data) ==
        "core/exercises/demo.json, demo.area: \"hints[1]\" must be a string, got 3");

  data = demo_data();
  data["exercises"][0]["hints"][0] = "The side is {side}.";
  CHECK(load_error(data) ==
        "core/exercises/demo.json, demo.area: \"hints[0]\" names {side}, which is neither a "
        "shared text of the file nor a constant of the exercise's C++; only the prompt, the "
        "choices and the fragments take a variant's parameters");

  data = demo_data();
  data["exercises"][0]["choices"] = {"4", "9"};
  CHECK(load_error(data) ==
        "core/exercises/demo.json, demo.area: \"choices\" does not belong to a numeric "
        "exercise");

  data = demo_data();
  data["exercises"].push_back(data["exercises"][0]);
  CHECK(load_error(data) == "core/exercises/demo.json: demo.area appears twice");
}

TEST_CASE("parts and evidence in the data must match what the C++ grades") {
  auto parts = demo_code();
  parts[0].parts = {{{0.0, 0.5}}, {{0.01, 0.0}, 2.0}};
  json data = demo_data();
  data["exercises"][0].erase("unit");
  data["exercises"][0]["parts"] = {{{"label", "Area"}, {"unit", "cm²"}}};
  CHECK(load_error(data, parts) ==
        "core/exercises/demo.json, demo.area: \"parts\" must be a list of 2 {label, unit}, one "
        "per part the C++ grades");
  data["exercises"][0]["parts"].push_back({{"label", "Perimeter"}, {"unit", "cm"}});
  const Exercise e = load_demo(data, parts)[0].exercise;
  REQUIRE(e.parts.size() == 2);
  CHECK(e.parts[1].label == "Perimeter");
  CHECK(e.parts[1].unit == "cm");
  CHECK(e.parts[1].weight == 2.0);
  CHECK(e.parts[1].tolerance.rel == 0.01);

  auto backed = demo_code();
  backed[0].experiment = "demo-run";
  backed[0].from_evidence = demo_from_evidence;
  CHECK(load_error(demo_data(), backed) ==
        "core/exercises/demo.json, demo.area: has no \"evidence\" {title, what}, but its C++ "
        "grades it from demo-run");
  data = demo_data();
  data["exercises"][0]["evidence"] = {{"title", "the demo run"}, {"what", "its area"}};
  CHECK(load_error(data) ==
        "core/exercises/demo.json, demo.area: has \"evidence\" but its C++ grades no "
        "experiment");
  const Exercise b = load_demo(data, backed)[0].exercise;
  CHECK(b.evidence.experiment == "demo-run");
  CHECK(b.evidence.title == "the demo run");
  CHECK(b.evidence.what == "its area");
}
