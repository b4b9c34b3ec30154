// The bank as one list: every chapter's entries in the order the page shows them, and the
// helpers the chapters' bank files share. The exercises themselves live in
// exercise_bank_<chapter>.cpp.
// Not for: seeding, rendering or grading (grader.cpp does those for every exercise).
#include "exercise_bank.hpp"

#include <cmath>
#include <numeric>

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

const std::vector<ExerciseEntry>& exercise_entries() {
  static const std::vector<ExerciseEntry> entries = [] {
    // Other chapters append theirs here when they get exercises.
    return profiling_entries();
  }();
  return entries;
}

}  // namespace perflab::detail
