// The Benchmarking chapter's plans: how many calls, samples, rounds, trials and sizes each of
// its experiments measures, full and quick (?quick=1: seconds in all, noisier numbers). The
// page measures these and its text quotes them, so each number is written once, here.
// Not for: splitting a plan into points (the page's plan functions) or any statistic.
#include "experiment_plans_benchmarking.hpp"

#include <cstddef>

namespace perflab::detail {
namespace {

using nlohmann::json;

json timer(int warmup, int samples, double min_sample_ms, double max_total_ms) {
  return {{"warmup", warmup}, {"samples", samples}, {"min_sample_ms", min_sample_ms},
          {"max_total_ms", max_total_ms}};
}

// The distribution's run, also the intervals experiment's reference run: every sample lasts
// the timer's minimum (100 clock ticks), nothing dropped. The page takes it over several
// sampling calls (each within kMaxSampleKernelTotalMs: 10 calls of 3 s when full).
json sampling(bool quick) { return quick ? timer(5, 200, 0, 3000) : timer(20, 1000, 0, 30000); }

// The clock experiment's fixed batches k: 1, 2, 4 … 1024 calls per sample.
json powers_of_two(std::size_t max) {
  json out = json::array();
  for (std::size_t k = 1; k <= max; k *= 2) out.push_back(k);
  return out;
}

json kernel(const char* op, const char* variant, json sizes) {
  return {{"op", op}, {"variant", variant}, {"sizes", std::move(sizes)}};
}

json full_plan(std::string_view id) {
  // Each of the first calls timed alone; core summarizes the first and the last stretch.
  if (id == "benchmarking-warmup") {
    return {{"calls", 300}, {"first", 10}, {"last", 100}, {"max_total_ms", 5000}};
  }
  // The warmup is calls (a millisecond or so of them): each batch is fixed, not calibrated.
  if (id == "benchmarking-clock") {
    return {{"batches", powers_of_two(1024)}, {"options", timer(200, 50, 0, 3000)}};
  }
  if (id == "benchmarking-distribution") return {{"options", sampling(false)}};
  // Small samples per size drawn from the reference run, bootstrap resamples of each.
  if (id == "benchmarking-intervals") {
    return {{"options", sampling(false)},
            {"coverage", {{"trials", 400}, {"bootstrap_resamples", 1000}, {"seed", 1}}}};
  }
  // max_repeats null: as many repeats as the student asks for.
  if (id == "benchmarking-aa") return {{"rounds", 30}, {"warmup", 3}, {"max_repeats", nullptr}};
  if (id == "benchmarking-ab") return {{"rounds", 30}, {"warmup", 3}};
  // n is N for a matmul (N×N @ N×N), elements for GELU.
  if (id == "benchmarking-complexity") {
    return {{"kernels", {kernel("matmul", "naive", {16, 24, 32, 48, 64, 96, 128, 192, 256}),
                         kernel("matmul", "packed", {16, 32, 64, 128, 256}),
                         kernel("gelu", "fused-simd", {1024, 4096, 16384, 65536, 262144, 1048576})}},
            {"options", timer(2, 15, 0, 2000)}};
  }
  // options null: the suite's own timer (default_suite_timer_options).
  if (id == "benchmarking-suite") return {{"options", nullptr}};
  return nullptr;
}

json quick_plan(std::string_view id) {
  if (id == "benchmarking-warmup") {
    return {{"calls", 100}, {"first", 10}, {"last", 50}, {"max_total_ms", 2000}};
  }
  if (id == "benchmarking-clock") {
    return {{"batches", {1, 4, 16, 64, 256}}, {"options", timer(200, 15, 0, 300)}};
  }
  if (id == "benchmarking-distribution") return {{"options", sampling(true)}};
  if (id == "benchmarking-intervals") {
    return {{"options", sampling(true)},
            {"coverage", {{"trials", 100}, {"bootstrap_resamples", 200}, {"seed", 1}}}};
  }
  if (id == "benchmarking-aa") return {{"rounds", 10}, {"warmup", 1}, {"max_repeats", 8}};
  if (id == "benchmarking-ab") return {{"rounds", 8}, {"warmup", 1}};
  // Three sizes per kernel, still spanning a factor of 10 or more (over a narrower range the
  // classes differ too little to rank), and a few samples each: about a second in all.
  if (id == "benchmarking-complexity") {
    return {{"kernels", {kernel("matmul", "naive", {16, 48, 160}),
                         kernel("matmul", "packed", {16, 64, 256}),
                         kernel("gelu", "fused-simd", {1024, 32768, 1048576})}},
            {"options", timer(1, 5, 0, 200)}};
  }
  // A smaller timer for every model, so a suite of the whole zoo takes seconds.
  if (id == "benchmarking-suite") return {{"options", timer(1, 3, 1, 100)}};
  return nullptr;
}

}  // namespace

const std::vector<std::string>& benchmarking_plan_ids() {
  static const std::vector<std::string> ids = {
      "benchmarking-warmup", "benchmarking-clock", "benchmarking-distribution",
      "benchmarking-intervals", "benchmarking-aa", "benchmarking-ab",
      "benchmarking-complexity", "benchmarking-suite"};
  return ids;
}

json benchmarking_plan(std::string_view id, bool quick) {
  return quick ? quick_plan(id) : full_plan(id);
}

}  // namespace perflab::detail
