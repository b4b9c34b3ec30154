// The bank as one list: each chapter's prose (core/exercises/<chapter>.json, compiled in)
// joined with its C++ (exercise_bank_<chapter>.cpp) at first use, the placeholder syntax,
// and the helpers the chapters' bank files share. A data file that does not match its code
// stops the bank from loading with a message naming the file and the entry.
// Not for: seeding or grading (grader.cpp does those for every exercise).
#include "perflab/detail/exercise_bank.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"

namespace perflab::detail {

using nlohmann::json;

const std::vector<ChapterCode>& exercise_chapters() {
  // Other chapters add theirs here, with their data file, when they get exercises.
  static const std::vector<ChapterCode> chapters = {{"profiling", profiling_exercises},
                                                    {"acceleration", acceleration_exercises},
                                                    {"benchmarking", benchmarking_exercises},
                                                    {"optimization", optimization_exercises}};
  return chapters;
}

// ---- placeholders ----------------------------------------------------------------------

namespace {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string fill_placeholders(const std::string& text,
                              const std::function<std::string(const std::string&)>& fill) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t close = text[i] == '{' ? text.find('}', i + 1) : std::string::npos;
    if (close != std::string::npos && close > i + 1 &&
        std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                    text.begin() + static_cast<std::ptrdiff_t>(close), is_identifier_char)) {
      out += fill(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::vector<std::string> placeholder_names(const std::string& text) {
  std::vector<std::string> names;
  fill_placeholders(text, [&](const std::string& name) {
    names.push_back(name);
    return std::string();
  });
  return names;
}

std::string render_text(const std::string& text, const json& params, std::string_view where) {
  return fill_placeholders(text, [&](const std::string& name) {
    if (!params.contains(name)) {
      throw Error(std::string(where) + ": the text names {" + name +
                  "}, which is not one of its parameters");
    }
    return format_param(params.at(name));
  });
}

std::string Fragments::render(const std::string& name, const json& params) const {
  const auto found = texts_.find(name);
  if (found == texts_.end()) {
    std::string known;
    for (const auto& [key, text] : texts_) known += (known.empty() ? "" : ", ") + key;
    throw Error(where_ + " has no fragment \"" + name +
                "\"; its fragments: " + (known.empty() ? "none" : known));
  }
  return render_text(found->second, params, where_ + ", fragment " + name);
}

// ---- loading a chapter's data file ------------------------------------------------------

namespace {

// One entry of a data file while it is read: every message names the file and the entry.
class EntryReader {
 public:
  EntryReader(std::string where, const json& entry, std::map<std::string, std::string> known)
      : where_(std::move(where)), entry_(entry), known_(std::move(known)) {}

  [[noreturn]] void fail(const std::string& what) const { throw Error(where_ + ": " + what); }
  bool has(const char* key) const { return entry_.contains(key); }
  // A reader of a value inside this entry ("parts[1]"), with the same names to fill in.
  EntryReader inner(const std::string& field, const json& value) const {
    return {where_ + ", " + field, value, known_};
  }

  // A string field; shared texts and constants filled in. Fixed text (titles, hints...) may
  // name nothing else; prompts, choices and fragments keep the variant's placeholders.
  std::string text(const char* key, bool takes_params = false) const {
    if (!has(key)) fail("\"" + std::string(key) + "\" is missing");
    return text_of(entry_.at(key), key, takes_params);
  }

  std::vector<std::string> texts(const char* key, bool takes_params = false) const {
    if (!has(key)) fail("\"" + std::string(key) + "\" is missing");
    const json& list = entry_.at(key);
    if (!list.is_array()) fail("\"" + std::string(key) + "\" must be a list of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      out.push_back(
          text_of(list[i], std::string(key) + "[" + std::to_string(i) + "]", takes_params));
    }
    return out;
  }

  // An object field of named strings ("fragments", "evidence").
  std::map<std::string, std::string> named_texts(const char* key, bool takes_params) const {
    const json& object = entry_.at(key);
    if (!object.is_object()) fail("\"" + std::string(key) + "\" must be an object of strings");
    std::map<std::string, std::string> out;
    for (const auto& item : object.items()) {
      out[item.key()] = text_of(item.value(), std::string(key) + "." + item.key(), takes_params);
    }
    return out;
  }

 private:
  std::string text_of(const json& value, const std::string& field, bool takes_params) const {
    if (!value.is_string()) fail("\"" + field + "\" must be a string, got " + value.dump());
    return fill_placeholders(value.get<std::string>(), [&](const std::string& name) {
      const auto found = known_.find(name);
      if (found != known_.end()) return found->second;
      if (!takes_params) {
        fail("\"" + field + "\" names {" + name +
             "}, which is neither a shared text of the file nor a constant of the exercise's "
             "C++; only the prompt, the choices and the fragments take a variant's parameters");
      }
      return "{" + name + "}";
    });
  }

  std::string where_;
  const json& entry_;
  std::map<std::string, std::string> known_;  // shared texts and constants, by name
};

const std::set<std::string> kEntryFields = {
    "id",    "title",   "prompt",        "hints",        "grader_reference", "unit",
    "parts", "choices", "function_name", "starter_code", "evidence",         "fragments"};

Exercise exercise_from(const EntryReader& r, const json& entry, const std::string& chapter,
                       const ExerciseCode& code) {
  for (const auto& item : entry.items()) {
    if (kEntryFields.count(item.key()) == 0) {
      r.fail("unknown field \"" + item.key() +
             "\"; allowed: id, title, prompt, hints, grader_reference, unit, parts, choices, "
             "function_name, starter_code, evidence, fragments");
    }
  }
  Exercise e;
  e.id = code.id;
  e.chapter = chapter;
  e.kind = code.kind;
  e.points = code.points;
  e.title = r.text("title");
  e.prompt = r.text("prompt", true);
  e.hints = r.texts("hints");
  e.grader_reference = r.text("grader_reference");
  e.tolerance = code.tolerance;
  e.time_limit_ms = code.time_limit_ms;
  e.timed_points = code.timed_points;
  e.public_tests = code.public_tests;
  if (code.public_tests < 0) r.fail("public_tests must be 0 or more, got " + std::to_string(code.public_tests));
  e.feedback_hides_answer = code.feedback_hides_answer;
  if (code.timed_points < 0 || code.timed_points >= code.points ||
      (code.timed_points > 0 && code.kind != ExerciseKind::Code)) {
    r.fail("timed_points " + std::to_string(code.timed_points) +
           " must be 0, or for a code exercise below its " + std::to_string(code.points) +
           " points");
  }

  // Each kind's fields, and none of another kind's (the page picks its control from them).
  const auto only = [&](std::initializer_list<const char*> allowed) {
    for (const char* key : {"unit", "parts", "choices", "function_name", "starter_code"}) {
      const bool ok = std::find_if(allowed.begin(), allowed.end(), [&](const char* a) {
                        return std::string(a) == key;
                      }) != allowed.end();
      if (!ok && r.has(key)) {
        r.fail("\"" + std::string(key) + "\" does not belong to a " + to_string(code.kind) +
               " exercise");
      }
    }
  };
  switch (code.kind) {
    case ExerciseKind::Numeric:
      if (code.parts.empty()) {
        only({"unit"});
        e.unit = r.text("unit");
        break;
      }
      only({"parts"});
      if (!r.has("parts") || !entry.at("parts").is_array() ||
          entry.at("parts").size() != code.parts.size()) {
        r.fail("\"parts\" must be a list of " + std::to_string(code.parts.size()) +
               " {label, unit}, one per part the C++ grades");
      }
      for (std::size_t i = 0; i < code.parts.size(); ++i) {
        const EntryReader part = r.inner("parts[" + std::to_string(i) + "]", entry.at("parts")[i]);
        if (!entry.at("parts")[i].is_object() || entry.at("parts")[i].size() != 2) {
          part.fail("must be {\"label\": ..., \"unit\": ...}");
        }
        e.parts.push_back(
            {part.text("label"), part.text("unit"), code.parts[i].tolerance, code.parts[i].weight});
      }
      break;
    case ExerciseKind::Choice:
      only({"choices"});
      e.choices = r.texts("choices", true);
      if (e.choices.size() < kMinChoices) {
        r.fail("\"choices\" must list at least " + std::to_string(kMinChoices) +
               " choices, so that a guess is right at most one time in " +
               std::to_string(kMinChoices));
      }
      break;
    case ExerciseKind::Code: {
      only({"function_name", "starter_code"});
      e.function_name = r.text("function_name");
      // A list of lines: code reads better in the data file that way.
      const json& lines = entry.value("starter_code", json());
      if (!lines.is_array() || lines.empty()) {
        r.fail("\"starter_code\" must be a non-empty list of lines");
      }
      for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].is_string()) r.fail("\"starter_code\" must be a list of strings");
        e.starter_code += (i ? "\n" : "") + lines[i].get<std::string>();
      }
      break;
    }
  }
  if (!code.parts.empty() && code.kind != ExerciseKind::Numeric) {
    r.fail("its C++ grades parts, which only a numeric exercise has");
  }

