//===- ContractLowering.h - tile.contract on tensor cores -------*- C++ -*-===//
//
// The main loop of a `tile.contract` with a tensor-core schedule, emitted
// inside the program's gpu.func: `#tile.mma<instr = "mma_sync">` (sm_80,
// ContractToMmaSync.cpp) or `"wgmma"` (sm_90a, ContractToWgmma.cpp), and
// the helpers both share (ContractLowering.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_CONTRACTLOWERING_H
#define NAUTILUS_CONVERSION_TILETOGPU_CONTRACTLOWERING_H

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "compiler/Target/NamedBarriers.h"
#include "dialects/Tile/Layout/LinearLayout.h"
#include "dialects/Tile/TileOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <map>

namespace nautilus {

/// What the contraction's lowering takes from the program's.
struct ContractLoweringContext {
  mlir::gpu::GPUFuncOp func;              // gets the shared-memory buffers
  mlir::Value lhs, rhs, extent;           // the contract's operands, mapped
                                          // (lhs, rhs: null when computed)
  mlir::Value lhsOffsets, rhsOffsets;     // their offset tables, mapped
                                          // (null when they have none)
  llvm::ArrayRef<mlir::Value> sizeArgs;   // the sizes (the maps' symbols)
  llvm::ArrayRef<mlir::Value> tileOrigin; // per output dim, the tile's first index
  llvm::ArrayRef<mlir::Value> outputExtents; // per output dim
  mlir::Value threadId;
  tile::ScheduleAttr schedule;
  // The innermost extent of lhs and rhs, from the kernel's sizes (constants
  // when the sizes are bound, so that alignment checks fold away).
  mlir::Value lhsInnerExtent, rhsInnerExtent;
  // wgmma only: the kernel parameters pointing to the operands' TMA tensor
  // maps (built by the runtime at launch).
  mlir::Value lhsTensorMap, rhsTensorMap;
  // A computed operand's evaluator (null: loaded).
  ComputedOperand *lhsComputed = nullptr, *rhsComputed = nullptr;
  const TargetInfo *target = nullptr;
  // The kernel's named barriers (a warp-specialised program's groups).
  NamedBarriers *barriers = nullptr;
  // A loaded rhs a stage holds: its buffer (mapped), map, innermost extent
  // and (wgmma) tensor map.
  struct RhsOperand {
    mlir::Value buffer;
    mlir::AffineMap map;
    mlir::Value innerExtent;
    mlir::Value tensorMap;
  };
  // The sibling contractions after this one that share its lhs tile
  // (tile::siblingContracts), each's rhs. Their accumulators follow this
  // one's.
  llvm::SmallVector<RhsOperand> siblings;

