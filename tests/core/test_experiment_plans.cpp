// What this file protects: the page's experiment plans (suite/experiment_plans), which the
// page measures and its text quotes. Each plan's fields are the ones its experiment reads,
// every point's Timer options are valid, sizes rise, and quick is smaller than full.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/sparse.hpp"
#include "perflab/model/conv_methods.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "perflab/timing/timer.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

// The plan's Timer options read as the page's measurements read them, then validated.
void check_options(const json& plan) {
  REQUIRE(plan.contains("options"));
  TimerOptions options;
  for (const auto& [key, value] : plan["options"].items()) {
    CHECK(read_timer_option(options, key, value, "options." + key));
  }
  CHECK_NOTHROW(options.validate());
}

// A non-empty, strictly rising list of positive integers.
void check_rising(const json& list) {
  REQUIRE(list.is_array());
  REQUIRE_FALSE(list.empty());
  for (std::size_t i = 0; i < list.size(); ++i) {
    REQUIRE(list[i].is_number_integer());
    CHECK(list[i].get<long long>() > 0);
    if (i > 0) CHECK(list[i].get<long long>() > list[i - 1].get<long long>());
  }
}

// full[field] and quick[field], checked, quick shorter than full, both with valid options.
void check_list(const std::string& id, const std::string& field) {
  INFO(id << "." << field);
  const json full = experiment_plan(id, false);
  const json quick = experiment_plan(id, true);
  check_rising(full[field]);
  check_rising(quick[field]);
  CHECK(quick[field].size() < full[field].size());
  check_options(full);
  check_options(quick);
}

// A plan's Timer budget: quick shorter than full.
void check_quick_budget(const std::string& id) {
  INFO(id);
  const json full = experiment_plan(id, false);
  const json quick = experiment_plan(id, true);
  check_options(full);
  check_options(quick);
  CHECK(quick["options"]["max_total_ms"].get<double>() <
        full["options"]["max_total_ms"].get<double>());
}

}  // namespace

TEST_CASE("experiment plan acceleration-linear-loops: layer shapes [in, out], fewer when quick") {
  for (const bool quick : {false, true}) {
    const json plan = experiment_plan("acceleration-linear-loops", quick);
    REQUIRE(plan["shapes"].is_array());
    for (const json& shape : plan["shapes"]) {
      REQUIRE(shape.size() == 2);
      CHECK(shape[0].get<int>() > 0);
      CHECK(shape[1].get<int>() > 0);
    }
  }
  CHECK(experiment_plan("acceleration-linear-loops", true)["shapes"].size() <
        experiment_plan("acceleration-linear-loops", false)["shapes"].size());
  check_quick_budget("acceleration-linear-loops");
}

TEST_CASE("experiment plan acceleration-cache-sweep: powers of two from 4 KiB to 256 MiB") {
  check_list("acceleration-cache-sweep", "sizes");
  for (const bool quick : {false, true}) {
    const json plan = experiment_plan("acceleration-cache-sweep", quick);  // outlives the loop
    for (const json& b : plan["sizes"]) {
      CHECK((b.get<std::size_t>() & (b.get<std::size_t>() - 1)) == 0);
    }
  }
  const json sizes = experiment_plan("acceleration-cache-sweep", false)["sizes"];
  CHECK(sizes.front().get<std::size_t>() == 4096);
  CHECK(sizes.back().get<std::size_t>() == std::size_t{256} << 20);
  CHECK(sizes.size() == 17);
}

TEST_CASE("experiment plan acceleration-builds and -vectorization: N sizes, scalar loops capped") {
  for (const std::string id : {"acceleration-builds", "acceleration-vectorization"}) {
    INFO(id);
    check_list(id, "sizes");
    const json full = experiment_plan(id, false);
    REQUIRE(full["maxN"].is_object());
    REQUIRE(full["maxN"].contains("naive"));
    CHECK(full["maxN"]["naive"].get<std::size_t>() < full["sizes"].back().get<std::size_t>());
    CHECK(experiment_plan(id, true)["maxN"].is_object());
    CHECK(experiment_plan(id, true)["maxN"].empty());
  }
}

TEST_CASE("experiment plan acceleration-gelu-fusion: element counts, fewer when quick") {
  check_list("acceleration-gelu-fusion", "elements");
}

TEST_CASE("experiment plan acceleration-thread-scaling: one matmul N and one GELU size, smaller when quick") {
  const json full = experiment_plan("acceleration-thread-scaling", false);
  const json quick = experiment_plan("acceleration-thread-scaling", true);
  for (const json* plan : {&full, &quick}) {
    REQUIRE((*plan)["matmul_n"].is_number_integer());
    REQUIRE((*plan)["gelu_elements"].is_number_integer());
    // Verified against the naive matmul before it is timed (core checks up to this N).
    CHECK((*plan)["matmul_n"].get<std::size_t>() <= kMaxVerifiedMatmulN);
    CHECK((*plan)["matmul_n"].get<std::size_t>() >= 64);
    // Whole 64-byte chunks of floats, so every thread's band is whole cache lines.
    CHECK((*plan)["gelu_elements"].get<std::size_t>() % 16 == 0);
  }
  CHECK(quick["matmul_n"].get<std::size_t>() < full["matmul_n"].get<std::size_t>());
  CHECK(quick["gelu_elements"].get<std::size_t>() < full["gelu_elements"].get<std::size_t>());
  check_quick_budget("acceleration-thread-scaling");
}