  if (r.has("evidence") != !code.experiment.empty()) {
    r.fail(code.experiment.empty()
               ? "has \"evidence\" but its C++ grades no experiment"
               : "has no \"evidence\" {title, what}, but its C++ grades it from " +
                     code.experiment);
  }
  if (!code.experiment.empty()) {
    const auto evidence = r.named_texts("evidence", false);
    if (evidence.size() != 2 || !evidence.count("title") || !evidence.count("what")) {
      r.fail("\"evidence\" must be {\"title\": ..., \"what\": ...}");
    }
    e.evidence = {code.experiment, evidence.at("title"), evidence.at("what")};
  }
  return e;
}

}  // namespace

std::vector<ExerciseEntry> load_chapter(const ExerciseFile& file, const std::string& chapter,
                                        const std::vector<ExerciseCode>& code) {
  const std::string path(file.path);
  const std::string cpp = chapter + "_exercises() in exercise_bank_" + chapter + ".cpp";
  const json data = parse_json_text(file.text, path);
  const auto fail = [&](const std::string& what) { throw Error(path + ": " + what); };
  if (!data.is_object()) fail("must be an object {chapter, shared, exercises}");
  for (const auto& item : data.items()) {
    if (item.key() != "chapter" && item.key() != "shared" && item.key() != "exercises") {
      fail("unknown field \"" + item.key() + "\"; allowed: chapter, shared, exercises");
    }
  }
  if (data.value("chapter", json()) != chapter) {
    fail("\"chapter\" must be \"" + chapter + "\", got " + data.value("chapter", json()).dump());
  }
  std::map<std::string, std::string> shared;
  if (data.contains("shared")) {
    if (!data.at("shared").is_object()) fail("\"shared\" must be an object of strings");
    for (const auto& item : data.at("shared").items()) {
      if (!item.value().is_string()) fail("shared." + item.key() + " must be a string");
      shared[item.key()] = item.value().get<std::string>();
    }
  }
  if (!data.contains("exercises") || !data.at("exercises").is_array()) {
    fail("\"exercises\" must be a list of exercises");
  }

  std::map<std::string, const ExerciseCode*> by_id;
  for (const auto& c : code) {
    if (!by_id.emplace(c.id, &c).second) fail(cpp + " defines " + c.id + " twice");
  }
  std::vector<ExerciseEntry> entries;
  std::set<std::string> seen;
  const json& exercises = data.at("exercises");
  for (std::size_t i = 0; i < exercises.size(); ++i) {
    const json& entry = exercises[i];
    const std::string at = "exercises[" + std::to_string(i) + "]";
    if (!entry.is_object() || !entry.contains("id") || !entry.at("id").is_string()) {
      fail(at + " must be an object with a string \"id\"");
    }
    const std::string id = entry.at("id").get<std::string>();
    const std::string where = path + ", " + id;
    if (id.rfind(chapter + ".", 0) != 0) {
      fail(at + ": id \"" + id + "\" must start with \"" + chapter + ".\"");
    }
    if (!seen.insert(id).second) fail(id + " appears twice");
    const auto found = by_id.find(id);
    if (found == by_id.end()) {
      throw Error(where + ": no C++ draws this exercise; add an ExerciseCode with this id to " +
                  cpp + ", or remove the entry");
    }
    const ExerciseCode& c = *found->second;
    if ((c.draw == nullptr) == (c.draw_try == nullptr)) {
      throw Error(where + ": its C++ must set exactly one of draw and draw_try");
    }
    if ((c.draw_try != nullptr) != (c.kind == ExerciseKind::Choice)) {
      throw Error(where + ": a choice exercise draws a variant per try (draw_try), other kinds "
                          "draw one (draw)");
    }
    if ((c.from_evidence == nullptr) != c.experiment.empty()) {
      throw Error(where + ": its C++ must set both experiment and from_evidence, or neither");
    }
    std::map<std::string, std::string> known = shared;
    for (const auto& item : c.constants.items()) known[item.key()] = format_param(item.value());
    const EntryReader reader(where, entry, known);
    ExerciseEntry out;
    out.exercise = exercise_from(reader, entry, chapter, c);
    out.draw = c.draw;
    out.draw_try = c.draw_try;
    out.from_evidence = c.from_evidence;
    if (entry.contains("fragments")) out.fragments = {where, reader.named_texts("fragments", true)};
    entries.push_back(std::move(out));
  }
  for (const auto& c : code) {
    if (seen.count(c.id) == 0) {
      fail("no entry for " + c.id + ", which " + cpp + " defines; add its prose to this file");
    }
  }
  return entries;
}

