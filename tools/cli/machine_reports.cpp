// `perflab roofline` and `perflab bench`: core's machine reports (report.hpp) printed as JSON
// (what the page's cliReport reads back) or as readable tables; the roofline's table also
// prints every core's peak and triad from the native kernel engine (probe_engine.hpp).
// Not for: measuring or validating (core/report, core/operations); this file only prints.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/probe_engine.hpp"
#include "perflab/roofline/report.hpp"

#ifndef PERFLAB_VERSION
#error "PERFLAB_VERSION must be set by tools/CMakeLists.txt"
#endif

namespace perflab::cli {
namespace {

struct Flags {
  bool json = false;
  bool quick = false;
  // bench: raw per-call samples in each JSON row, always (what `perflab compare` reads);
  // --samples is still accepted, from when they were optional.
  bool samples = true;
};

// --json and --quick (and --samples for bench); anything else is a usage error naming it.
bool parse_flags(const std::string& command, const std::vector<std::string>& args, Flags& flags) {
  const bool bench = command == "bench";
  for (const std::string& a : args) {
    if (a == "--json") {
      flags.json = true;
    } else if (a == "--quick") {
      flags.quick = true;
    } else if (bench && a == "--samples") {
      flags.samples = true;
    } else {
      std::cerr << "perflab: unknown option '" << a << "' for " << command
                << (bench ? "; the options are --json, --quick and --samples\n"
                          : "; the options are --json and --quick\n");
      return false;
    }
  }
  return true;
}

void print_warnings(const nlohmann::json& rows) {
  for (const auto& r : rows) {
    const std::string warning = r["stats"]["warning"];
    if (!warning.empty()) {
      std::printf("warning (%s %s, n %s): %s\n", r["op"].get<std::string>().c_str(),
                  r["variant"].get<std::string>().c_str(), r["n"].dump().c_str(),
                  warning.c_str());
    }
  }
}

// Every core's roofs from the native kernel engine, a line each, beside one core's.
void print_engine_peaks(bool quick) {
  const unsigned threads = kernel_engine().facts().max_threads;
  const nlohmann::json e =
      to_json(probe_engine(threads, quick ? ProbeOptions::quick() : ProbeOptions{}));
  const std::string cores = threads == 1 ? "1 core" : "all " + std::to_string(threads) + " cores";
  std::printf("%s (kernel engine, %s): peak %.1f GFLOP/s (one core: multiply-add %.1f",
              cores.c_str(), e["all_core_flavour"].get<std::string>().c_str(),
              e["all_core_gflops_per_s"].get<double>(), e["muladd_gflops_per_s"].get<double>());
  if (!e["fma_gflops_per_s"].is_null()) {
    std::printf(", FMA %.1f", e["fma_gflops_per_s"].get<double>());
  }
  std::printf(")\n%s (kernel engine): triad %.1f GB/s (one core: %.1f GB/s)\n", cores.c_str(),
              e["all_core_triad_gb_per_s"].get<double>(),
              e["per_core_triad_gb_per_s"].get<double>());
}

}  // namespace

int roofline_command(const std::vector<std::string>& args) {
  Flags flags;
  if (!parse_flags("roofline", args, flags)) return 2;
  const nlohmann::json report = roofline_report(PERFLAB_VERSION, flags.quick);
  if (flags.json) {
    std::cout << report.dump(2) << "\n";
    return 0;
  }
  const nlohmann::json& m = report["machine"];
  std::printf("machine (%s): peak %.1f GFLOP/s, bandwidth %.1f GB/s (triad), ridge point %.2f "
              "FLOP/byte\n",
              m["simd_backend"].get<std::string>().c_str(), m["peak_gflops_per_s"].get<double>(),
              m["bandwidth_gb_per_s"].get<double>(), m["ridge_flops_per_byte"].get<double>());
  print_engine_peaks(flags.quick);
  std::printf("\n");
  std::printf("%-10s %-11s %9s %10s %9s %9s %10s %7s  %s\n", "op", "variant", "n", "FLOP/byte",
              "GFLOP/s", "GB/s", "attainable", "% roof", "bound");
  for (const auto& r : report["rows"]) {
    std::printf("%-10s %-11s %9s %10.3f %9.2f %9.2f %10.2f %6.0f%%  %s\n",
                r["op"].get<std::string>().c_str(), r["variant"].get<std::string>().c_str(),
                r["n"].dump().c_str(), r["intensity"].get<double>(),
                r["gflops_per_s"].get<double>(), r["gb_per_s"].get<double>(),
                r["attainable_gflops_per_s"].get<double>(),
                100.0 * r["fraction_of_attainable"].get<double>(),
                r["bound"].get<std::string>().c_str());
  }
  const std::string warning = m["warning"];
  if (!warning.empty()) std::printf("\nprobe warning: %s\n", warning.c_str());
  print_warnings(report["rows"]);
  return 0;
}

int bench_command(const std::vector<std::string>& args) {
  Flags flags;
  if (!parse_flags("bench", args, flags)) return 2;
  const nlohmann::json report =
      bench_report(PERFLAB_VERSION, flags.quick, default_clock(), flags.samples);
  if (flags.json) {
    std::cout << report.dump(2) << "\n";
    return 0;
  }
  std::printf("SIMD backend: %s\n\n", report["simd_backend"].get<std::string>().c_str());
  std::printf("%-7s %-13s %9s %11s %9s %9s %10s %6s\n", "op", "variant", "n", "median_ms",
              "GFLOP/s", "GB/s", "ns/elem", "CV");
  for (const auto& r : report["rows"]) {
    std::printf("%-7s %-13s %9s %11.4f %9.2f %9.2f %10.3f %5.1f%%\n",
                r["op"].get<std::string>().c_str(), r["variant"].get<std::string>().c_str(),
                r["n"].dump().c_str(), r["stats"]["median_ms"].get<double>(),
                r["gflops_per_s"].get<double>(), r["gb_per_s"].get<double>(),
                r["ns_per_element"].get<double>(), 100.0 * r["stats"]["cv"].get<double>());
  }
  print_warnings(report["rows"]);
  return 0;
}

}  // namespace perflab::cli
