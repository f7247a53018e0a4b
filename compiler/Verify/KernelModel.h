//===- KernelModel.h - What the verifier proves of a tile program -*- C++ -*-===//
//
// The verifier runs on the laid-out tile IR, before target lowering. From
// each tile.program it reads what the lowering will realise, as plain
// data: the layouts its tiles are distributed in, the shared-memory stages
// of its tensor-core operands and how ldmatrix reads them, its grid and
// how program ids walk it, how a split reduction is chunked, and the
// pipeline protocol of its main loop. The pieces come from the functions
// the GPU lowering itself uses (LinearLayout.h, SharedSwizzle,
// ldmatrixMatrixLayout, WgmmaPlan, pipelineProtocol), so a proof of the
// model is a proof of what the lowering emits, up to the lowering's own
// arithmetic (which the emulator checks dynamically).
//
// A Mutation breaks one piece on purpose (`nautc verify --mutate`): the
// test suite shows that each invariant refutes the fault it guards against,
// with the expected counterexample.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_KERNELMODEL_H
#define NAUTILUS_VERIFY_KERNELMODEL_H

#include "dialects/Tile/Layout/LinearLayout.h"
#include "dialects/Tile/Utils/GroupSplit.h"
#include "dialects/Tile/Utils/PipelineProtocol.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "runtime/SizeExpr.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::verify {

/// A layout of a tile over registers, lanes and warps (power-of-two).
struct DistributedLayout {
  std::string what; // "the tile's distribution", "convert_layout target", ...
  layout::LinearLayout layout;
};

/// The schedule's row-major distribution where it is not linear (extents
/// or threads not powers of two): holder t's element e at tile position
/// ((e / run) * holders + t) * run + e % run.
struct BlockedDistribution {
  std::vector<int64_t> shape;
  int64_t holders = 1, perHolder = 1, run = 1;
};

/// One operand's stages in shared memory: `rows` rows of `rowBytes`,
/// 16-byte chunks swizzled by `swizzle`; `count` stages (or TMA boxes) of
/// `bytes` each from `offset`.
struct StageLayout {
  std::string operand; // "lhs" / "rhs"; a flash kernel's "K" / "V"
  int64_t rows = 0, rowBytes = 0, elementBytes = 2;
  layout::SharedSwizzle swizzle;
  int64_t offset = 0, bytes = 0, count = 1, stride = 0;
  /// ldmatrix reads 8 consecutive rows at one chunk (mma.sync), and the
  /// schedule claims those reads free of bank conflicts.
  bool ldmatrixClaimsNoConflicts = false;
  /// cp.async writes it, consecutive threads consecutive chunks.
  bool copiedByThreads = false;
};

/// How an mma.sync operand's fragments come out of its stage (the
/// StageLayout of the same operand, which the copies write with its
/// swizzle) by ldmatrix.
struct FragmentLoad {
  /// The stage it reads (StageLayout::operand).
  std::string stage;
  bool isLhs = true;
  bool kInnermost = true; // stored K-major: ldmatrix without .trans
  bool twoMatrices = false; // ldmatrix.x2 (an rhs one n tile wide)
  layout::LinearLayout matrices; // ldmatrixMatrixLayout
  /// The swizzle ldmatrix's addresses are computed with (the stage's).
  layout::SharedSwizzle readerSwizzle;
};

