//===- ThreadPlacement.h - Where each thread's elements sit -----*- C++ -*-===//
//
// The tile a program instance computes, and where in it each of a thread's
// E elements sits: by the schedule's distribution of the tile over the
// threads (runs of `vector` elements, or the mma accumulator layout), or by
// a linear layout a value was converted to. From these positions come each
// element's global indices and whether it lies inside the output.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_THREADPLACEMENT_H
#define NAUTILUS_CONVERSION_TILETOGPU_THREADPLACEMENT_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

#include <optional>

namespace nautilus {
namespace tiletogpu {

/// Each element's position in the tile along each dimension (per dim, per
/// element) for the schedule's distribution of the tile over threads.
llvm::SmallVector<Fragment> tilePositions(KernelContext &kernel,
                                          mlir::Value tid);

/// Each element's position in the tile (per dim, per element) under
/// layout `l` (outputs: the tile's last dims).
llvm::SmallVector<Fragment> layoutPositions(KernelContext &kernel,
                                            const layout::LinearLayout &l);

/// Global indices and in-bounds flags of elements at `within`.
void locate(KernelContext &kernel, llvm::ArrayRef<Fragment> within,
            llvm::SmallVector<Fragment> &globalIndex, Fragment &inside);

/// Where the elements of a value in `layout` are (made once a tile).
Placement &placementOf(KernelContext &kernel, tile::LinearLayoutAttr layout);

/// Each element's global index (per dim) in `layout`, or in the
/// program's distribution for a null one.
llvm::ArrayRef<Fragment> globalIndexIn(KernelContext &kernel,
                                       tile::LinearLayoutAttr layout);

/// The tile coordinates (per output dim) of program `pid` over `grid`.
llvm::SmallVector<mlir::Value>
programCoordinates(KernelContext &kernel, mlir::Value pid,
                   llvm::ArrayRef<mlir::Value> grid);

/// The origin (first element's index) of the tile at `coords`.
llvm::SmallVector<mlir::Value> originOf(KernelContext &kernel,
                                        llvm::ArrayRef<mlir::Value> coords);

/// Sets the tile's origin, and each element's global index and whether it
/// is inside the output, for the tile at `origin`.
void placeTile(KernelContext &kernel, llvm::ArrayRef<mlir::Value> origin);

/// What a conversion's staging bands split: rows or columns.
enum class BandAxis { Rows, Columns };

/// The band of `bandExtent` rows or columns each register of `layout`
/// lies in, when that does not depend on the lane or warp; none
/// otherwise.
std::optional<llvm::SmallVector<int64_t>>
registerBands(const KernelContext &kernel, tile::LinearLayoutAttr layout,
              int64_t bandExtent, BandAxis axis);

} // namespace tiletogpu
} // namespace nautilus

#endif
