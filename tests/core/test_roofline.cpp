// Protects the roofline arithmetic on numbers a student can check by hand: intensity,
// attainable bound on both sides of the ridge and at it, the ridge point, the verdict
// sentences (including "just below" when rounding hides the difference), the kernels' cost
// formulas, and every validation message in full.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "perflab/base/error.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/reduce.hpp"
#include "perflab/roofline/roofline.hpp"

using namespace perflab;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("arithmetic intensity is FLOPs per byte moved") {
  CHECK(arithmetic_intensity(12, 4) == doctest::Approx(3));
  CHECK(arithmetic_intensity(0, 8) == 0);
  CHECK(arithmetic_intensity(1, 12) == doctest::Approx(1.0 / 12));
}

TEST_CASE("the attainable bound is the lower of the compute roof and the memory slope") {
  // peak 50 GFLOP/s, 25 GB/s: ridge at 2 FLOP/byte.
  CHECK(attainable_gflops_per_s(50, 25, 0.5) == doctest::Approx(12.5));  // 0.5 × 25
  CHECK(attainable_gflops_per_s(50, 25, 4) == doctest::Approx(50));      // 100 > 50
  CHECK(attainable_gflops_per_s(50, 25, 2) == doctest::Approx(50));      // both roofs
  CHECK(attainable_gflops_per_s(50, 25, 0) == 0);
}

TEST_CASE("the ridge point is peak over bandwidth") {
  CHECK(ridge_point(50, 25) == doctest::Approx(2));
  CHECK(ridge_point(50, 6) == doctest::Approx(8.3333333));
}

TEST_CASE("below the ridge is memory-bound, at or above it compute-bound") {
  CHECK(classify(50, 25, 1.5) == Bound::Memory);
  CHECK(classify(50, 25, 2) == Bound::Compute);
  CHECK(classify(50, 25, 3) == Bound::Compute);
  CHECK(std::string(to_string(Bound::Memory)) == "memory-bound");
  CHECK(std::string(to_string(Bound::Compute)) == "compute-bound");
}

TEST_CASE("the verdict states the bound with its numbers") {
  SUBCASE("memory-bound: element-wise add on a 50 GFLOP/s, 6 GB/s machine") {
    CHECK(roofline_verdict(50, 6, 1.0 / 6) ==
          "memory-bound: intensity 0.17 FLOP/byte is below the ridge point 8.3 FLOP/byte; "
          "attainable 1 GFLOP/s of 50 peak");
  }
  SUBCASE("compute-bound: a 512×512 matmul (intensity 512/6) on the same machine") {
    CHECK(roofline_verdict(50, 6, 512.0 / 6) ==
          "compute-bound: intensity 85 FLOP/byte is above the ridge point 8.3 FLOP/byte; "
          "attainable 50 GFLOP/s of 50 peak");
  }
  SUBCASE("exactly at the ridge") {
    CHECK(roofline_verdict(50, 25, 2) ==
          "compute-bound: intensity 2 FLOP/byte is at the ridge point 2 FLOP/byte; "
          "attainable 50 GFLOP/s of 50 peak");
  }
  SUBCASE("a hair either side of the ridge prints the same numbers, so it says 'just'") {
    CHECK(roofline_verdict(50, 25, 1.999) ==
          "memory-bound: intensity 2 FLOP/byte is just below the ridge point 2 FLOP/byte; "
          "attainable 50 GFLOP/s of 50 peak");
    CHECK(roofline_verdict(50, 25, 2.001) ==
          "compute-bound: intensity 2 FLOP/byte is just above the ridge point 2 FLOP/byte; "
          "attainable 50 GFLOP/s of 50 peak");
  }
  SUBCASE("large and small numbers keep their integer part and two significant digits") {
    CHECK(roofline_verdict(1234.4, 100, 0.0123) ==
          "memory-bound: intensity 0.012 FLOP/byte is below the ridge point 12 FLOP/byte; "
          "attainable 1.2 GFLOP/s of 1234 peak");
  }
}

TEST_CASE("a roofline point gathers intensity, bound and the fraction of attainable") {
  // add over 1000 floats measured at 1 GFLOP/s; 50 GFLOP/s peak, 24 GB/s.
  const OpCost c = cost_add(1000);
  const RooflinePoint p = roofline_point("add", c.flops, c.bytes, 1.0, 50, 24);
  CHECK(p.name == "add");
  CHECK(p.flops == 1000);
  CHECK(p.bytes == 12000);
  CHECK(p.measured_gflops_per_s == 1.0);
  CHECK(p.intensity == doctest::Approx(1.0 / 12));
  CHECK(p.attainable_gflops_per_s == doctest::Approx(2.0));  // 24 / 12
  CHECK(p.bound == Bound::Memory);
  CHECK(p.fraction_of_attainable == doctest::Approx(0.5));
  CHECK(p.verdict ==
        "memory-bound: intensity 0.083 FLOP/byte is below the ridge point 2.1 FLOP/byte; "
        "attainable 2 GFLOP/s of 50 peak");

  SUBCASE("a compute-bound matmul measured at 40 of 50 GFLOP/s") {
    const OpCost m = cost_matmul(512, 512, 512);
    const RooflinePoint q = roofline_point("matmul 512", m.flops, m.bytes, 40, 50, 24);
    CHECK(q.bound == Bound::Compute);
    CHECK(q.attainable_gflops_per_s == doctest::Approx(50));
    CHECK(q.fraction_of_attainable == doctest::Approx(0.8));
  }
  SUBCASE("a kernel with no FLOPs attains 0, and its fraction is 0 rather than NaN") {
    const RooflinePoint copy = roofline_point("copy", 0, 8000, 0, 50, 24);
    CHECK(copy.attainable_gflops_per_s == 0);
    CHECK(copy.fraction_of_attainable == 0);
  }
}