/// How wgmma reads an operand's stage through matrix descriptors, and where
/// the stage's writer put each element. `descriptor` is the lowering's
/// plan of them (descriptor (stage s, warpgroup g, k step j) starts
/// s x stageBytes + g x groupBytes + startOffset(j) from the shared base),
/// read back from the bits it encodes. The writer puts element (row p,
/// k q) of stage s at s x writerStageBytes + regionOffset + (p / boxRows) x
/// boxBytes + (q / kBox) x kBoxBytes + (p % boxRows) x rowStride +
/// (q % kBox) x kStride (kBox 0: K in one box), swizzling the absolute
/// address (TMA, by `writerSwizzleBytes`) or, for threads' stores, the
/// offset within the box as rows of `writerRowBytes` by `rowSwizzle` (the
/// lowering's SharedSwizzle).
struct DescriptorRead {
  std::string operand; // "lhs", "rhs"; the flash kernel's "Q", "K", "V"
  bool isLhs = true; // wgmma's A (64 rows a warpgroup) or B (N rows)
  bool kInnermost = true;
  int64_t elementBytes = 2;
  int64_t rows = 64;      // of M/N one wgmma reads
  int64_t kSteps = 1;     // wgmmas (16 of K each) a stage
  int64_t warpgroups = 1; // A: each reads its own 64 rows
  int64_t stages = 1;
  WgmmaDescriptorPlan descriptor;
  std::string writer = "TMA"; // "TMA", "the producers", "cp.async"
  bool swizzlesAddress = true;
  int64_t writerSwizzleBytes = 128;
  layout::SharedSwizzle rowSwizzle;
  int64_t writerRowBytes = 128;
  int64_t writerStageBytes = 0, regionOffset = 0;
  int64_t boxRows = 0, rowStride = 0, boxBytes = 0;
  int64_t kBox = 0, kStride = 0, kBoxBytes = 0;
  /// What the writer writes of a stage: `boxes` boxes along the rows, by
  /// `kBoxes` along K (kBox), each `boxK` of K (without kBox). TMA's boxes
  /// start at multiples of 128 bytes.
  int64_t boxes = 1, kBoxes = 1, boxK = 0;
  /// What the lowering aligns the dynamic shared memory's base to.
  int64_t baseAlignment = 1024;
};

/// The program's grid: ceil(extent / tile) programs along each dimension,
/// walked by program id (row-major, or rasterised in groups of group_m
/// rows of tiles), or by persistent programs.
struct GridModel {
  std::vector<int64_t> tile;
  std::vector<std::string> extentNames;
  std::vector<std::optional<int64_t>> extents; // bound, or symbolic
  int64_t groupM = 1;
  /// Program ids walk the last two dimensions down the columns (rows of
  /// tiles fastest; a CPU schedule with `pack`).
  bool downColumns = false;
  /// One program a multiprocessor (as many as the device has, at most
  /// one a tile), each looping over tiles.
  bool persistent = false;
  /// The output store keeps element x of a dimension when x < extent
  /// (`maskSlack` 1: when x <= extent, the mutation an off-by-one is).
  int64_t maskSlack = 0;
  /// Tile c starts at c * (tile - originOverlap) (0; a mutation overlaps).
  int64_t originOverlap = 0;
  /// A persistent block steps by programs - strideSlack tiles (0; a
  /// mutation makes blocks take each other's tiles).
  int64_t strideSlack = 0;
};

/// A reduction split into chunks: `splits` programs along the split
/// dimension, chunk c reducing [c * chunk, min((c + 1) * chunk, extent)).
/// A stream split in `parts` sized at launch (`chunks(G along d in P)`)
/// has chunks of max(1, ceil(ceil(extent / P) / G)) x G points, `chunk`
/// holding the granule G.
struct SplitModel {
  std::string extentName;
  std::optional<int64_t> extent;
  int64_t chunk = 1, splits = 1;
  std::optional<int64_t> parts;
  /// What the combining program adds up.
  int64_t combined = 1;
};

/// A tile.sweep's points (softmax's Y written by the threads that reduced
/// each row): each group of `split.threads` threads splits the extent as
/// tile::GroupSplitShape says, its main loop taking `split.copies` points
/// a step, then the rest (run by run with runs); whether the buffers the
/// main loop reads are empty (which sends every point to the rest) is
/// either.
struct SweepModel {
  std::string extentName;
  std::optional<int64_t> extent; // bound, or symbolic
  tile::GroupSplitShape split;
};

/// A tile.convert_layout's staging in shared memory: every thread writes
/// its elements at StagingRows::offset of their (row, column) and reads
/// back those of the new layout at theirs, in rows as wide as one of
/// `widths` (the tile's, or a band's), laid out as any candidate the
/// lowering may choose (stagingRowCandidates). The conversion gives each
/// register its element exactly when every candidate keeps the tile's
/// elements at offsets of their own, within the rows' buffer.
struct ConversionStaging {
  int64_t rows = 0, columns = 0; // the tile, its leading dimensions as rows
  int64_t unit = 1, elementBytes = 4;
  std::vector<int64_t> widths;
  /// Each candidate's rows one chunk closer than their width (a mutation).
  bool pitchShort = false;
};

