//===- RoutingModel.h - A mixture of experts' routing time -----*- C++ -*-===//
//
// A grouped GEMM's routing program (tile.route, RouteLowering.cpp) runs on
// the threads of one block: a counting sort of the routing table's rows by
// expert with atomic adds in global memory. One block cannot fill the
// machine's bandwidth; its passes wait on memory round trips, so the model
// counts them (docs/autoscheduler.md, "A mixture of experts' programs").
// Its schedule is fixed: there is nothing to search.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_ROUTINGMODEL_H
#define NAUTILUS_AUTOSCHEDULER_ROUTINGMODEL_H

#include "autoscheduler/GpuTerms.h"
#include "compiler/Target/Target.h"

#include <cstdint>

namespace nautilus::autosched {

/// The routing's sizes: the table's rows, the experts, the block the
/// experts' rows are laid out in, and the threads of the one block.
struct RoutingProblem {
  int64_t rows = 0, experts = 1, block = 1, threads = 1;
};

/// The routing program's terms on the GPU `target` (GpuTerms.h),
/// microseconds: fixed, a launch and a DRAM round trip for each round of
/// the block's threads that waits on memory (counting: the ids; placing:
/// the ids, then the atomic add's result), for each expert whose count one
/// thread reads, and for the clearing stores' barrier; one wave whose
/// compute is a cycle for each store issued without waiting.
GpuTerms routingTerms(const RoutingProblem &problem, const TargetInfo &target);

/// The predicted time of the routing program: its terms under the
/// target's scales (TargetInfo::gpuModelScales, 1 unless refit).
double estimateRouting(const RoutingProblem &problem, const TargetInfo &target);

} // namespace nautilus::autosched

#endif
