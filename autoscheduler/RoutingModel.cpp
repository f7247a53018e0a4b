//===- RoutingModel.cpp - The time of a mixture of experts' routing -------===//
#include "autoscheduler/RoutingModel.h"
#include "autoscheduler/GpuConstants.h"

#include <algorithm>

using namespace nautilus;
using namespace nautilus::autosched;

GpuTerms autosched::routingTerms(const RoutingProblem &p,
                                 const TargetInfo &target) {
  auto rounds = [&](int64_t n) {
    return double((n + p.threads - 1) / std::max<int64_t>(1, p.threads));
  };
  // The capacity the order holds: every row and a partial block an expert.
  int64_t capacity = p.rows + p.experts * (p.block - 1);
  int64_t blocks = capacity / std::max<int64_t>(1, p.block);
  // Round trips the block waits for: the stores that clear the order and
  // the blocks' experts (one, for the barrier after them); counting, each
  // round reading its ids; one thread reading each expert's count; placing,
  // each round reading its ids and then the atomic add's result.
  double trips = 1 + rounds(p.rows) + double(p.experts) + 2 * rounds(p.rows);
  // Stores issued without waiting, a cycle each: the clearing rounds (of
  // the order and of block_experts, which is as long), and the one
  // thread's expert for every block.
  double issue = 2 * rounds(capacity) + double(blocks);
  double cyclesPerUs = target.clockGHz * 1e3;
  GpuTerms terms;
  terms.addWaves({1, issue / cyclesPerUs, 0, 0, 0});
  terms.fixedUs = kLaunchUs + trips * kDramLatencyCycles / cyclesPerUs;
  return terms;
}

double autosched::estimateRouting(const RoutingProblem &p,
                                  const TargetInfo &target) {
  return scaledUs(routingTerms(p, target), target.gpuModelScales);
}
