// perflab: the native command-line tool. Same core as the page, so its numbers and grades
// can be compared with (and re-check) what a student's browser produced.
// Subcommands grow with the chapters; each prints readable text, or JSON with --json.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/perflab.hpp"

namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  perflab bench [--json] [--quick]        matmul GFLOP/s per variant, N = 64..512\n"
    "  perflab exercises                       list the exercise bank (JSON)\n"
    "  perflab variant ID SEED                 the variant a student with SEED sees (JSON)\n"
    "  perflab grade ID SEED 'ANSWER_JSON'     grade an answer, e.g. '{\"value\": 8256}'\n"
    "  perflab info                            build facts: SIMD backend, timer resolution\n";

int usage_error(const std::string& message) {
  std::cerr << "perflab: " << message << "\n" << kUsage;
  return 2;
}

std::uint32_t parse_seed(const std::string& text) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-' || v > 0xFFFFFFFFull) {
    throw perflab::ValueError("SEED must be an integer from 0 to 4294967295, got '" + text + "'");
  }
  return static_cast<std::uint32_t>(v);
}

nlohmann::json stats_json(const perflab::Stats& s) {
  return {{"samples", s.samples},           {"outliers", s.outliers},
          {"mean_ms", s.mean_ms},           {"stddev_ms", s.stddev_ms},
          {"min_ms", s.min_ms},             {"max_ms", s.max_ms},
          {"median_ms", s.median_ms},       {"p95_ms", s.p95_ms},
          {"p99_ms", s.p99_ms},             {"ci95_low_ms", s.ci95_low_ms},
          {"ci95_high_ms", s.ci95_high_ms}, {"cv", s.cv},
          {"inner_iterations", s.inner_iterations}, {"resolution_ms", s.resolution_ms},
          {"warning", s.warning}};
}

int bench(bool json, bool quick) {
  perflab::TimerOptions opts;
  opts.warmup = 1;
  opts.samples = quick ? 5 : 11;
  opts.min_sample_ms = quick ? 5 : 20;
  opts.max_total_ms = quick ? 500 : 2000;
  nlohmann::json rows = nlohmann::json::array();
  if (!json) std::printf("%-10s %6s %12s %12s %8s\n", "variant", "N", "median_ms", "GFLOP/s", "CV");
  for (std::size_t n : {64, 128, 256, 512}) {
    for (const auto& v : perflab::matmul_variants()) {
      const auto m = perflab::measure_matmul(v.name, n, opts);
      if (json) {
        rows.push_back({{"variant", m.variant}, {"n", m.n}, {"flops", m.flops},
                        {"gflops_per_s", m.gflops_per_s}, {"stats", stats_json(m.stats)}});
      } else {
        std::printf("%-10s %6zu %12.4f %12.2f %7.1f%%\n", m.variant.c_str(), m.n,
                    m.stats.median_ms, m.gflops_per_s, 100.0 * m.stats.cv);
        if (!m.stats.warning.empty()) std::printf("           warning: %s\n", m.stats.warning.c_str());
      }
    }
  }
  if (json) {
    std::cout << nlohmann::json{{"simd_backend", perflab::simd_backend()}, {"matmul", rows}}.dump(2)
              << "\n";
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  if (args.empty()) return usage_error("missing subcommand");
  const std::string& cmd = args[0];
  auto has = [&](std::string_view flag) {
    for (const auto& a : args) if (a == flag) return true;
    return false;
  };
  if (cmd == "bench") return bench(has("--json"), has("--quick"));
  if (cmd == "info") {
    const double res = perflab::measure_resolution_ms(perflab::default_clock());
    std::cout << nlohmann::json{{"simd_backend", perflab::simd_backend()},
                                {"simd", perflab::simd_enabled()},
                                {"timer_resolution_ms", res}}.dump(2) << "\n";
    return 0;
  }
  if (cmd == "exercises") {
    std::cout << perflab::exercise_bank_json().dump(2) << "\n";
    return 0;
  }
  if (cmd == "variant") {
    if (args.size() != 3) return usage_error("variant needs ID and SEED");
    std::cout << perflab::exercise_variant(args[1], parse_seed(args[2])).dump(2) << "\n";
    return 0;
  }
  if (cmd == "grade") {
    if (args.size() != 4) return usage_error("grade needs ID, SEED and ANSWER_JSON");
    nlohmann::json answer;
    try {
      answer = nlohmann::json::parse(args[3]);
    } catch (const nlohmann::json::parse_error& e) {
      throw perflab::ValueError(std::string("ANSWER_JSON is not valid JSON: ") + e.what());
    }
    const auto result = perflab::grade_exercise(args[1], parse_seed(args[2]), answer);
    std::cout << result.dump(2) << "\n";
    return result.value("correct", false) ? 0 : 1;
  }
  return usage_error("unknown subcommand '" + cmd + "'");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const perflab::Error& e) {
    std::cerr << "perflab: " << e.what() << "\n";
    return 2;
  }
}
