// Umbrella header: everything core offers, by concern (the folders under perflab/ and
// core/src/ are the same): base, tensor, kernels, model, timing, profiler, roofline, stats,
// suite, grading.
#pragma once

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/kernels/kernels.hpp"
#include "perflab/kernels/norm.hpp"
#include "perflab/kernels/operations.hpp"
#include "perflab/kernels/reduce.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/complexity.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/report.hpp"
#include "perflab/roofline/roofline.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/grading/grader.hpp"
