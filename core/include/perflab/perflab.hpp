// Umbrella header: everything core offers.
#pragma once

#include "perflab/clock.hpp"
#include "perflab/error.hpp"
#include "perflab/grader.hpp"
#include "perflab/kernels.hpp"
#include "perflab/layers.hpp"
#include "perflab/memory.hpp"
#include "perflab/model.hpp"
#include "perflab/norm.hpp"
#include "perflab/probe.hpp"
#include "perflab/profiler.hpp"
#include "perflab/random.hpp"
#include "perflab/reduce.hpp"
#include "perflab/roofline.hpp"
#include "perflab/tensor.hpp"
#include "perflab/timer.hpp"
#include "perflab/zoo.hpp"
