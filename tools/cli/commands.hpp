// The CLI's subcommands that live in their own files, called from main.cpp's dispatcher.
// Each returns the process exit status (0 done, 2 bad usage with the reason on stderr;
// compare: 1 for a regression).
// Not for: argument and file reading shared by all commands (args.hpp).
#pragma once

#include <string>
#include <vector>

#include "perflab/model/model_file.hpp"

namespace perflab::cli {

// `perflab roofline [--json] [--quick]`; args are those after the subcommand.
int roofline_command(const std::vector<std::string>& args);
// `perflab bench [--json] [--quick]` (JSON rows keep their samples; --samples is accepted).
int bench_command(const std::vector<std::string>& args);
// `perflab parallel [--kernel matmul|gelu] [--n N] [--threads 1,2,...] [--json] [--quick]`:
// the kernel engine's thread scaling, each point verified then timed, with core's analysis.
int parallel_command(const std::vector<std::string>& args);
// `perflab compare BASE.json NEW.json [--threshold PCT] [--alpha A] [--json]`: 1 when a
// benchmark regressed.
int compare_command(const std::vector<std::string>& args);
// `perflab suite SUITE.json [--json|--markdown|--csv]`: exit 2 naming the file and the field.
int suite_command(const std::vector<std::string>& args);
// `perflab compliance [--json|--markdown] [--data DIR] [--baseline MODEL_FILE] [--samples N]`:
// the compliance report (suite/compliance.hpp); an unreadable file named by a flag exits 2.
int compliance_command(const std::vector<std::string>& args);
// `perflab train (SPEC.json | --zoo NAME) --out MODEL [options]`: progress on stderr.
int train_command(const std::vector<std::string>& args);
// `perflab evaluate MODEL [--data DIR] [--json]`: the model file on Fashion-MNIST's test split.
int evaluate_command(const std::vector<std::string>& args);
// `perflab export MODEL --npy DIR`: one .npy per parameter tensor and manifest.json.
int export_command(const std::vector<std::string>& args);
// `perflab weights MODEL [--json]`: the weight distribution per weight tensor and over all.
int weights_command(const std::vector<std::string>& args);
// `perflab prune MODEL --sparsity S [--global | --structured] [--finetune EPOCHS] --out
// MODEL`: magnitude or structured pruning, evaluated before and after on the test split.
int prune_command(const std::vector<std::string>& args);
// `perflab quantize MODEL --int8 [--calibrate N] [--calibration minmax|percentile] --out
// MODEL`: int8 Linears, calibrated; accuracy, bytes and each layer's error against float.
int quantize_command(const std::vector<std::string>& args);
// `perflab distill TEACHER (--student SPEC.json | --zoo NAME) [--temperature T] [--alpha A]
// [training flags] --out MODEL`: the distilled student and the same student on labels alone.
int distill_command(const std::vector<std::string>& args);
// `perflab olympics check ENTRY.json [--data DIR] [--baseline MODEL_FILE] [--json]`: each
// entry (one, or a submission's olympics.entries) checked as the grader does; 0 even when
// an entry is refused, 2 for a file that cannot be read.
int olympics_check_command(const std::vector<std::string>& args);
// `perflab olympics SUBCOMMAND ...` (olympics_command.cpp): `events [--json]`, core's events
// and their constraints.
int olympics_command(const std::vector<std::string>& args);

// The model file at `path` (read_model_file's refusals, naming "model file 'PATH'").
ModelFile read_model_path(const std::string& path);

}  // namespace perflab::cli
