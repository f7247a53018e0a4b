//===- Recomputation.h - Which definitions are recomputed -------*- C++ -*-===//
//
// alg-fuse-elementwise recomputes element-wise definitions where they are
// read. These are its criteria, shared with the auto-scheduler's rewrite
// choices (compiler/Pipeline/Structures.cpp), which ask whether storing a
// definition instead gives the kernel another structure.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_RECOMPUTATION_H
#define NAUTILUS_TRANSFORMS_ALG_RECOMPUTATION_H

#include "dialects/Alg/AlgOps.h"

namespace nautilus {

/// Whether `def` can be recomputed where it is read: it reduces nothing
/// (no reduction of its own, none nested: alg-fuse-shared-operands' gated
/// MLP computes G and U inside A), is not an output, and every reader
/// reads it through an index map (no indirect index).
bool isRecomputable(alg::DefineOp def);

/// Whether a reduction reads some element of `def` again for several of
/// its points: a read in a reduction's body (or a nested `alg.reduce`'s)
/// whose index map leaves out one of the reader's own indices, so that
/// each element is read once for every value of that index (a
/// contraction's operand: A[m, k] of C[m, n] = sum[k](A[m, k] * B[k, n]),
/// read once for each n). Recomputed there, its work is repeated as often.
/// With `throughElementwise`, also through element-wise definitions that
/// read it and would be recomputed in such a reduction (T in
/// `E[m, n, k] = T[m, k] * W[k, n]; Y[m, n] = sum[k](E[m, n, k])`): what
/// alg-fuse-elementwise, inlining from the last definition first, finds
/// once E is inlined.
bool isReadAgainByReduction(alg::DefineOp def, bool throughElementwise = false);

} // namespace nautilus

#endif