  /// Every rhs a stage holds, in the order of the accumulators: `contract`'s
  /// own (this context's), then each sibling's.
  llvm::SmallVector<RhsOperand, 1>
  rhsOperands(tile::ContractOp contract) const {
    llvm::SmallVector<RhsOperand, 1> all = {
        {rhs, contract.getOperandMap(1), rhsInnerExtent, rhsTensorMap}};
    all.append(siblings.begin(), siblings.end());
    return all;
  }
};

/// The K tile (of `tileK` elements) a program's contraction starts at,
/// for the program's tile at `origin` (index values): 0, or for a split
/// contraction the first of its chunk's.
mlir::Value emitFirstKTile(mlir::OpBuilder &b, mlir::Location loc,
                           tile::ContractOp contract, int64_t tileK,
                           llvm::ArrayRef<mlir::Value> origin);

/// How many K tiles (of `tileK` elements) a program's contraction steps
/// through: all of `extent`'s, or for a split contraction its chunk's (the
/// same for every program; steps past `extent` read zeros).
mlir::Value emitKTileCount(mlir::OpBuilder &b, mlir::Location loc,
                           tile::ContractOp contract, mlir::Value extent,
                           int64_t tileK);

/// The chunk at which `swizzle` stores 16-byte chunk `chunk` of row `row`
/// (index values): layout::SharedSwizzle::storedChunk as IR.
inline mlir::Value emitStoredChunk(mlir::OpBuilder &b, mlir::Location loc,
                                   layout::SharedSwizzle swizzle,
                                   mlir::Value row, mlir::Value chunk) {
  if (swizzle.maxPhase == 1)
    return chunk;
  auto c = [&](int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  };
  return mlir::arith::XOrIOp::create(
      b, loc, chunk,
      mlir::arith::RemUIOp::create(
          b, loc, mlir::arith::DivUIOp::create(b, loc, row, c(swizzle.perPhase)),
          c(swizzle.maxPhase)));
}

/// The entry of loaded operand `side`'s offset table (`table`, mapped) for
/// the tile at `origin`, as an index to add to its buffer index
/// `contract.getOperandOffsetsPosition(side)`: read once a tile. An entry
/// read past the table's end gives an offset that puts every index
/// outside the buffer (the operand reads as zeros).
mlir::Value emitOperandOffset(mlir::OpBuilder &b, mlir::Location loc,
                              tile::ContractOp contract, unsigned side,
                              mlir::Value table,
                              llvm::ArrayRef<mlir::Value> origin,
                              llvm::ArrayRef<mlir::Value> sizes);

/// A warpgroup's part of `registers` (a WgmmaPlan's or a
/// FlashWgmmaPlan's): the producer's `setmaxnreg.dec` down to its count,
/// or a consumer's `.inc` up to theirs; nothing where there is no
/// reallocation.
void emitSetMaxRegisters(mlir::OpBuilder &b, mlir::Location loc,
                         const RegisterReallocation &registers, bool producer);

/// The dynamic shared memory of `func`'s kernels (an `.extern .shared`
/// array aligned to 1024 bytes, declared once in its gpu.module) as a
/// pointer in address space 3. Both tensor-core pipelines keep their
/// stages there: a block's static shared memory stops at 48 KiB.
mlir::Value emitDynamicSharedBase(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::gpu::GPUFuncOp func);

/// A memref<elements x element, 3> over the dynamic shared memory from
/// byte `offset` of `base` (emitDynamicSharedBase) on; nvgpu's cp.async and
/// ldmatrix take memrefs.
mlir::Value emitDynamicSharedBuffer(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value base, int64_t offset,
                                    int64_t elements, mlir::Type element);

/// An operand's tile in shared-memory stages (`shared`, a buffer of
/// emitDynamicSharedBuffer), as the mma.sync pipelines store it: rows of
/// `columns` 16-bit elements, its innermost global dimension innermost (K
/// when `kInnermost`, else its rows' M or N), in 16-byte chunks placed by
/// the swizzle of `swizzleBytes` (layout::SharedSwizzle::forRows);
/// `stageElements` a stage.
struct StagedTile {
  mlir::Value shared;
  mlir::Type element;
  int64_t columns, stageElements;
  bool kInnermost;
  int64_t swizzleBytes;
};

/// The element offset in `tile`'s buffer of stored row `row`, chunk
/// `chunk` (index values), in stage `stage`.
mlir::Value emitStagedOffset(mlir::OpBuilder &b, mlir::Location loc,
                             const StagedTile &tile, mlir::Value stage,
                             mlir::Value row, mlir::Value chunk);

/// The four 32-bit fragment registers ldmatrix.x4 gives `lane` of the
/// 16 x 16 block at (row `rowBase`, k `kBase`) of `tile`'s stage `stage`
/// (.trans where K is not innermost); `isLhs` orders the four 8 x 8
/// matrices as the A fragment (rows, then K) or as two B fragments (K,
/// then rows). With `oneRhsTile`, the two registers of one B fragment (8
/// rows, 16 of K) by ldmatrix.x2.
llvm::SmallVector<mlir::Value, 4>
emitLdmatrixFragment(mlir::OpBuilder &b, mlir::Location loc,
                     const StagedTile &tile, mlir::Value lane,
                     mlir::Value stage, mlir::Value rowBase, mlir::Value kBase,
                     bool isLhs, bool oneRhsTile = false);

/// The ldmatrix.x4 fragments of a staged tile at constant places, with
/// each lane's address split into a part computed once per stage (and per
/// swizzle residue of the chunk) and a constant: every load is then one
/// ldmatrix at [base + immediate]. (The swizzle XORs the chunk with the
/// row's phase; with rows of the load starting at a multiple of the
/// swizzle's period, the phase is the lane's, and the chunk's part above
/// the phase bits adds.) Places outside that take emitLdmatrixFragment.
class StagedFragmentLoader {
public:
  StagedFragmentLoader(mlir::OpBuilder &b, mlir::Location loc,
                       const StagedTile &tile, mlir::Value lane, bool isLhs);
  /// The fragment of the 16 x 16 block at (row `rowBase`, k `kBase`) of
  /// `stage` (as emitLdmatrixFragment's). The lane bases are made at the
  /// first load from a stage value: load from a block that the later
  /// loads of that stage value are dominated by.
  llvm::SmallVector<mlir::Value, 4> load(mlir::Value stage, int64_t rowBase,
                                         int64_t kBase);
  /// Forgets the bases (before loads in a block they do not dominate).
  void reset() { bases.clear(); }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  StagedTile tile;
  mlir::Value lane;
  bool isLhs;
  layout::SharedSwizzle swizzle;
  mlir::Value rowLane, chunkLane;
  std::map<std::pair<void *, int64_t>, mlir::Value> bases;
};

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format") of the
/// operand whose shared address (i32) is `start`: the address's bits
/// 4-17, the leading and stride byte offsets, and the layout type of a
/// `swizzleBytes` swizzle (1 for 128 bytes, 2 for 64, 3 for 32).
mlir::Value emitMatrixDescriptor(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value start, int64_t leadingBytes,
                                 int64_t strideBytes, int64_t swizzleBytes);

/// `wgmma.wait_group.sync.aligned pending;` as inline PTX whose outputs
/// are the accumulators `acc` (f32) tied to its inputs: nothing can read
/// them before the wait (nvvm's wait takes no operands, so LLVM once
/// scheduled the epilogue's reads above it and ptxas serialised every
/// wgmma, C7514). Returns them as the wait leaves them.
llvm::SmallVector<mlir::Value> emitTiedWgmmaWait(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 mlir::ValueRange acc,
                                                 int64_t pending);

/// Emits the pipelined tensor-core main loop at `b`'s insertion point and
/// returns this thread's accumulators, register r of the mma accumulator
/// layout (mmaAccumulatorLayout) at position r.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerContractToMmaSync(mlir::OpBuilder &b, tile::ContractOp contract,
                       const ContractLoweringContext &context);

