//===- Invariants.h - The invariants the verifier proves --------*- C++ -*-===//
//
// Each function proves one family of invariants of a program's model and
// appends a Finding per invariant and subject (docs/verification.md lists
// them with their encodings and limits).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_INVARIANTS_H
#define NAUTILUS_VERIFY_INVARIANTS_H

#include "compiler/Verify/KernelModel.h"
#include "compiler/Verify/Prover.h"

#include <vector>

namespace nautilus::verify {

/// layout.in-tile, layout.injective, layout.covers: every distributed
/// layout maps its holders into its tile, no two onto one element, and
/// reaches every element.
void proveLayouts(Prover &prover, const ProgramModel &model,
                  std::vector<Finding> &findings);

/// shared.permutation, shared.disjoint, shared.banks-ldmatrix,
/// shared.banks-copies: each stage's swizzle permutes its bytes, the
/// stages do not overlap and fit, and the accesses claimed free of bank
/// conflicts are.
void proveStages(Prover &prover, const ProgramModel &model,
                 std::vector<Finding> &findings);

/// dataflow.mma-operands: each mma.sync operand register holds, through
/// the copies, the swizzle and ldmatrix, the element its fragment layout
/// requires, both operands on the same K slice.
void proveFragments(Prover &prover, const ProgramModel &model,
                    std::vector<Finding> &findings);

/// dataflow.conversion: every layout conversion's staging keeps each
/// element of the tile at an offset of its own, within its buffer, for
/// every width and row layout the lowering may choose (by enumeration).
void proveConversions(const ProgramModel &model,
                      std::vector<Finding> &findings);

/// dataflow.wgmma-operands: each wgmma operand's matrix descriptor reads,
/// for every stage, warpgroup and k step, the element its writer (TMA, or
/// the producers of a computed operand) put there.
void proveDescriptorReads(Prover &prover, const ProgramModel &model,
                          std::vector<Finding> &findings);

/// coverage.grid, coverage.persistent, coverage.elements, coverage.split:
/// each output element is written exactly once, inside its extent, for
/// every size; a split reduction's chunks partition its extent.
void proveCoverage(Prover &prover, const ProgramModel &model,
                   std::vector<Finding> &findings);

/// bounds.interior-copies: the copies the lowering makes without bound
/// checks (a stage tile wholly inside its tensor) read inside the buffer,
/// for every size.
void proveBounds(Prover &prover, const ProgramModel &model,
                 std::vector<Finding> &findings);

/// sync.copy-ring / sync.producer-consumer, sync.wgmma-epilogue: every
/// stage read follows the copies it needs and precedes the copies that
/// overwrite it, for every count of K steps; accumulators are read after
/// their wgmma group completes.
void proveSync(Prover &prover, const ProgramModel &model,
               std::vector<Finding> &findings);

} // namespace nautilus::verify

#endif
