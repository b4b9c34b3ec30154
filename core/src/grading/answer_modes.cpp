// course.json's answer modes (see answer_modes.hpp).
#include "perflab/grading/answer_modes.hpp"

#include <algorithm>
#include <cmath>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/grading/course.hpp"
#include "perflab/grading/grader.hpp"

namespace perflab {
namespace {

using nlohmann::json;

constexpr const char* kModeNames = "\"practice\", \"assessed\" or \"sealed\"";

std::vector<std::pair<std::string, AnswerMode>> mode_map(
    const json& modes, const char* field, const std::vector<std::string>& known,
    const std::string& unknown_sentence) {
  std::vector<std::pair<std::string, AnswerMode>> out;
  if (!modes.contains(field)) return out;
  const std::string where = std::string("course.json \"modes\".") + field;
  const json& m = modes.at(field);
  if (!m.is_object()) {
    throw ValueError(where + " must be an object of names to modes (" + kModeNames + "), got " +
                     describe(m));
  }
  for (const auto& [name, value] : m.items()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw ValueError(where + " names \"" + name + "\", " + unknown_sentence);
    }
    if (!value.is_string()) {
      throw ValueError(where + "[\"" + name + "\"] must be " + kModeNames + ", got " +
                       describe(value));
    }
    out.emplace_back(name, answer_mode_from_string(value.get<std::string>(),
                                                   where + "[\"" + name + "\"]"));
  }
  return out;
}

}  // namespace

const char* to_string(AnswerMode mode) {
  switch (mode) {
    case AnswerMode::Practice: return "practice";
    case AnswerMode::Assessed: return "assessed";
    case AnswerMode::Sealed: return "sealed";
  }
  return "practice";
}

AnswerMode answer_mode_from_string(std::string_view text, const std::string& where) {
  for (AnswerMode m : {AnswerMode::Practice, AnswerMode::Assessed, AnswerMode::Sealed}) {
    if (text == to_string(m)) return m;
  }
  throw ValueError(where + " is \"" + std::string(text) + "\"; the modes are " + kModeNames +
                   " (practice: the verdict at once; assessed: right or wrong only, a capped "
                   "number of tries; sealed: no verdict until the export is re-graded)");
}

CourseModes modes_from_json(const json& course) {
  CourseModes out;
  if (!course.is_object() || !course.contains("modes")) return out;
  const json& m = course.at("modes");
  if (!m.is_object()) {
    throw ValueError("course.json \"modes\" must be an object like {\"default\": \"assessed\", "
                     "\"chapters\": {\"profiling\": \"practice\"}, \"exercises\": "
                     "{\"profiling.linear-params\": \"sealed\"}, \"assessed_tries\": 3}, got " +
                     describe(m));
  }
  static const std::vector<std::string> allowed = {"default", "chapters", "exercises",
                                                   "assessed_tries"};
  for (const auto& item : m.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
      throw ValueError("course.json \"modes\" has an unknown field \"" + item.key() +
                       "\"; allowed: \"default\", \"chapters\", \"exercises\", \"assessed_tries\"");
    }
  }
  if (m.contains("default")) {
    const json& d = m.at("default");
    if (!d.is_string()) {
      throw ValueError(std::string("course.json \"modes\".default must be ") + kModeNames +
                       ", got " + describe(d));
    }
    out.default_mode = answer_mode_from_string(d.get<std::string>(), "course.json \"modes\".default");
  }
  const std::vector<std::string> chapters = exercise_chapter_names();
  out.chapters = mode_map(m, "chapters", chapters,
                          "which is not a chapter with exercises; the chapters are " +
                              quoted_list(chapters));
  std::vector<std::string> ids;
  for (const auto& e : exercise_bank()) ids.push_back(e.id);
  out.exercises = mode_map(m, "exercises", ids,
                           "which is not an exercise of the bank; ids look like \"" + ids.front() +
                               "\" (perflab exercises lists them)");
  if (m.contains("assessed_tries")) {
    const json& t = m.at("assessed_tries");
    const double n = t.is_number() ? t.get<double>() : -1.0;
    if (!(n >= 1 && n <= kMaxAssessedTries && std::trunc(n) == n)) {
      throw ValueError("course.json \"modes\".assessed_tries (the graded tries of an assessed "
                       "exercise) must be an integer from 1 to " +
                       std::to_string(kMaxAssessedTries) + ", got " + describe(t));
    }
    out.assessed_tries = static_cast<int>(n);
  }
  return out;
}

AnswerMode exercise_mode(const CourseModes& modes, std::string_view id, std::string_view chapter) {
  for (const auto& [name, mode] : modes.exercises) {
    if (name == id) return mode;
  }
  for (const auto& [name, mode] : modes.chapters) {
    if (name == chapter) return mode;
  }
  return modes.default_mode;
}

json to_json(const CourseModes& modes) {
  json chapters = json::object();
  for (const auto& [name, mode] : modes.chapters) chapters[name] = to_string(mode);
  json exercises = json::object();
  for (const auto& e : exercise_bank()) exercises[e.id] = to_string(exercise_mode(modes, e.id, e.chapter));
  return {{"default", to_string(modes.default_mode)},
          {"chapters", std::move(chapters)},
          {"exercises", std::move(exercises)},
          {"assessed_tries", modes.assessed_tries}};
}

}  // namespace perflab
