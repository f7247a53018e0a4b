//===- ReductionChain.h - A chain of reductions to stream -------*- C++ -*-===//
//
// What alg-fuse-reductions streams in one pass: a sum (the consumer) over
// index k, the max, min or mean over k its term reads (the leaders), the
// sums over k its epilogue reads that follow the same leaders (the
// followers, the consumer first), and what the stream stores beside its
// result. `analyseReductionChain` finds a chain (ReductionChain.cpp);
// `buildStream` writes its alg.online_reduce (ChainStream.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_REDUCTIONCHAIN_H
#define NAUTILUS_TRANSFORMS_ALG_REDUCTIONCHAIN_H

#include "compiler/Transforms/Alg/MeanRepair.h"
#include "compiler/Transforms/Alg/Repair.h"
#include "dialects/Alg/AlgOps.h"

#include <string>

namespace nautilus {

/// A leader of a stream: the definition and where the consumer reads it.
// (Op handles are mutable: their accessors are not const.)
struct ChainLeader {
  mutable alg::DefineOp def;
  mlir::AffineMap map; // over the stream's domain (left-hand indices, then k)
  llvm::SmallVector<alg::LoadOp> reads; // in the bodies that will be streamed
  bool mean = false;     // a mean (then the chain's only leader), not a max/min
  bool exported = false; // others read it: the stream stores it too
  /// Its indices' positions in the stream's domain, where exported.
  llvm::SmallVector<unsigned> along;
};

/// A follower: a sum over k whose term reads the leaders.
struct ChainFollower {
  mutable alg::DefineOp def;
  mlir::AffineMap at; // its body's domain over the stream's domain
  llvm::SmallVector<Repair> repairs; // one per leader (max or min)
  MeanRepair meanRepair;             // of a chain whose leader is a mean
  mutable alg::LoadOp read; // where the consumer's epilogue reads it (null: C)
  bool exported = false;    // others read it: the stream stores it too
  /// Its indices' positions in the stream's domain, where exported.
  llvm::SmallVector<unsigned> along;
};

/// An element-wise definition the stream computes in its epilogue and
/// stores beside its result (a log-sum-exp, Mx + log(L), beside O).
struct ChainComputed {
  mutable alg::DefineOp def;
  /// Its indices' positions in the stream's domain.
  llvm::SmallVector<unsigned> along;
};

/// One chain: the stream that replaces `consumer`.
struct ReductionChain {
  alg::DefineOp consumer;
  llvm::SmallVector<ChainLeader> leaders;
  llvm::SmallVector<ChainFollower, 2> followers; // the consumer first
  llvm::SmallVector<ChainComputed> computed;

  /// Whether `def` is computed by the chain's stream.
  bool computes(alg::DefineOp def) const {
    return def == consumer ||
           llvm::any_of(followers,
                        [&](const ChainFollower &f) { return f.def == def; }) ||
           llvm::any_of(computed,
                        [&](const ChainComputed &c) { return c.def == def; });
  }
};

/// The chain `consumer` ends, or failure with `why` empty when it reads no
/// leader (nothing to fuse) or set when a fusion is refused.
mlir::FailureOr<ReductionChain> analyseReductionChain(alg::DefineOp consumer,
                                                      std::string &why);

/// The stream of `chain`, created before its consumer (which it replaces:
/// the caller rewires and erases the definitions).
alg::OnlineReduceOp buildStream(const ReductionChain &chain);

/// `map` with `to` dimensions (the extra ones unused).
inline mlir::AffineMap widenMap(mlir::AffineMap map, unsigned to) {
  return mlir::AffineMap::get(to, map.getNumSymbols(), map.getResults(),
                              map.getContext());
}

} // namespace nautilus

#endif