const std::vector<ExerciseEntry>& exercise_entries() {
  static const std::vector<ExerciseEntry> entries = [] {
    const auto path_of = [](const std::string& chapter) {
      return "core/exercises/" + chapter + ".json";
    };
    for (const auto& file : exercise_files()) {
      const bool known = std::any_of(
          exercise_chapters().begin(), exercise_chapters().end(),
          [&](const ChapterCode& chapter) { return path_of(chapter.name) == file.path; });
      if (!known) {
        throw Error(std::string(file.path) +
                    " belongs to no chapter; add the chapter to exercise_chapters() in "
                    "exercise_bank.cpp");
      }
    }
    std::vector<ExerciseEntry> all;
    for (const auto& chapter : exercise_chapters()) {
      const std::string path = path_of(chapter.name);
      const auto file = std::find_if(exercise_files().begin(), exercise_files().end(),
                                     [&](const ExerciseFile& f) { return f.path == path; });
      if (file == exercise_files().end()) {
        throw Error("chapter " + chapter.name + " has exercises in C++ but no " + path);
      }
      for (auto& entry : load_chapter(*file, chapter.name, chapter.code())) {
        all.push_back(std::move(entry));
      }
    }
    return all;
  }();
  return entries;
}

// ---- helpers for the bank files -----------------------------------------------------------

