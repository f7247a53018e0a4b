//===- WgmmaPlan.h - How a wgmma schedule stages its operands ---*- C++ -*-===//
//
// A `tile.contract` with `#tile.mma<instr = "wgmma">` reads its operands
// with TMA into shared memory swizzled by the schedule's `swizzle` (S = 32,
// 64 or 128 bytes): rows of S bytes, tile_k = S / 2 f16/bf16 along K, or
// S / 2 elements of M/N a row for an operand whose innermost index is M/N. The GPU lowering and the runtime (which
// builds the tensor maps and sizes the dynamic shared memory at launch)
// both derive the layout from this one plan.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_WGMMAPLAN_H
#define NAUTILUS_TILE_UTILS_WGMMAPLAN_H

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

namespace nautilus {

/// The bytes of a TMA tensor map (CUtensorMap), what the tensormap proxy
/// fence acquires.
constexpr int64_t kTensorMapBytes = 128;

/// One operand: its TMA box and where a stage of it lives.
struct WgmmaOperandPlan {
  unsigned rowDim = 0;      // the output dimension it reads (M or N)
  int64_t rowTile = 0;      // tile M or tile N
  bool kInnermost = true;   // K is the buffer's innermost index (K-major)
  /// Computed by the contraction's region (not copied by TMA): the
  /// producer warpgroup evaluates it into the stage, K-major.
  bool computed = false;
  /// The TMA box (none when computed), innermost buffer dimension first:
  /// tile_k along K, the row tile (K-major) or a row of the swizzle
  /// (M/N-major) along M/N, 1 along batch dims.
  llvm::SmallVector<int64_t> box;
  int64_t boxes = 1;        // boxes a stage takes (along M/N)
  int64_t boxBytes = 0;
  int64_t stageBytes = 0;   // rowTile x tile_k elements
  int64_t stageOffset = 0;  // of this operand within a stage
};

struct WgmmaPlan {
  WgmmaOperandPlan lhs;
  /// The rhs of each contraction that shares the lhs tile
  /// (tile::siblingContracts: one for a contraction alone), in the
  /// block's order; a stage holds the lhs, then each of these.
  llvm::SmallVector<WgmmaOperandPlan, 1> rhs;
  int64_t stageBytes = 0;      // lhs + each rhs, a multiple of 1024
  int64_t copiedBytes = 0;     // of a stage, what TMA copies (the
                               // operands that are not computed)
  int64_t barrierOffset = 0;   // the stages' "full" mbarriers, after the
                               // stages, then (warp specialised) "empty" ones
  int64_t sharedBytes = 0;     // the program's dynamic shared memory
  int64_t swizzleBytes = 128;
  /// Registers a thread of the producer and of the consumer warpgroups
  /// keep after `setmaxnreg`, and the count a thread starts with (none:
  /// no reallocation). A persistent, warp-specialised program whose
  /// producer only issues copies gives all but kProducerRegisters of its
  /// registers to the consumers, whose accumulators need them (a 128 x 256
  /// tile keeps 128 a thread; the 65536 registers of a multiprocessor
  /// split evenly over 384 threads leave 168). The start is the kernel's
  /// `.maxnreg`, the even split, whose pool the reallocation's counts stay
  /// within (PipelineLimits.h: reallocatedConsumerRegisters);
  /// setmaxnreg.inc would wait forever for registers a smaller start never
  /// released.
  RegisterReallocation registers;
  /// Whether the producer warpgroup computes an operand (then all its
  /// threads produce; else its thread 0 alone issues the copies).
  bool producersCompute() const { return lhs.computed || rhs[0].computed; }
  /// Operand `i` of the stage: 0 the lhs, 1 + s sibling s's rhs.
  const WgmmaOperandPlan &operand(unsigned i) const {
    return i == 0 ? lhs : rhs[i - 1];
  }
};

/// An operand a wgmma program reads through a TMA tensor map.
struct TensorMappedOperand {
  mlir::Value buffer; // the program's buffer argument
  unsigned operand;   // as WgmmaPlan::operand: 0 the lhs, 1 + s an rhs
};
/// The operands of `contract` and its siblings (tile::siblingContracts)
/// that TMA copies, in the order the kernel takes their tensor maps after
/// its sizes and the runtime builds them: the lhs, then each rhs; a
/// computed operand has none.
llvm::SmallVector<TensorMappedOperand>
tensorMappedOperands(tile::ContractOp contract);

/// The matrix descriptors wgmma reads an operand's stage through (PTX ISA,
/// "Matrix Descriptor Format"). Descriptor (stage s, warpgroup g, k step
/// j) starts s x stageBytes + g x groupBytes + startOffset(j) bytes from
/// the dynamic shared memory's base (aligned to 1024 bytes); its other
/// fields are `leadingBytes`, `strideBytes` and the swizzle. The lowering
/// emits them and the verifier proves what they read (compiler/Verify,
/// dataflow.wgmma-operands).
struct WgmmaDescriptorPlan {
  int64_t stageBytes = 0, groupBytes = 0, offset = 0, kStepBytes = 0;
  /// K in panels (the flash kernel's 64 columns): k step j is in panel
  /// j / kStepsPerPanel, `panelBytes` apart (0: one panel).
  int64_t kStepsPerPanel = 0, panelBytes = 0;
  int64_t leadingBytes = 0, strideBytes = 0, swizzleBytes = 128;
  /// Of k step `kStep`, from its stage's start.
  int64_t startOffset(int64_t kStep) const {
    if (!kStepsPerPanel)
      return offset + kStep * kStepBytes;
    return offset + kStep / kStepsPerPanel * panelBytes +
           kStep % kStepsPerPanel * kStepBytes;
  }
  /// The descriptor's bits other than the start address (bits 0-13).
  uint64_t fixedBits() const;
};
/// K-major: rows of the swizzle's S bytes, 8-row groups 8 S bytes apart
/// (the stride), a k step of 16 elements further along the row. M/N-major:
/// boxes of S bytes of M/N x tile_k rows of K, 8 rows 8 S apart (the
/// stride), boxes `boxBytes` apart (the leading offset), a k step 16 rows
/// further. Only the lhs moves by warpgroup (64 rows each).
WgmmaDescriptorPlan planWgmmaDescriptor(const WgmmaPlan &plan,
                                        const WgmmaOperandPlan &op, bool isLhs,
                                        int64_t elementBytes);
/// The bits of a matrix descriptor other than its start address: the
/// leading and stride byte offsets (>> 4, 14 bits each) and the layout
/// type (bits 62-63: 1 for a 128-byte swizzle, 2 for 64, 3 for 32, 0 for
/// none).
uint64_t matrixDescriptorBits(int64_t leadingBytes, int64_t strideBytes,
                              int64_t swizzleBytes);

/// The flash kernel's shared memory on wgmma (TileToGPU/StreamToMmaSync):
/// K's stages of keyBlock rows x D, then V's, then Q's region of `rows` x
/// D; each a row of panels 64 columns wide (rows of 128 bytes, the
/// swizzle's span), one after the other.
struct FlashWgmmaPlan {
  /// The swizzle of every region: its tensor maps', its copies' and its
  /// descriptors'.
  static constexpr int64_t kSwizzleBytes = 128;
  int64_t rows = 0, headDim = 0, keyBlock = 0, stages = 0;
  int64_t stageBytes() const { return keyBlock * headDim * 2; }
  int64_t valueOffset() const { return stages * stageBytes(); }
  int64_t queryOffset() const { return 2 * valueOffset(); }
  int64_t panelBytes() const { return keyBlock * 64 * 2; }
  int64_t queryPanelBytes() const { return rows * 64 * 2; }
  /// The panels of a stage or of Q's region (a TMA box each).
  int64_t panels() const { return headDim / 64; }
  int64_t queryBytes() const { return rows * headDim * 2; }
  /// Where Q's region ends: the stages' mbarriers follow.
  int64_t regionsEnd() const { return queryOffset() + queryBytes(); }
  /// Registers a thread starts with (`.maxnreg`) and keeps after
  /// `setmaxnreg` in the producer warpgroup and in the consumers' (0: no
  /// reallocation). With a producer warpgroup, which only issues copies,
  /// the consumers take all but kProducerRegisters of its registers, as
  /// FlashAttention-3's do: S's and O's accumulators at 128 keys and
  /// D = 128 need more than the 168 an even split over 384 threads leaves.
  RegisterReallocation registers;
  /// Q K^T's A: Q's region, K-major (16 of D are 32 bytes along a panel's
  /// rows), a warpgroup's 64 rows of each panel (Q is stage 0).
  WgmmaDescriptorPlan query() const;
  /// Q K^T's B: K's stage, K-major.
  WgmmaDescriptorPlan keys() const;
  /// P V's B: V's stage, M/N-major (16 keys are 16 rows, the panels along
  /// D `panelBytes` apart).
  WgmmaDescriptorPlan values() const;
};
/// The plan of a flash kernel's program (its schedule's mma is wgmma).
FlashWgmmaPlan planFlashWgmma(tile::ProgramOp program);

/// The plan of `contract` and its siblings (tile::siblingContracts, in
/// the block's order) under `schedule` (whose mma is wgmma).
WgmmaPlan planWgmma(tile::ContractOp contract, tile::ScheduleAttr schedule);

/// The program's tensor-core contraction, if it has one: its first (of
/// sibling contractions, the one whose plan and lowering stand for all).
tile::ContractOp findContract(tile::ProgramOp program);

} // namespace nautilus

#endif
