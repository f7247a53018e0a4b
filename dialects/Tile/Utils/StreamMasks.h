//===- StreamMasks.h - The keys a stream's mask leaves ----------*- C++ -*-===//
//
// A causal or windowed stream runs only over the keys some element of the
// program's tile sees (StreamMasks.cpp derives the bounds): the CPU's
// stream loop (TileToCPU/StreamLowering.cpp) and the GPU's flash kernel
// (TileToGPU/StreamToMmaSync.cpp) both narrow their key range by them.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_STREAMMASKS_H
#define NAUTILUS_TILE_UTILS_STREAMMASKS_H

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallVector.h"

namespace nautilus {

/// A conjunct of a stream's mask: keys k with `k + offset <predicate>
/// other` false at every element of the tile add nothing. `other` is a
/// body value computed without the key.
struct KeyBound {
  mlir::Value other;
  int64_t offset;
  mlir::arith::CmpIPredicate predicate; // slt, sle, sgt or sge
  /// The comparison in the body (true for the keys the bound leaves).
  mlir::Operation *comparison = nullptr;

  /// Whether the bound is an upper one (slt, sle).
  bool isUpper() const {
    return predicate == mlir::arith::CmpIPredicate::slt ||
           predicate == mlir::arith::CmpIPredicate::sle;
  }
  /// What to add to `other`'s extreme over the tile (its largest for an
  /// upper bound, else its smallest) for the first key past the range
  /// (upper) or the first key in it (lower): key + c < e: key < e - c;
  /// <=: key < e - c + 1; >: key >= e - c + 1; >=: key >= e - c.
  int64_t shift() const {
    bool plusOne = predicate == mlir::arith::CmpIPredicate::sle ||
                   predicate == mlir::arith::CmpIPredicate::sgt;
    return -offset + (plusOne ? 1 : 0);
  }
};

/// The bounds of the keys `op`'s mask leaves, where its leaders' terms are
/// masked to -inf by one condition under which every follower's term is 0;
/// empty when there is no such mask.
llvm::SmallVector<KeyBound> maskedKeyBounds(tile::OnlineReduceOp op);

} // namespace nautilus

#endif