TEST_CASE("the cost formulas match hand counts") {
  SUBCASE("matmul (2, 3) @ (3, 4): 2·2·3·4 FLOPs, 4·(6 + 12 + 8) bytes") {
    const OpCost c = cost_matmul(2, 3, 4);
    CHECK(c.flops == 48);
    CHECK(c.bytes == 104);
  }
  SUBCASE("square 512: 2N³ FLOPs, 12N² bytes, intensity N/6") {
    const OpCost c = cost_matmul(512, 512, 512);
    CHECK(c.flops == 268435456.0);
    CHECK(c.bytes == 3145728.0);
    CHECK(arithmetic_intensity(c.flops, c.bytes) == doctest::Approx(512.0 / 6));
  }
  SUBCASE("element-wise add and mul: one FLOP and 12 bytes per element") {
    CHECK(cost_add(1000).flops == 1000);
    CHECK(cost_add(1000).bytes == 12000);
    CHECK(cost_mul(1000).flops == 1000);
    CHECK(cost_mul(1000).bytes == 12000);
  }
  SUBCASE("GELU: 9 FLOPs per element; fused moves 8 bytes, unfused 72 (nine times as many)") {
    CHECK(cost_gelu_fused(1000).flops == 9000);
    CHECK(cost_gelu_fused(1000).bytes == 8000);
    CHECK(cost_gelu_unfused(1000).flops == 9000);
    CHECK(cost_gelu_unfused(1000).bytes == 72000);
  }
  SUBCASE("sum: one FLOP and 4 bytes per element") {
    CHECK(cost_sum(1000).flops == 1000);
    CHECK(cost_sum(1000).bytes == 4000);
  }
  SUBCASE("empty kernels cost nothing") {
    CHECK(cost_matmul(0, 5, 5).flops == 0);
    CHECK(cost_add(0).bytes == 0);
  }
}

TEST_CASE("roofline arguments out of range are errors that name them") {
  CHECK_THROWS_WITH_AS(arithmetic_intensity(-1, 4),
                       "flops must be a finite number of at least 0, got -1", ValueError);
  CHECK_THROWS_WITH_AS(arithmetic_intensity(1, 0),
                       "bytes must be a finite number greater than 0, got 0", ValueError);
  CHECK_THROWS_WITH_AS(arithmetic_intensity(1, -8),
                       "bytes must be a finite number greater than 0, got -8", ValueError);
  CHECK_THROWS_WITH_AS(attainable_gflops_per_s(0, 25, 1),
                       "peak_gflops_per_s must be a finite number greater than 0, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(attainable_gflops_per_s(50, -3, 1),
                       "bandwidth_gb_per_s must be a finite number greater than 0, got -3",
                       ValueError);
  CHECK_THROWS_WITH_AS(attainable_gflops_per_s(50, 25, kNaN),
                       "intensity must be a finite number of at least 0, got NaN", ValueError);
  CHECK_THROWS_WITH_AS(attainable_gflops_per_s(50, 25, -0.5),
                       "intensity must be a finite number of at least 0, got -0.5", ValueError);
  CHECK_THROWS_WITH_AS(ridge_point(kInf, 25),
                       "peak_gflops_per_s must be a finite number greater than 0, got Infinity",
                       ValueError);
  CHECK_THROWS_WITH_AS(classify(50, 0, 1),
                       "bandwidth_gb_per_s must be a finite number greater than 0, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(roofline_verdict(-50, 25, 1),
                       "peak_gflops_per_s must be a finite number greater than 0, got -50",
                       ValueError);
  CHECK_THROWS_WITH_AS(roofline_point("add", 10, 40, -1, 50, 25),
                       "measured_gflops_per_s must be a finite number of at least 0, got -1",
                       ValueError);
  CHECK_THROWS_WITH_AS(roofline_point("add", 10, 0, 1, 50, 25),
                       "bytes must be a finite number greater than 0, got 0", ValueError);
}

TEST_CASE("roofs are checked once, the message naming the field after its prefix") {
  CHECK_NOTHROW(validate_roofs({50, 25}));
  CHECK(ridge_point(Roofs{50, 25}) == doctest::Approx(2));
  CHECK_THROWS_WITH_AS(validate_roofs({0, 25}, "machine."),
                       "machine.peak_gflops_per_s must be a finite number greater than 0, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(validate_roofs({50, -2.5}),
                       "bandwidth_gb_per_s must be a finite number greater than 0, got -2.5",
                       ValueError);
}

TEST_CASE("a placement carries its roofs, the ridge and the point's bound") {
  const RooflinePlacement p = place_on_roofline(1000, 12000, 0.5, Roofs{100, 10});
  CHECK(p.roofs.peak_gflops_per_s == 100);
  CHECK(p.roofs.bandwidth_gb_per_s == 10);
  CHECK(p.ridge_flops_per_byte == doctest::Approx(10));
  CHECK(p.attainable_gflops_per_s == doctest::Approx(10.0 / 12));  // intensity 1/12 × 10
  CHECK(p.fraction_of_attainable == doctest::Approx(0.6));
  CHECK(p.bound == Bound::Memory);
  CHECK(p.verdict == roofline_verdict(100, 10, 1.0 / 12));
}
