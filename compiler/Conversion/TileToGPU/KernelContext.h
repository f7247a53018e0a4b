//===- KernelContext.h - The state a kernel's lowering shares ---*- C++ -*-===//
//
// The lowering of one tile.program to one gpu.func kernel (a program
// instance is a thread block; see KernelLowering.cpp) is split by concern:
// where each thread's elements sit (ThreadPlacement), loads and stores
// (MemoryAccess), cross-thread reductions (Reductions), layout conversions
// through shared memory (LayoutConversion), contractions (Contractions),
// persistent loops over tiles (PersistentLoops) and the op-by-op core
// (KernelLowering). Each part's functions take the kernel's KernelContext,
// which holds the state they share: the program and its kernel, the
// builder, the fragments each thread holds of the tiles and the scalars
// beside them, and where the elements sit.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_KERNELCONTEXT_H
#define NAUTILUS_CONVERSION_TILETOGPU_KERNELCONTEXT_H

#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "compiler/Target/NamedBarriers.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace nautilus {
namespace tiletogpu {

class HeldRows;

/// The E scalars one thread holds of a tile.
using Fragment = llvm::SmallVector<mlir::Value, 8>;

/// Where the elements of a value converted to a layout are.
struct Placement {
  llvm::SmallVector<Fragment> within, globalIndex;
  Fragment inside;
};

/// The state the parts of one kernel's lowering share.
struct KernelContext {
  KernelContext(tile::ProgramOp program, mlir::gpu::GPUModuleOp gpuModule,
                const TargetInfo &target)
      : program(program), gpuModule(gpuModule), target(target),
        barriers(target), b(program.getContext()),
        tileShape(program.getSchedule().getTile()), rank(program.getRank()),
        threads(program.getSchedule().getThreads() /
                program.getSchedule().getReduceThreads()),
        reduceThreads(program.getSchedule().getReduceThreads()),
        perThread(program.getSchedule().getElementsPerThread()),
        endElement(perThread) {}

  /// An index constant `v` at the insertion point.
  mlir::Value cIndex(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  /// The fragment of `v`: its per-element scalars, or `v` itself E times
  /// for a scalar defined outside any tile (a size, a loop index).
  Fragment lookup(mlir::Value v) {
    auto it = fragments.find(v);
    if (it != fragments.end())
      return it->second;
    return Fragment(perThread, scalars.lookup(v));
  }
  /// The fragment of tile value `v`, to be filled element by element.
  Fragment &slot(mlir::Value v) {
    Fragment &f = fragments[v];
    if (f.empty())
      f.assign(perThread, mlir::Value());
    return f;
  }

  tile::ProgramOp program;
  mlir::gpu::GPUModuleOp gpuModule;
  const TargetInfo &target;
  /// The kernel's named barriers (a warp-specialised program's groups).
  NamedBarriers barriers;
  mlir::OpBuilder b;
  mlir::Location loc = program.getLoc();
  llvm::ArrayRef<int64_t> tileShape;
  unsigned rank;
  /// `threads`: the holders the tiles are distributed over (the block's
  /// threads, or its groups of threads that share reductions); each thread
  /// holds `perThread` elements.
  int64_t threads, reduceThreads, perThread;
  /// The elements the op lowerings emit code for: all of them, or one run
  /// at a time for an epilogue lowered element by element (lowerBlock).
  int64_t firstElement = 0, endElement;
  llvm::DenseMap<mlir::Value, Fragment> fragments; // tile values
  mlir::IRMapping scalars;                         // non-tile values
  llvm::SmallVector<mlir::Value> sizeArgs, extents, reducedIVs;
  llvm::SmallVector<Fragment> globalIndex;   // per output dim
  llvm::SmallVector<mlir::Value> tileOrigin; // per output dim
  Fragment inside; // this thread's elements that fall inside the output
  mlir::gpu::GPUFuncOp func;
  /// The thread's index among the holders of tile elements (its group's
  /// with reduce_threads), and with reduce_threads, its place in its group.
  mlir::Value threadId, laneInGroup;
  llvm::SmallVector<Fragment> programWithin; // the program layout's positions
  llvm::DenseMap<mlir::Attribute, Placement> placements;
  /// A wgmma program's TMA tensor maps: the lhs's, and each sibling
  /// contraction's rhs's (null where computed).
  mlir::Value lhsTensorMap;
  llvm::SmallVector<mlir::Value, 1> rhsTensorMaps;
  /// A wgmma flash kernel's tensor maps (K, V, Q: flashTensorMaps).
  llvm::SmallVector<mlir::Value> flashTensorMaps;
  // A persistent program's pipeline, and the consumer loop's state.
  std::unique_ptr<ContractLoweringContext> persistentContext;
  std::unique_ptr<PersistentWgmma> persistent;
  mlir::Value persistentWarpgroup, persistentLocalTile;
  std::array<std::unique_ptr<ComputedOperand>, 2> computedOperands;
  /// Elements already loaded: (load, insertion block, the Values of the
  /// dims its map reads, its gathered indices) -> the element.
  std::map<std::vector<const void *>, mlir::Value> loadedElements;
  /// Ops whose fragments are already set for the code being emitted (a
  /// shared reduction's loads, emitted ahead of the body's other ops).
  llvm::DenseSet<mlir::Operation *> lowered;
  /// Whether loads are emitted without branches (emitClampedLoad): their
  /// buffers are known not to be empty.
  bool clampedLoads = false;
  /// The rows a swept program keeps in registers for its sweep (HeldRows.h),
  /// or null.
  std::shared_ptr<HeldRows> heldRows;
};

} // namespace tiletogpu
} // namespace nautilus

#endif