/// The same for a wgmma schedule: TMA copies into 128-byte-swizzled stages
/// completing on mbarriers, and wgmma.mma_async from matrix descriptors.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerContractToWgmma(mlir::OpBuilder &b, tile::ContractOp contract,
                     const ContractLoweringContext &context);

/// The persistent form of the warp-specialised wgmma pipeline, whose
/// pieces the program's lowering places around its loops over tiles: the
/// producer's loop, and the consumers' loop whose body is the whole tile
/// program (the main loop, then the epilogue).
class PersistentWgmma {
public:
  PersistentWgmma(mlir::OpBuilder &b, tile::ContractOp contract,
                  const ContractLoweringContext &context);
  ~PersistentWgmma();
  /// Shared memory and mbarriers; returns the warpgroup index (i32,
  /// uniform per warpgroup; 0 is the producer).
  mlir::Value setup();
  /// The producer warpgroup's threads that run produceTile: its thread 0,
  /// or all 128 when it computes an operand.
  int64_t producerThreads() const;
  /// At the start of the producer's (consumers') branch: gives back
  /// (takes) registers as the plan says (`setmaxnreg`), or nothing.
  void enterProducer();
  void enterConsumer();
  /// The producer threads' copies (and computed operands) for this
  /// program's `localTile`-th tile, whose first indices are `origin`.
  void produceTile(mlir::Value localTile, llvm::ArrayRef<mlir::Value> origin);
  /// A consumer warpgroup's main loop over its `localTile`-th tile.
  llvm::SmallVector<mlir::Value> consumeTile(mlir::Value localTile,
                                             mlir::Value warpgroup);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace nautilus

#endif