TEST_CASE("experiment plan acceleration-fma: matmul sizes, verified, fewer when quick") {
  check_list("acceleration-fma", "sizes");
  check_quick_budget("acceleration-fma");
  for (const bool quick : {false, true}) {
    // The plan held by name: a range-for over a member of a temporary reads freed memory.
    const json plan = experiment_plan("acceleration-fma", quick);
    for (const json& n : plan["sizes"]) {
      CHECK(n.get<std::size_t>() <= kMaxVerifiedMatmulN);
    }
  }
}

TEST_CASE("experiment plan profiling-operation-efficiency: element and matmul sizes, fewer when quick") {
  check_list("profiling-operation-efficiency", "elements");
  check_list("profiling-operation-efficiency", "matmul_n");
  check_quick_budget("profiling-operation-efficiency");
}

TEST_CASE("experiment plans profiling-forward-backward and -overhead: zoo models, fewer when quick") {
  for (const std::string id : {"profiling-forward-backward", "profiling-overhead"}) {
    INFO(id);
    const json full = experiment_plan(id, false);
    const json quick = experiment_plan(id, true);
    REQUIRE(full["models"].is_array());
    REQUIRE(quick["models"].is_array());
    CHECK_FALSE(quick["models"].empty());
    CHECK(quick["models"].size() < full["models"].size());
    // Every model is in the zoo, and quick mode's are some of the full plan's.
    for (const json& name : full["models"]) CHECK_NOTHROW(zoo_spec(name.get<std::string>()));
    for (const json& name : quick["models"]) {
      CHECK(std::find(full["models"].begin(), full["models"].end(), name) != full["models"].end());
    }
    check_quick_budget(id);
  }
}

TEST_CASE("experiment plans profiling-model-scaling, -batch-size, -attention: caps in quick mode only") {
  for (const std::string id : {"profiling-model-scaling", "profiling-batch-size", "profiling-attention"}) {
    INFO(id);
    const json full = experiment_plan(id, false);
    const json quick = experiment_plan(id, true);
    for (const std::string cap : {"max_points", "max_batch", "max_seq_len"}) {
      CHECK_FALSE(full.contains(cap));
      if (quick.contains(cap)) CHECK(quick[cap].get<int>() > 0);
    }
  }
  CHECK(experiment_plan("profiling-model-scaling", true)["max_points"] == 3);
  CHECK(experiment_plan("profiling-batch-size", true)["max_points"] == 4);
  CHECK(experiment_plan("profiling-batch-size", true)["max_batch"] == 32);
  CHECK(experiment_plan("profiling-attention", true)["max_seq_len"] == 1024);
  // Counts only: nothing to time.
  CHECK_FALSE(experiment_plan("profiling-attention", false).contains("options"));
  check_quick_budget("profiling-model-scaling");
  check_quick_budget("profiling-batch-size");
  check_quick_budget("profiling-architectures");
}

TEST_CASE("experiment plan acceleration-conv: conv_plan's sizes, as to_json writes them") {
  for (const bool quick : {false, true}) {
    const json sizes = experiment_plan("acceleration-conv", quick)["sizes"];
    const std::vector<ConvShape> shapes = conv_plan(quick);
    REQUIRE(sizes.size() == shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) CHECK(sizes[i] == to_json(shapes[i]));
  }
}

TEST_CASE("experiment plan acceleration-conv and -blocking: Timer options, shorter when quick") {
  for (const std::string id : {"acceleration-conv", "acceleration-blocking"}) {
    check_options(experiment_plan(id, false));
    check_options(experiment_plan(id, true));
    CHECK(experiment_plan(id, true)["options"]["max_total_ms"].get<double>() <
          experiment_plan(id, false)["options"]["max_total_ms"].get<double>());
  }
}

TEST_CASE("experiment plans: every id has both plans; an unknown id names the known ones") {
  for (const std::string& id : experiment_plan_ids()) {
    CHECK(experiment_plan(id, false).is_object());
    CHECK(experiment_plan(id, true).is_object());
  }
  std::string known;
  for (const std::string& id : experiment_plan_ids()) known += (known.empty() ? "" : ", ") + id;
  CHECK(known.find("acceleration-vectorization, acceleration-builds") != std::string::npos);
  CHECK(known.find("profiling-attention, profiling-forward-backward") != std::string::npos);
  CHECK_THROWS_WITH_AS(experiment_plan("acceleration-nope", false),
                       ("no experiment plan named \"acceleration-nope\"; the plans are " + known).c_str(),
                       ValueError);
  CHECK_THROWS_AS(experiment_plan("", true), ValueError);
}

TEST_CASE("experiment plan optimization-sparsity: measurable shapes, rising densities ending at dense") {
  for (const bool quick : {false, true}) {
    CAPTURE(quick);
    const json plan = experiment_plan("optimization-sparsity", quick);
    check_options(plan);
    const json& densities = plan["densities"];
    REQUIRE(densities.size() >= 3);
    for (std::size_t i = 0; i < densities.size(); ++i) {
      CHECK(densities[i].get<double>() > 0.0);
      if (i > 0) CHECK(densities[i].get<double>() > densities[i - 1].get<double>());
    }
    CHECK(densities.back().get<double>() == 1.0);  // the dense end: speedup about 1 minus overhead
    for (const json& s : plan["shapes"]) {
      for (const char* key : {"in", "out", "batch"}) {
        CHECK(s[key].get<std::size_t>() >= 1);
        CHECK(s[key].get<std::size_t>() <= kMaxSparseDimension);
      }
    }
  }
  CHECK(experiment_plan("optimization-sparsity", true)["shapes"].size() <
        experiment_plan("optimization-sparsity", false)["shapes"].size());
}
