// libFuzzer target for grading (grade_exercise: what `perflab grade` and the page's answer
// boxes call). An input is "ID SEED\nANSWER_JSON": the first line names the exercise (a line
// that is not a known id picks one of the bank by its hash, so every mutation grades some
// exercise) and, optionally, the seed; the rest is the answer as JSON text. Every answer is
// graded to a result, or refused with a ValueError; any other exception, a crash or a
// sanitizer report is a finding. Built by the `asan` preset; how to run it and the last
// figures: docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/grading/grader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view head = input.substr(0, newline);
  const std::string_view answer_text =
      newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);

  const std::size_t space = head.find(' ');
  const std::string_view id_text = head.substr(0, space);
  std::uint32_t seed = 1;
  if (space != std::string_view::npos) {
    seed = 0;
    for (char c : head.substr(space + 1)) seed = seed * 10 + static_cast<std::uint32_t>(c - '0');
  }
  const auto& bank = perflab::exercise_bank();
  std::string id(id_text);
  bool known = false;
  for (const perflab::Exercise& e : bank) known = known || e.id == id;
  if (!known) id = bank[std::hash<std::string_view>{}(id_text) % bank.size()].id;

  try {
    const nlohmann::json answer = perflab::parse_json_text(answer_text, "answer");
    (void)perflab::grade_exercise(id, seed, answer).dump();
  } catch (const perflab::ValueError&) {
    // The one allowed failure: a malformed answer, named.
  }
  return 0;
}
