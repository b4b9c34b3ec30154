// course.json and the per-student seed (see course.hpp).
#include "perflab/grading/course.hpp"

#include <algorithm>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/grading/grader.hpp"

namespace perflab {
namespace {

using nlohmann::json;

bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

std::string text_field(const json& j, const char* field, std::size_t max_length,
                       const char* what) {
  const std::string where = std::string("course.json \"") + field + "\"";
  if (!j.contains(field)) throw ValueError(where + " is missing; it must be " + what);
  const json& v = j.at(field);
  if (!v.is_string()) throw ValueError(where + " must be a string (" + what + "), got " + describe(v));
  const std::string s = v.get<std::string>();
  if (s.empty() || s.size() > max_length) {
    throw ValueError(where + " must be 1 to " + std::to_string(max_length) + " characters, got " +
                     std::to_string(s.size()));
  }
  if (has_control_character(s)) throw ValueError(where + " holds a control character; " + what);
  return s;
}

}  // namespace

std::vector<std::string> exercise_chapter_names() {
  std::vector<std::string> names;
  for (const auto& e : exercise_bank()) {
    if (std::find(names.begin(), names.end(), e.chapter) == names.end()) names.push_back(e.chapter);
  }
  return names;
}

Course course_from_json(const json& j) {
  if (!j.is_object()) {
    throw ValueError("course.json must be an object like {\"id\": \"perf-2026\", \"title\": "
                     "\"ML Systems\", \"salt\": \"...\"}, got " + describe(j));
  }
  static const std::vector<std::string> allowed = {"id",  "title",       "salt",       "chapters",
                                                    "due", "assignments", "late_policy",
                                                    "modes"};
  for (const auto& item : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
      throw ValueError("course.json has an unknown field \"" + item.key() + "\"; allowed: " +
                       quoted_list(allowed));
    }
  }
  Course c;
  c.id = text_field(j, "id", kMaxCourseIdLength, "the course id: letters, digits, '.', '_' or '-'");
  for (char ch : c.id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '.' || ch == '_' || ch == '-';
    if (!ok) {
      throw ValueError("course.json \"id\" may hold only letters, digits, '.', '_' and '-', got \"" +
                       c.id + "\"");
    }
  }
  c.title = text_field(j, "title", kMaxCourseTextLength, "the course's title");
  c.salt = text_field(j, "salt", kMaxCourseTextLength,
                      "any text; it decides the variants, so keep it for the whole course");
  c.modes = modes_from_json(j);
  const std::vector<std::string> known = exercise_chapter_names();
  if (!j.contains("chapters")) {
    c.chapters = known;
    c.schedule = schedule_from_json(j, c.chapters);
    return c;
  }
  const json& ch = j.at("chapters");
  if (!ch.is_array() || ch.empty()) {
    throw ValueError("course.json \"chapters\" must be a non-empty list of chapter names from " +
                     quoted_list(known) + ", got " + describe(ch));
  }
  std::vector<std::string> wanted;
  for (std::size_t i = 0; i < ch.size(); ++i) {
    const json& name = ch[i];
    if (!name.is_string() ||
        std::find(known.begin(), known.end(), name.get<std::string>()) == known.end()) {
      throw ValueError("course.json \"chapters\"[" + std::to_string(i) + "] is " + describe(name) +
                       "; the chapters are " + quoted_list(known));
    }
    if (std::find(wanted.begin(), wanted.end(), name.get<std::string>()) != wanted.end()) {
      throw ValueError("course.json \"chapters\" names \"" + name.get<std::string>() + "\" twice");
    }
    wanted.push_back(name.get<std::string>());
  }
  for (const auto& k : known) {
    if (std::find(wanted.begin(), wanted.end(), k) != wanted.end()) c.chapters.push_back(k);
  }
  c.schedule = schedule_from_json(j, c.chapters);
  return c;
}

json to_json(const Course& c) {
  json out = {{"id", c.id}, {"title", c.title}, {"salt", c.salt}, {"chapters", c.chapters}};
  add_schedule_json(c.schedule, out);
  out["modes"] = to_json(c.modes);
  return out;
}

std::string normalize_student_id(std::string_view id) {
  const auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; };
  while (!id.empty() && space(id.front())) id.remove_prefix(1);
  while (!id.empty() && space(id.back())) id.remove_suffix(1);
  if (id.empty()) throw ValueError("the student id is empty; enter the id your course uses");
  if (id.size() > kMaxStudentIdLength) {
    throw ValueError("the student id has " + std::to_string(id.size()) + " characters; at most " +
                     std::to_string(kMaxStudentIdLength) + " are allowed");
  }
  if (has_control_character(id)) {
    throw ValueError("the student id holds a control character; use letters, digits and punctuation");
  }
  std::string out(id);
  for (char& ch : out) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return out;
}

std::uint32_t course_seed(const Course& course, std::string_view student_id) {
  const std::string id = normalize_student_id(student_id);
  // Unit separators keep ("ab", "c") and ("a", "bc") apart.
  std::uint64_t h = fnv1a64(course.id);
  h = fnv1a64("\x1f", h);
  h = fnv1a64(course.salt, h);
  h = fnv1a64("\x1f", h);
  h = fmix64(fnv1a64(id, h));
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace perflab
