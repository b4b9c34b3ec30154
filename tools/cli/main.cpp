// perflab: the native command-line tool. Same core as the page, so its numbers and grades
// can be compared with (and re-check) what a student's browser produced.
// Subcommands grow with the chapters; each prints readable text, or JSON with --json.
// Exit status: 0 done, 1 a graded answer was wrong, 2 bad usage or input (the reason on stderr).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/perflab.hpp"

namespace {

using perflab::cli::count_arg;
using perflab::cli::number_arg;
using perflab::cli::option_value;
using perflab::cli::read_text_file;

constexpr const char* kUsage =
    "usage:\n"
    "  perflab help | --help | -h              this text\n"
    "  perflab bench [--json] [--quick]        matmul variants at N = 64..512 and GELU variants\n"
    "                                          (the JSON keeps every raw per-call sample; the\n"
    "                                          old --samples flag is accepted and changes nothing)\n"
    "  perflab compare BASE.json NEW.json [--threshold PCT] [--alpha A] [--json]\n"
    "                                          compare two `bench --json` runs: exit 1\n"
    "                                          when a benchmark is significantly slower by more\n"
    "                                          than PCT percent (default 2, alpha 0.05)\n"
    "  perflab roofline [--json] [--quick]     probe this machine's roofs and place the lab's\n"
    "                                          kernels on them (--quick: a few seconds)\n"
    "  perflab parallel [--kernel matmul|gelu] [--n N] [--threads 1,2,...] [--json] [--quick]\n"
    "                                          the kernel engine's packed matmul or fused GELU\n"
    "                                          at each thread count (default 1 to every core):\n"
    "                                          speedup, efficiency, Karp-Flatt, Amdahl fit\n"
    "  perflab suite SUITE.json [--json|--markdown|--csv]\n"
    "                                          run a benchmark suite (models x metrics,\n"
    "                                          kernels) and print its report (Markdown);\n"
    "                                          model files it names get their test accuracy\n"
    "  perflab compliance [--json|--markdown] [--data DIR] [--baseline MODEL_FILE] [--samples N]\n"
    "                                          MLPerf-Tiny-style report: each task's zoo model\n"
    "                                          timed at batch 1 against its latency target, and\n"
    "                                          Fashion-MNIST with the baseline model file (default\n"
    "                                          build/pretrained/fashion_mlp.perflab), its accuracy\n"
    "                                          on the test split\n"
    "  perflab exercises                       list the exercise bank (JSON)\n"
    "  perflab variant ID SEED [KEY] [--try N] the variant a student with SEED sees (JSON);\n"
    "                                          with a grading KEY, the re-grade's hidden tests;\n"
    "                                          a choice exercise's variant on try N\n"
    "  perflab grade ID SEED 'ANSWER_JSON' [KEY] [--mode MODE]\n"
    "                                          grade an answer, e.g. '{\"value\": 8256}'\n"
    "                                          (code results against KEY's hidden tests);\n"
    "                                          MODE practice (default), assessed (right or\n"
    "                                          wrong only) or sealed (no verdict), as a course\n"
    "                                          gives its feedback\n"
    "  perflab info                            build facts: SIMD backend, timer resolution\n"
    "  perflab zoo [--json]                    the built-in model specs\n"
    "  perflab profile SPEC.json [OPTIONS]     profile a model spec: per-layer table, totals\n"
    "  perflab profile --zoo NAME [OPTIONS]    profile a zoo model\n"
    "    --json                  one JSON object on stdout (the page's profileModel result)\n"
    "    --samples N             timed samples per measurement (default 10)\n"
    "    --min-sample-ms X       shortest sample in ms (default 2)\n"
    "    --max-total-ms X        time budget of each measurement in ms, warmup included\n"
    "                            (default 500)\n"
    "    --batch N               run at batch N instead of the spec's input[0]\n"
    "    --no-layers             do not time each layer alone\n"
    "    --no-backward           do not time backward or measure training memory\n"
    "    --peak-gflops-per-s X --bandwidth-gb-per-s Y\n"
    "                            judge the bottleneck against these roofs instead of the\n"
    "                            quick machine probe (both or neither)\n"
    "  perflab train SPEC.json --out MODEL [OPTIONS]\n"
    "  perflab train --zoo NAME --out MODEL [OPTIONS]\n"
    "                                          train a classifier on Fashion-MNIST, measure it\n"
    "                                          on the test split and write the model file\n"
    "                                          (progress on stderr); defaults: the zoo model's\n"
    "                                          baseline recipe (fashion_mlp, fashion_cnn), else\n"
    "                                          core's default recipe\n"
    "    --data DIR              the data's folder (default /usr/share/datasets/fashion-mnist)\n"
    "    --epochs N  --batch B  --optimizer sgd|adam|adamw  --lr X (learning rate)  --seed S\n"
    "                            replace the recipe's value\n"
    "    --train-samples N       train on the first N training images only (quick runs)\n"
    "    --validation-samples N  images held out of them for validation (default: the\n"
    "                            recipe's, a tenth of N with --train-samples)\n"
    "  perflab evaluate MODEL [--data DIR] [--json]\n"
    "                                          a model file's accuracy on Fashion-MNIST's test\n"
    "                                          split: per class, confusion matrix, loss\n"
    "                                          (--data: default /usr/share/datasets/fashion-mnist)\n"
    "  perflab export MODEL --npy DIR          one NumPy .npy file per parameter tensor and a\n"
    "                                          manifest.json (layers, shapes, preprocessing)\n"
    "  perflab weights MODEL [--json]          the weight distribution per weight tensor and\n"
    "                                          over all: count, mean, std, min, max, |w|\n"
    "                                          percentiles 10-90, fractions below 0.001, 0.01,\n"
    "                                          0.1 (--json: with a histogram per tensor)\n"
    "  perflab prune MODEL --sparsity S --out MODEL [--global | --structured]\n"
    "      [--finetune EPOCHS] [--train-samples N] [--data DIR]\n"
    "                                          magnitude pruning: the fraction S of smallest\n"
    "                                          weights of each weight tensor (--global: of all\n"
    "                                          of them) set to zero; --structured: S of each\n"
    "                                          hidden layer's units (channels) removed, the\n"
    "                                          layers shrunk; test accuracy before and after;\n"
    "                                          --finetune trains EPOCHS more (magnitude: at a\n"
    "                                          tenth of the recipe's learning rate, zeros kept;\n"
    "                                          structured: at the recipe's own)\n"
    "  perflab quantize MODEL --int8 --out MODEL [--calibrate N]\n"
    "      [--calibration minmax|percentile] [--data DIR]\n"
    "                                          int8 Linear layers: per-channel weights, uint8\n"
    "                                          activations calibrated on N training images\n"
    "                                          (default 1000, min/max); accuracy, bytes and each\n"
    "                                          layer's error against the float model\n"
    "  perflab distill TEACHER (--student SPEC.json | --zoo NAME) --out MODEL\n"
    "      [--temperature T] [--alpha A] [training flags as for train]\n"
    "                                          train the student on the teacher's softened\n"
    "                                          outputs (T, default 1) mixed with the labels\n"
    "                                          (alpha, default 0.9, the teacher's weight), and\n"
    "                                          the same student on the labels alone (same\n"
    "                                          recipe, seed, split): both test accuracies\n"
    "  perflab olympics events [--json]        the Olympics' events: metric, direction and\n"
    "                                          constraints of each, the all-around formula\n"
    "  perflab olympics check ENTRY.json [--data DIR] [--baseline MODEL_FILE] [--json]\n"
    "                                          check an entry (or a submission's entries) as\n"
    "                                          the grader does: the model rebuilt from its\n"
    "                                          pipeline and evaluated, its latency from its\n"
    "                                          samples, every event's verdict, the flags\n"
    "  Bad specs (missing file, invalid JSON, spec errors) exit with status 2.\n";

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

// ---- zoo and profile

int zoo(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : perflab::zoo()) {
      out.push_back({{"name", e.name}, {"description", e.description}, {"spec", e.spec}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& e : perflab::zoo())
    std::printf("%-18s %s\n", e.name.c_str(), e.description.c_str());
  return 0;
}

// 1234567 -> "1,234,567"; non-integers keep three significant decimals.
std::string grouped(double v) {
  if (!std::isfinite(v)) return std::to_string(v);
  if (v != std::floor(v) || std::fabs(v) >= 1e18) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3g", v);
    return buf;
  }
  std::string digits = std::to_string(static_cast<long long>(std::fabs(v)));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

// A number that reads well at any scale, in one notation down a column: 0.0000123, 0.000123,
// 0.0457, 1.23, 12.3, 1234 (core's format_decimal).
std::string sig(double v) { return perflab::format_decimal(v, 3); }

std::string bytes(std::size_t b) { return perflab::format_bytes(b); }

void print_profile(const perflab::ModelProfile& p) {
  using perflab::shape_to_string;
  const auto& f = p.forward;
  const auto& m = f.memory;
  std::printf("model %s: input %s -> output %s, batch %zu\n\n", p.name.c_str(),
              shape_to_string(p.input).c_str(), shape_to_string(p.output_shape).c_str(), f.batch);
  std::printf("%3s  %-20s %-20s %12s %15s %12s %11s %9s\n", "#", "layer", "output shape",
              "parameters", "FLOPs/sample", "activation", "forward ms", "GFLOP/s");
  for (const auto& l : p.layers) {
    const bool timed = l.forward.samples > 0;
    std::printf(
        "%3zu  %-20s %-20s %12s %15s %12s %11s %9s\n", l.index, l.type.c_str(),
        shape_to_string(l.output_shape).c_str(), grouped(static_cast<double>(l.parameters)).c_str(),
        grouped(l.flops_per_sample.matmul).c_str(), bytes(l.activation_bytes).c_str(),
        timed ? sig(l.forward.median_ms).c_str() : "-", timed ? sig(l.gflops_per_s).c_str() : "-");
  }
  const auto& fs = p.flops.per_sample;
  const auto& fb = p.flops.per_batch;
  std::printf("\nparameters   %s (%s)\n", grouped(static_cast<double>(p.parameters.total)).c_str(),
              bytes(p.parameters.bytes).c_str());
  std::printf("FLOPs        %s per sample, %s per batch (matmul, 2 per multiply-add)\n",
              grouped(fs.matmul).c_str(), grouped(fb.matmul).c_str());
  std::printf("             per batch also: bias %s, element-wise %s; all %s\n",
              grouped(fb.bias).c_str(), grouped(fb.elementwise).c_str(),
              grouped(fb.total()).c_str());
  std::printf("memory       activations %s (the original's estimate, input x 2: %s)\n",
              bytes(m.activation_bytes).c_str(), bytes(m.activation_estimate_bytes).c_str());
  std::printf("             peak observed in one forward %s (largest activation %s)\n",
              bytes(m.peak_bytes).c_str(), bytes(m.largest_activation_bytes).c_str());
  std::printf(
      "             gradients %s; optimizer state: SGD %s, momentum %s, Adam %s, AdamW %s\n",
      bytes(m.gradient_bytes).c_str(), bytes(m.optimizer_bytes.sgd).c_str(),
      bytes(m.optimizer_bytes.momentum).c_str(), bytes(m.optimizer_bytes.adam).c_str(),
      bytes(m.optimizer_bytes.adamw).c_str());
  const auto& s = f.latency;
  std::printf(
      "latency      whole-model forward (inference) per batch of %zu: median %s ms (95%% CI "
      "%s-%s), mean %s ms, stddev %s ms, p95 %s, p99 %s, CV %s%%, %zu samples\n",
      f.batch, sig(s.median_ms).c_str(), sig(s.ci95_low_ms).c_str(), sig(s.ci95_high_ms).c_str(),
      sig(s.mean_ms).c_str(), sig(s.stddev_ms).c_str(), sig(s.p95_ms).c_str(),
      sig(s.p99_ms).c_str(), fixed(100 * s.cv, 1).c_str(), s.samples);
  if (!s.warning.empty()) std::printf("             warning: %s\n", s.warning.c_str());
  std::printf("throughput   %s GFLOP/s (matmul; all FLOPs: %s), %s samples/s\n",
              sig(f.gflops_per_s).c_str(), sig(f.gflops_per_s_all).c_str(),
              grouped(std::round(f.samples_per_s)).c_str());
  std::printf(
      "memory use   efficiency %s%%: useful %s (parameters, input, output) of %s held at the "
      "peak (the same and the measured peak above them)\n",
      fixed(100 * f.memory_efficiency, 1).c_str(), bytes(static_cast<std::size_t>(f.useful_bytes)).c_str(),
      bytes(static_cast<std::size_t>(f.held_bytes)).c_str());
  std::printf("bandwidth    %s MB/s: bytes moved / median, MB = 2^20 bytes (a lower bound of the "
              "real traffic)\n",
              grouped(std::round(f.memory_bandwidth_mb_per_s)).c_str());
  const auto& b = f.bottleneck;
  std::printf("bottleneck   %s\n", b.placement.verdict.c_str());
  std::printf(
      "             bytes moved %s (parameters + input + activations), %s%% of peak; "
      "roofs %s: %s GFLOP/s, %s GB/s%s%s\n",
      bytes(static_cast<std::size_t>(f.bytes_moved)).c_str(),
      fixed(100 * b.fraction_of_peak, 1).c_str(), b.machine.source.c_str(),
      sig(b.machine.peak_gflops_per_s).c_str(), sig(b.machine.bandwidth_gb_per_s).c_str(),
      b.machine.simd_backend.empty() ? "" : ", ", b.machine.simd_backend.c_str());
  std::printf(
      "             the original's rule says \"%s\" (peak memory per second %s MB/s against "
      "100 x %s GFLOP/s = %s), efficiency %s%% of an assumed 100 GFLOP/s\n",
      b.original_verdict.c_str(), grouped(std::round(b.original_memory_bandwidth_mb_per_s)).c_str(),
      sig(f.gflops_per_s).c_str(), sig(100 * f.gflops_per_s).c_str(),
      fixed(100 * b.original_efficiency, 1).c_str());
  if (p.backward) {
    const auto& w = *p.backward;
    std::printf(
        "backward     %s ms = %s x the training forward (caches kept, %s ms) timed interleaved "
        "with it in %zu rounds; %s ms by the 2x rule; FLOPs %s "
        "counted, %s x forward (the original's estimate, 2 x forward: %s; no input gradient "
        "for the first layer: %s not computed)\n",
        sig(w.measured_ms).c_str(), sig(w.ratio_to_forward).c_str(), sig(w.forward.median_ms).c_str(),
        w.rounds, sig(w.estimated_ms).c_str(),
        grouped(w.flops_per_batch.matmul).c_str(), sig(w.flops_ratio_to_forward).c_str(),
        grouped(w.estimated_flops).c_str(), grouped(w.skipped_input_grad_flops.matmul).c_str());
    std::printf(
        "training     step peak %s; with Adam %s in all (parameters, gradients, state, "
        "step peak)\n",
        bytes(w.memory.step_peak_bytes).c_str(), bytes(w.memory.total_bytes.adam).c_str());
    std::printf(
        "step total   forward + backward: %s FLOPs, %s ms (%s GFLOP/s), memory %s (parameters, "
        "gradients, step peak; SGD); the original's rule, 3 x forward: %s FLOPs, %s ms\n",
        grouped(w.total_flops).c_str(), sig(w.total_ms).c_str(), sig(w.total_gflops_per_s).c_str(),
        bytes(w.total_memory_bytes).c_str(), grouped(w.estimated_total_flops).c_str(),
        sig(w.estimated_total_ms).c_str());
  }
  if (!p.top_operations.empty()) {
    std::printf("\ntop operations (ProfilerContext, totals over %d recorded passes)\n"
                "%-32s %-9s %6s %10s %7s %9s\n",
                p.operation_passes, "layer", "pass", "calls", "total ms", "%", "GFLOP/s");
    for (const auto& r : p.top_operations) {
      const std::string name = std::string(static_cast<std::size_t>(2 * r.depth), ' ') + r.layer;
      std::printf("%-32s %-9s %6zu %10s %7s %9s\n", name.c_str(), r.pass.c_str(), r.calls,
                  sig(r.total_ms).c_str(), fixed(r.percent_of_total, 1).c_str(),
                  sig(r.gflops_per_s).c_str());
    }
  }
}

int profile(const std::vector<std::string>& args) {
  bool json = false;
  std::string zoo_name, spec_path;
  std::optional<double> peak, bandwidth;
  perflab::ProfileOptions options;
  // The timer's warnings and budget errors name this command's flags as their remedies.
  options.timer.controls = {"--samples", "--max-total-ms"};
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> const std::string& { return option_value(args, i); };
    if (a == "--json") {
      json = true;
    } else if (a == "--zoo") {
      zoo_name = value();
    } else if (a == "--samples") {
      options.timer.samples = count_arg(a, value());
    } else if (a == "--min-sample-ms") {
      options.timer.min_sample_ms = number_arg(a, value());
    } else if (a == "--max-total-ms") {
      options.timer.max_total_ms = number_arg(a, value());
    } else if (a == "--batch") {
      // Core reads batch 0 as "the spec's own"; on the command line that is leaving the flag
      // out, so a 0 given here is a mistake, not a request.
      const int batch = count_arg(a, value());
      if (batch == 0) {
        return usage_error("--batch must be at least 1, got 0; leave --batch out to run at the "
                           "spec's input[0]");
      }
      options.batch = static_cast<std::size_t>(batch);
    } else if (a == "--no-layers") {
      options.layers = false;
    } else if (a == "--no-backward") {
      options.backward = false;
    } else if (a == "--peak-gflops-per-s") {
      peak = number_arg(a, value());
    } else if (a == "--bandwidth-gb-per-s") {
      bandwidth = number_arg(a, value());
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option '" + a + "' for profile");
    } else if (spec_path.empty()) {
      spec_path = a;
    } else {
      return usage_error("profile takes one SPEC.json, got '" + spec_path + "' and '" + a + "'");
    }
  }
  if (zoo_name.empty() == spec_path.empty()) {
    return usage_error("profile needs either SPEC.json or --zoo NAME");
  }
  if (peak.has_value() != bandwidth.has_value()) {
    return usage_error("--peak-gflops-per-s and --bandwidth-gb-per-s go together");
  }
  if (peak) options.machine = perflab::MachineRoofs{{*peak, *bandwidth}, "given", ""};
  options.validate();
  // Parse before anything is measured, so a bad spec fails fast.
  nlohmann::json spec;
  if (zoo_name.empty()) {
    spec = perflab::spec_from_text(read_text_file(spec_path, "spec file"));
  } else {
    spec = perflab::zoo_spec(zoo_name);
  }
  const perflab::ModelProfile p = perflab::profile_spec(spec, options);
  if (json) {
    std::cout << perflab::to_json(p).dump(2) << "\n";
  } else {
    print_profile(p);
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  if (args.empty()) return usage_error("missing subcommand");
  const std::string& cmd = args[0];
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  auto has = [&](std::string_view flag) {
    for (const auto& a : args) if (a == flag) return true;
    return false;
  };
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "bench") return perflab::cli::bench_command(rest);
  if (cmd == "roofline") return perflab::cli::roofline_command(rest);
  if (cmd == "parallel") return perflab::cli::parallel_command(rest);
  if (cmd == "compare") return perflab::cli::compare_command(rest);
  if (cmd == "suite") return perflab::cli::suite_command(rest);
  if (cmd == "compliance") return perflab::cli::compliance_command(rest);
  if (cmd == "train") return perflab::cli::train_command(rest);
  if (cmd == "evaluate") return perflab::cli::evaluate_command(rest);
  if (cmd == "export") return perflab::cli::export_command(rest);
  if (cmd == "weights") return perflab::cli::weights_command(rest);
  if (cmd == "prune") return perflab::cli::prune_command(rest);
  if (cmd == "distill") return perflab::cli::distill_command(rest);
  if (cmd == "quantize") return perflab::cli::quantize_command(rest);
  if (cmd == "olympics") return perflab::cli::olympics_command(rest);
  if (cmd == "info") {
    const double res = perflab::measure_resolution_ms(perflab::default_clock());
    std::cout << nlohmann::json{{"simd_backend", perflab::simd_backend()},
                                {"simd", perflab::simd_enabled()},
                                {"timer_resolution_ms", res}}.dump(2) << "\n";
    return 0;
  }
  if (cmd == "zoo") return zoo(has("--json"));
  if (cmd == "profile") return profile(args);
  if (cmd == "exercises") {
    std::cout << perflab::exercise_bank_json().dump(2) << "\n";
    return 0;
  }
  if (cmd == "variant") {
    // --try N: a choice exercise's variant on try N (each try draws its own; grader.hpp).
    std::vector<std::string> plain;
    std::string try_text;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--try") {
        try_text = option_value(args, i);
      } else {
        plain.push_back(args[i]);
      }
    }
    if (plain.size() != 3 && plain.size() != 4) {
      return usage_error("variant needs ID and SEED, and optionally a grading KEY or --try N");
    }
    const std::string key = plain.size() == 4 ? plain[3] : "";
    if (!try_text.empty()) {
      const bool digits = try_text.find_first_not_of("0123456789") == std::string::npos;
      const int try_number = digits && try_text.size() <= 4 ? std::stoi(try_text) : 0;
      if (!key.empty()) return usage_error("variant takes a grading KEY or --try N, not both");
      if (try_number < 1 || try_number > perflab::kMaxChoiceAttempt) {
        throw perflab::ValueError("--try must be an integer from 1 to " +
                                  std::to_string(perflab::kMaxChoiceAttempt) + ", got '" +
                                  try_text + "'");
      }
      std::cout << perflab::choice_variant(plain[1], parse_seed(plain[2]), try_number).dump(2)
                << "\n";
      return 0;
    }
    std::cout << perflab::exercise_variant(plain[1], parse_seed(plain[2]), key).dump(2) << "\n";
    return 0;
  }
  if (cmd == "grade") {
    // --mode practice|assessed|sealed: the course's answer mode, so the feedback is the one
    // the course page gives (answer_modes.hpp).
    std::vector<std::string> plain;
    perflab::AnswerMode mode = perflab::AnswerMode::Practice;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--mode") {
        mode = perflab::answer_mode_from_string(option_value(args, i), "--mode");
      } else {
        plain.push_back(args[i]);
      }
    }
    if (plain.size() != 4 && plain.size() != 5) {
      return usage_error("grade needs ID, SEED and ANSWER_JSON, and optionally a grading KEY");
    }
    const nlohmann::json answer = perflab::parse_json_text(plain[3], "ANSWER_JSON");
    const std::string key = plain.size() == 5 ? plain[4] : "";
    const auto result = perflab::grade_exercise(plain[1], parse_seed(plain[2]), answer, key, mode);
    std::cout << result.dump(2) << "\n";
    // A sealed answer has no verdict (correct is null): recorded, so not "wrong".
    return result.at("correct").is_null() || result.at("correct") == true ? 0 : 1;
  }
  return usage_error("unknown subcommand '" + cmd + "'");
}

}  // namespace

