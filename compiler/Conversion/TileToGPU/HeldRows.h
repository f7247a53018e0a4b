//===- HeldRows.h - A swept program's rows kept in registers ----*- C++ -*-===//
//
// Where a swept program keeps its rows in registers (dialects/Tile/Utils/
// HeldRows.h says when), every top-level reduction over the swept index
// (tile.reduce, tile.online_reduce) and the sweep visit this thread's
// points of its rows in one order, unrolled: the steps of the sweep's split
// (sweepSplitShape), each step's points at once where every thread's lie
// in the row, one at a time where some may not (the last step). The first
// visit that loads a leading load's read (its buffer, map and type) at a
// point keeps the fragment; later visits take it instead of loading again.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_HELDROWS_H
#define NAUTILUS_CONVERSION_TILETOGPU_HELDROWS_H

#include "compiler/Conversion/TileToGPU/Reductions.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <tuple>

namespace nautilus {
namespace tiletogpu {

class HeldRows {
public:
  /// The rows `kernel`'s program keeps, or null where it keeps none.
  static std::shared_ptr<HeldRows> plan(KernelContext &kernel);

  /// Whether `op` (a top-level reduction, or the sweep) visits the held
  /// points.
  bool visits(mlir::Operation *op) const { return visitors.contains(op); }

  /// Points visited together: each one's leading loads, and whether they
  /// lie in the row (null: for every thread; else an i1 of the one point,
  /// clamped into the row).
  struct Points {
    llvm::SmallVector<mlir::Value> ivs;
    llvm::SmallVector<LoadedAhead> loaded;
    mlir::Value inside;
    int64_t spacing = 1; // between consecutive ivs
  };
  /// Visits this thread's points of `body` (its argument 0 the point):
  /// `leadingLoads` (loads of `body` that read only indices) taken from
  /// what an earlier visit kept, or loaded and kept.
  void visit(KernelContext &kernel, mlir::Block &body,
             llvm::ArrayRef<tile::LoadOp> leadingLoads,
             llvm::function_ref<void(const Points &)> each);

private:
  HeldRows(tile::GroupSplitShape shape, int64_t extent)
      : shape(shape), extent(extent) {}
  /// `leadingLoads` at `ivs` (`spacing` apart), the first the point
  /// `ordinal` of the visit: `together` as loadAhead reads a step's copies
  /// (a run as one vector where it lies in the buffer's row), else each
  /// point element by element, clamped into the buffer.
  llvm::SmallVector<LoadedAhead> load(KernelContext &kernel, mlir::Block &body,
                                      llvm::ArrayRef<tile::LoadOp> leadingLoads,
                                      int64_t ordinal,
                                      llvm::ArrayRef<mlir::Value> ivs,
                                      int64_t spacing, bool together);

  tile::GroupSplitShape shape;
  int64_t extent;
  llvm::DenseSet<mlir::Operation *> visitors;
  /// A read (buffer, map, type) at a point's ordinal -> its fragment.
  using Read = std::tuple<const void *, const void *, const void *, int64_t>;
  std::map<Read, Fragment> kept;
};

/// `next` where `inside` (an i1) holds, else `old`, element by element: a
/// state folded at a point that may lie past the row.
Fragment keepInside(KernelContext &kernel, mlir::Value inside,
                    const Fragment &next, const Fragment &old);

} // namespace tiletogpu
} // namespace nautilus

#endif
