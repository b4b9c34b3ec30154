// Umbrella header: everything core offers.
#pragma once

#include "perflab/clock.hpp"
#include "perflab/error.hpp"
#include "perflab/grader.hpp"
#include "perflab/kernels.hpp"
#include "perflab/memory.hpp"
#include "perflab/random.hpp"
#include "perflab/tensor.hpp"
#include "perflab/timer.hpp"