/// An mma.sync operand's copies that skip the bound checks
/// (ContractToMmaSync's copyTile): a stage tile wholly inside its tensor,
/// by the lowering's interior test (the tile's `rowTile` rows along
/// output dimension `rowDim` end within that dimension's extent, its K
/// tile within K, and an offset table's entry lands inside the buffer),
/// is copied without a check. Each buffer index, `map`'s result at the
/// tile's origin with the row and the K index added, must then lie below
/// the buffer's extent there.
struct InteriorCopy {
  std::string operand; // "lhs", "rhs"
  std::string buffer;  // its argument's name
  /// (output dims..., k)[the program's sizes] -> buffer indices.
  mlir::AffineMap map;
  std::vector<std::string> symbolNames; // the map's symbols, by size name
  std::vector<std::string> bufferDims;  // size names, or literals ("4")
  std::string kName;                    // K's size
  unsigned rowDim = 0;
  int64_t rowTile = 0, tileK = 0;
  /// The buffer index an offset table's entry is added to, if any.
  std::optional<unsigned> offsetPosition;
  /// The interior test lets a tile's rows end this far past the extent
  /// (0; a mutation makes it 1).
  int64_t interiorSlack = 0;
};

/// A read whose indices along some dimensions of its buffer are the same
/// for the whole tile and the whole stream: a flash kernel's batch and head
/// indices (Q[b, h, ...], K[b, h / (H / G), ...]), which its copies do not
/// check (they check rows). Each index at `positions` reads only the grid's
/// dimensions whose tile is 1 (a program's own coordinate there), sizes
/// and constants.
struct TileConstantRead {
  std::string buffer; // its argument's name
  /// (output dims..., the stream's and reductions' indices)[the program's
  /// sizes] -> buffer indices; bound sizes substituted.
  mlir::AffineMap map;
  std::vector<unsigned> positions;      // the results proved
  std::vector<std::string> symbolNames; // the map's symbols, by size name
  std::vector<std::string> bufferDims;  // size names, or literals ("4")
};

struct ProgramModel {
  std::string name;
  std::string targetName;
  /// Its contraction runs on wgmma (operands read asynchronously, from
  /// shared memory by descriptors; accumulators land at a wait).
  bool wgmma = false;
  std::vector<DistributedLayout> layouts;
  std::optional<BlockedDistribution> blocked;
  std::vector<StageLayout> stages;
  int64_t sharedBytes = 0; // what the stages (and mbarriers) may use
  std::vector<FragmentLoad> fragments;
  std::vector<DescriptorRead> descriptorReads;
  std::optional<GridModel> grid;
  std::optional<SplitModel> split;
  std::optional<SweepModel> sweep;
  std::optional<tile::PipelineProtocol> pipeline;
  std::vector<InteriorCopy> interiorCopies;
  std::vector<TileConstantRead> tileConstantReads;
  std::vector<ConversionStaging> conversions;
  /// The sizes the compile bound, by name.
  std::map<std::string, int64_t> boundSizes;
  /// The kernel's requirements on its sizes (`require` lines, and the
  /// implicit ones: a divisor of sizes above 0), each a condition that is
  /// not 0 at every size the runtime launches.
  std::vector<rt::SizeExpr> requirements;
};

/// The models of every program of a tile module (after tile scheduling
/// and layout assignment).
std::vector<ProgramModel> buildKernelModels(mlir::ModuleOp module);

/// A fault put into a model on purpose, by name: each makes one invariant
/// fail as the compiler bug it stands for would.
struct Mutation {
  std::string name;
  std::string description;
};
const std::vector<Mutation> &mutations();
/// Applies the mutation `name` to the first model it applies to; false if
/// it applies to none (or is unknown).
bool applyMutation(llvm::StringRef name, std::vector<ProgramModel> &models);

} // namespace nautilus::verify

#endif
