// The bank as one list: every chapter's entries in the order the page shows them, and the
// helpers the chapters' bank files share. The exercises themselves live in
// exercise_bank_<chapter>.cpp.
// Not for: seeding, rendering or grading (grader.cpp does those for every exercise).
#include "exercise_bank.hpp"

#include <cmath>
#include <numeric>

#include "perflab/base/error.hpp"

namespace perflab::detail {

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

double evidence_number(const Exercise& e, const nlohmann::json& rows, std::size_t i,
                       const std::string& field, bool positive) {
  const std::string where = "answer.evidence.rows[" + std::to_string(i) + "]";
  const nlohmann::json& row = rows.at(i);
  if (!row.contains(field)) {
    throw ValueError(where + " has no field \"" + field + "\"; rows of " + e.evidence.experiment +
                     " carry it (this exercise reads " + e.evidence.what +
                     "): send the rows of that experiment as they are");
  }
  const nlohmann::json& x = row.at(field);
  const bool ok = x.is_number() && std::isfinite(x.get<double>()) &&
                  (positive ? x.get<double>() > 0 : true);
  if (!ok) {
    throw ValueError(where + "." + field + " must be a finite number" +
                     (positive ? " above 0" : "") + ", got " + describe_value(x) +
                     "; run " + e.evidence.title + " again");
  }
  return x.get<double>();
}

const std::vector<ExerciseEntry>& exercise_entries() {
  static const std::vector<ExerciseEntry> entries = [] {
    // Other chapters append theirs here when they get exercises.
    std::vector<ExerciseEntry> all = profiling_entries();
    for (auto& entry : acceleration_entries()) all.push_back(std::move(entry));
    return all;
  }();
  return entries;
}

}  // namespace perflab::detail