double round_to(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

void shuffle_choices(VariantData& v, int count, int correct, Rng& rng) {
  v.choice_order.resize(static_cast<std::size_t>(count));
  std::iota(v.choice_order.begin(), v.choice_order.end(), 0);
  shuffle(v.choice_order, rng);
  for (int shown = 0; shown < count; ++shown) {
    if (v.choice_order[static_cast<std::size_t>(shown)] == correct) v.correct_choice = shown;
  }
}

std::size_t pool_item(const ChoiceTry& t, std::size_t size, std::size_t k, std::size_t per_try) {
  if (size == 0 || k >= per_try) throw Error("pool_item: an empty pool or k past per_try");
  std::vector<std::size_t> order(size);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng walk(t.walk_seed);
  shuffle(order, walk);
  const auto position = static_cast<std::size_t>(t.number - 1) * per_try + k;
  return order[position % size];
}

VariantData draw_nothing(Rng&, const Fragments&) { return {}; }

std::string evidence_row_at(std::size_t i) { return "answer.evidence.rows[" + std::to_string(i) + "]"; }

double evidence_number(const Exercise& e, const nlohmann::json& rows, std::size_t i,
                       const std::string& field, bool positive) {
  const std::string where = evidence_row_at(i);
  const nlohmann::json& row = rows.at(i);
  if (!row.contains(field)) {
    throw ValueError(where + " has no field \"" + field + "\"; rows of " + e.evidence.experiment +
                     " carry it (this exercise reads " + e.evidence.what +
                     "): send the rows of that experiment as they are");
  }
  const nlohmann::json& x = row.at(field);
  const bool ok =
      x.is_number() && std::isfinite(x.get<double>()) && (positive ? x.get<double>() > 0 : true);
  if (!ok) {
    throw ValueError(where + "." + field + " must be a finite number" +
                     (positive ? " above 0" : "") + ", got " + describe_value(x) + "; run " +
                     e.evidence.title + " again");
  }
  return x.get<double>();
}

}  // namespace perflab::detail
