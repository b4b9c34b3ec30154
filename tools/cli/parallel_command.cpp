// `perflab parallel`: the kernel engine's packed matmul or fused GELU measured at each thread
// count (kernels/parallel.hpp: verified, then timed), with core's scaling analysis
// (stats/scaling.hpp: speedup, efficiency, Karp-Flatt and the Amdahl fit), as a table or as
// JSON. Natively the engine is core's std::thread engine over the same band kernels the
// page's engine runs. Sizes and timer options default to the thread-scaling experiment's plan
// (suite/experiment_plans.hpp), so the CLI and the page measure the same points.
// Not for: measuring or analysing (core does both); this file parses flags and prints.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/parallel.hpp"
#include "perflab/stats/scaling.hpp"
#include "perflab/suite/experiment_plans.hpp"

namespace perflab::cli {
namespace {

struct ParallelFlags {
  std::string kernel = "matmul";
  std::size_t n = 0;
  bool n_given = false;  // else the plan's size for the kernel
  std::vector<unsigned> threads;  // empty: 1 .. the engine's max_threads
  bool json = false;
  bool quick = false;
};

// "1,2,4" into thread counts; ValueError naming the flag and what is allowed.
std::vector<unsigned> thread_list(const std::string& text) {
  std::vector<unsigned> list;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const int t = count_arg("--threads", text.substr(start, comma - start));
    if (t < 1 || t > static_cast<int>(kMaxEngineThreads)) {
      throw ValueError("--threads takes thread counts between 1 and " +
                       std::to_string(kMaxEngineThreads) + " separated by commas, got '" + text +
                       "'");
    }
    for (unsigned seen : list) {
      if (seen == static_cast<unsigned>(t)) {
        throw ValueError("--threads lists " + std::to_string(t) + " twice in '" + text + "'");
      }
    }
    list.push_back(static_cast<unsigned>(t));
    start = comma + 1;
  }
  return list;
}

}  // namespace

int parallel_command(const std::vector<std::string>& args) {
  ParallelFlags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      flags.json = true;
    } else if (a == "--quick") {
      flags.quick = true;
    } else if (a == "--kernel") {
      flags.kernel = option_value(args, i);
      if (flags.kernel != "matmul" && flags.kernel != "gelu") {
        return usage("--kernel is matmul or gelu, got '" + flags.kernel + "'");
      }
    } else if (a == "--n") {
      flags.n = static_cast<std::size_t>(count_arg("--n", option_value(args, i)));
      flags.n_given = true;
    } else if (a == "--threads") {
      flags.threads = thread_list(option_value(args, i));
    } else {
      return usage("unknown option '" + a +
                   "' for parallel; the options are --kernel matmul|gelu, --n N, --threads "
                   "1,2,..., --json and --quick");
    }
  }

  const nlohmann::json plan = experiment_plan("acceleration-thread-scaling", flags.quick);
  TimerOptions options;
  for (const auto& [key, value] : plan["options"].items()) {
    read_timer_option(options, key, value, "options." + key);
  }
  const bool matmul = flags.kernel == "matmul";
  const std::size_t n =
      flags.n_given ? flags.n : plan[matmul ? "matmul_n" : "gelu_elements"].get<std::size_t>();
  const EngineFacts facts = kernel_engine().facts();
  if (flags.threads.empty()) {
    for (unsigned t = 1; t <= facts.max_threads; ++t) flags.threads.push_back(t);
  }
  const std::string flavour = facts.flavours.front();  // the fastest this engine runs

  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::pair<unsigned, double>> points;
  for (unsigned threads : flags.threads) {
    const ParallelMeasurement m = matmul ? measure_parallel_matmul(flavour, threads, n, options)
                                         : measure_parallel_gelu(flavour, threads, n, options);
    rows.push_back(to_json(m));
    points.emplace_back(threads, m.stats.median_ms);
  }
  bool has_one = false;
  for (const auto& p : points) has_one = has_one || p.first == 1;
  // The analysis needs the 1-thread point and one more (analyze_scaling says so otherwise).
  const bool analysable = has_one && points.size() >= 2;
  const nlohmann::json analysis = analysable ? to_json(analyze_scaling(points)) : nullptr;

  if (flags.json) {
    std::cout << nlohmann::json{{"tool", "perflab"},
                                {"kind", "parallel"},
                                {"engine", to_json(facts)},
                                {"rows", rows},
                                {"scaling", analysis}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::printf("engine: %s\n", facts.why.c_str());
  std::printf("%s, %s %zu, flavour %s\n\n", matmul ? "packed matmul" : "fused GELU",
              matmul ? "N =" : "elements", n, flavour.c_str());
  std::printf("%7s %11s %9s %9s %8s %10s %10s %6s\n", "threads", "median_ms", "GFLOP/s", "GB/s",
              "speedup", "efficiency", "Karp-Flatt", "CV");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const nlohmann::json& r = rows[i];
    std::string speedup = "-", efficiency = "-", karp_flatt = "-";
    if (analysable) {
      for (const auto& s : analysis["rows"]) {
        if (s["threads"] != r["threads"]) continue;
        char text[32];
        std::snprintf(text, sizeof text, "%.2fx", s["speedup"].get<double>());
        speedup = text;
        efficiency = percent(s["efficiency"].get<double>());
        if (!s["karp_flatt"].is_null()) {
          std::snprintf(text, sizeof text, "%.3f", s["karp_flatt"].get<double>());
          karp_flatt = text;
        }
      }
    }
    std::printf("%7u %11.4f %9.2f %9.2f %8s %10s %10s %5.1f%%\n", r["threads"].get<unsigned>(),
                r["stats"]["median_ms"].get<double>(), r["gflops_per_s"].get<double>(),
                r["gb_per_s"].get<double>(), speedup.c_str(), efficiency.c_str(),
                karp_flatt.c_str(), 100.0 * r["stats"]["cv"].get<double>());
  }
  if (analysable) {
    const nlohmann::json& fit = analysis["fit"];
    char bound[48] = "no bound";  // serial fraction 0: Amdahl's law sets no limit
    if (!fit["max_speedup"].is_null()) {
      std::snprintf(bound, sizeof bound, "at most %.2fx", fit["max_speedup"].get<double>());
    }
    std::printf("\nAmdahl fit: serial fraction %.3f, so %s on any number of threads (RMS %.3fx)\n",
                fit["serial_fraction"].get<double>(), bound, fit["rms_error"].get<double>());
  } else {
    std::printf("\n(no scaling analysis: it needs the 1-thread point and at least one more)\n");
  }
  for (const auto& r : rows) {
    const std::string warning = r["stats"]["warning"];
    if (!warning.empty()) {
      const unsigned t = r["threads"].get<unsigned>();
      std::printf("warning (%u %s): %s\n", t, t == 1 ? "thread" : "threads", warning.c_str());
    }
  }
  return 0;
}

}  // namespace perflab::cli