// core's tensor cap for this process: kNativeTensorCapBytes, or PERFLAB_TENSOR_CAP_MIB.
static void set_tensor_cap() {
  unsigned long long cap = perflab::kNativeTensorCapBytes;
  if (const char* mib = std::getenv("PERFLAB_TENSOR_CAP_MIB"); mib != nullptr && *mib != '\0') {
    cap = static_cast<unsigned long long>(
              perflab::cli::count_arg("PERFLAB_TENSOR_CAP_MIB", mib)) << 20;
    if (cap == 0) throw perflab::ValueError("PERFLAB_TENSOR_CAP_MIB must be at least 1, got 0");
  }
  perflab::MemoryTracker::global().set_cap_bytes(static_cast<std::size_t>(cap));
}

int main(int argc, char** argv) {
  try {
    set_tensor_cap();
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const perflab::AllocationError& e) {
    std::cerr << "perflab: " << e.what()
              << " (the CLI's cap is 4096 MiB unless PERFLAB_TENSOR_CAP_MIB sets another)\n";
    return 2;
  } catch (const perflab::Error& e) {
    std::cerr << "perflab: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "perflab: out of memory; try a smaller spec, batch or size\n";
    return 2;
  } catch (const nlohmann::json::exception& e) {
    // A JSON library exception that escaped a reader: core's sentence, never the library's.
    std::cerr << "perflab: " << perflab::json_error_reason(e) << "\n";
    return 2;
  } catch (const std::exception& e) {
    // Core translates what it knows; anything else still ends as a message and status 2,
    // never as an abort.
    std::cerr << "perflab: unexpected error: " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "perflab: unexpected error of an unknown kind\n";
    return 2;
  }
}
