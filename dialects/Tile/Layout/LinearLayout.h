//===- LinearLayout.h - Layouts as linear maps over F2 ----------*- C++ -*-===//
//
// A layout says where each element of a tile lives: which register of which
// lane of which warp (a distributed layout), or at which shared-memory
// offset (a memory layout). For power-of-two shapes every layout the
// compiler uses is a linear map over F2 from the bits of the input indices
// (register, lane, warp, offset) to the bits of the tile coordinates, with
// XOR as addition: bit i of input dimension `in` maps to the coordinate
// vector `bases[in][i]`, and an input maps to the XOR of the bases of its
// set bits. Blocked layouts, the mma.sync and wgmma fragment layouts and
// XOR-swizzled shared memory are all such maps (Triton's LinearLayout is
// the same idea), so composing layouts, inverting them and checking that a
// layout is a bijection onto its tile are linear algebra.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_LAYOUT_LINEARLAYOUT_H
#define NAUTILUS_TILE_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nautilus::layout {

class LinearLayout {
public:
  /// One input dimension: its name and, for each of its bits, the output
  /// coordinates (one per output dimension) that bit maps to.
  struct InDim {
    std::string name;
    std::vector<std::vector<int32_t>> bases;
  };
  /// One output dimension: its name and size (a power of two).
  struct OutDim {
    std::string name;
    int32_t size;
  };

  LinearLayout() = default;
  LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs);

  /// `size` indices of `in` mapping one to one onto `out` (size a power of
  /// two); `zeros1D` maps them all to 0 (a broadcast).
  static LinearLayout identity1D(int32_t size, llvm::StringRef in,
                                 llvm::StringRef out);
  static LinearLayout zeros1D(int32_t size, llvm::StringRef in,
                              llvm::StringRef out);

  /// The product of two layouts: input dimensions of the same name
  /// concatenate their bits (this layout's are the low ones), output
  /// dimensions of the same name multiply (this layout's coordinates are
  /// the low ones). Dimensions keep the order of first appearance.
  LinearLayout operator*(const LinearLayout &other) const;

  /// The output coordinates of the given input indices (missing inputs
  /// are 0).
  llvm::SmallVector<int32_t>
  apply(llvm::ArrayRef<std::pair<llvm::StringRef, int32_t>> inputs) const;

  const std::vector<InDim> &getInDims() const { return ins; }
  /// The bases of input dimension `in` (empty when absent).
  llvm::ArrayRef<std::vector<int32_t>> getInDimBases(llvm::StringRef in) const;
  const std::vector<OutDim> &getOutDims() const { return outs; }
  /// 2^(bits of `in`), 1 if absent.
  int32_t getInDimSize(llvm::StringRef in) const;
  int32_t getOutDimSize(llvm::StringRef out) const;
  int32_t getTotalInBits() const;
  int32_t getTotalOutBits() const;

  /// The rank over F2 of the map from all input bits to all output bits.
  int32_t rank() const;
  /// Every output coordinate is reached / no two inputs reach the same one.
  bool isSurjective() const { return rank() == getTotalOutBits(); }
  bool isInjective() const { return rank() == getTotalInBits(); }
  bool isBijective() const { return isSurjective() && isInjective(); }

  /// The inverse of a bijective layout: outputs become the inputs and
  /// inputs the outputs (a layout from tile coordinates to, say, register,
  /// lane and warp). Asserts that the layout is bijective.
  LinearLayout invert() const;

  /// `outer` after this layout: this layout's outputs are `outer`'s inputs
  /// (by name; a missing one contributes nothing).
  LinearLayout compose(const LinearLayout &outer) const;

  /// Renames output dimension `from` of size `size` into several, row-major
  /// (the last of `to` varies fastest): a flat position becomes tile
  /// coordinates.
  LinearLayout reshapeOut(llvm::StringRef from,
                          llvm::ArrayRef<std::pair<std::string, int32_t>> to) const;

  bool operator==(const LinearLayout &other) const;
  std::string str() const;

private:
  std::vector<InDim> ins;
  std::vector<OutDim> outs;
};

/// The mma.sync m16n8 accumulator layout over a [rows, columns] tile of
/// `warps` = [warpsM, warpsN] warps: in a warp, register bit 0 is column 1,
/// lane bits 0-1 columns 2 and 4, lane bits 2-4 rows 1, 2 and 4, register
/// bit 1 row 8 (the PTX ISA's C fragment); further register bits repeat
/// the 16 x 8 tile along the columns, then the rows, of the warp's
/// [rows / warpsM, columns / warpsN] part; warp bits go along the columns,
/// then the rows. Output dimensions "dim0" (rows) and "dim1" (columns).
LinearLayout mmaAccumulatorLayout(int32_t rows, int32_t columns,
                                  int32_t warpsM, int32_t warpsN);

/// The mma.sync m16n8k16 operand fragments of one warp (16-bit elements,
/// two a 32-bit register: register bit 0 is the element of the pair),
/// from the PTX ISA: the A fragment of a [16 (M), 16 (K)] tile, register
/// bit 0 column 1, lane bits 0-1 columns 2 and 4, lane bits 2-4 rows 1, 2
/// and 4, register bit 1 row 8, register bit 2 column 8; the B fragment of
/// a [16 (K), 8 (N)] tile, register bit 0 row 1, lane bits 0-1 rows 2 and
/// 4, lane bits 2-4 columns 1, 2 and 4, register bit 1 row 8. wgmma's A
/// from registers is the A fragment with the warpgroup's 4 warps along M
/// (`withWarpsAlongRows`). Outputs "dim0" (rows), "dim1" (columns).
LinearLayout mmaOperandALayout();
LinearLayout mmaOperandBLayout();

/// Where the matrices of an ldmatrix.x4 feeding an mma.sync m16n8k16
/// operand start in the operand's 16 x 16 block (input "matrix", two bits:
/// lanes 8q .. 8q + 7 give the row addresses of matrix q; outputs "dim0",
/// the M or N row offset, and "dim1", the K offset). The lhs's four are
/// A's registers a0 .. a3: (+0, +0), (+8, +0), (+0, +8), (+8, +8); the
/// rhs's are b0 and b1 of two 8-column tiles: (+0, +0), (+0, +8),
/// (+8, +0), (+8, +8). The GPU lowering addresses ldmatrix by it and
/// compiler/Verify proves that the registers then hold the fragments of
/// `mmaOperandALayout` and `mmaOperandBLayout`.
LinearLayout ldmatrixMatrixLayout(bool isLhs);

/// `l` (one warp's, outputs dim0 and dim1) repeated over `warps` warps
/// stacked along dim0: wgmma's warpgroup of 4 warps, each 16 rows.
LinearLayout withWarpsAlongRows(const LinearLayout &l, int32_t warps);

/// The blocked layout of tile `shape` over `threads` threads in which
/// thread t holds runs of `run` consecutive elements, at row-major
/// positions (t + i * threads) * run + j (the low register bits, then lane
/// bits, warp bits and the other register bits, of the position): with
/// `run` = 1, the positions t, t + threads, ... Output dimensions "dim0",
/// "dim1", ...
LinearLayout rowMajorBlockedLayout(llvm::ArrayRef<int64_t> shape,
                                   int32_t threads, int32_t run = 1);

/// A layout for storing a [rows, columns] tile over `threads` threads with
/// coalesced 16-byte accesses: each thread holds 16 / elementBytes
/// consecutive elements of a row (register bits), consecutive lanes the
/// next pieces of the row, then further lanes, warps and registers go down
/// the rows. Outputs "dim0" (rows), "dim1" (columns). With
/// `columnBlocks` > 1, the columns split into that many blocks, each laid
/// out so on its own, the block given by the highest register bits: each
/// register lies in one block whatever the lane and warp (a conversion can
/// move one block at a time). None when the threads' runs would cover more
/// of the tile than it has (16 rows of 32 bf16 over 128 threads).
std::optional<LinearLayout> coalescedLayout(int32_t rows, int32_t columns,
                                            int32_t threads,
                                            int32_t elementBytes,
                                            int32_t columnBlocks = 1);

/// `l` (outputs dim0, dim1: rows and columns) over a tile of shape `tile`
/// whose leading dimensions, flattened row-major, are the rows (each of
/// their extents a power of two): a row's low bits go to dimension
/// rank - 2, the next to rank - 3, and so on: outputs dim0 .. dim{rank-1}.
/// Usually every leading extent but the last is 1; a flash kernel whose
/// tile holds several heads (grouped-query attention's) spreads its rows
/// over two.
LinearLayout withRowsOverLeadingDims(const LinearLayout &l,
                                     llvm::ArrayRef<int64_t> tile);

/// How many consecutive elements along the innermost output dimension a
/// thread holds in consecutive registers (1, 2, 4, ...): register bits
/// 0..k-1 step 1, 2, 4, ... along it.
int32_t innermostRun(const LinearLayout &l);

/// Whether the block of `blockColumns` columns (innermost output) each
/// element of `l` lies in depends on its register alone: no input but the
/// register reaches a column of `blockColumns` or more.
bool columnBlocksFollowRegisters(const LinearLayout &l, int32_t blockColumns);

/// How a pipeline stage lays out rows of 16-byte chunks in shared memory
/// (the `swizzle` of `#tile.mma`): chunk c of row r is stored at chunk
/// c ^ ((r / perPhase) % maxPhase). A bank line is 128 bytes, so rows
/// shorter than that share a pattern (perPhase rows a line), and a swizzle
/// of S bytes permutes the chunks within S-byte spans (maxPhase = S / 16
/// patterns, at most the chunks of a row). For rows of exactly S bytes this
/// is TMA's and wgmma's S-byte swizzle (address bits [4, 4 + log2(S/16))
/// XOR bits [7, ...)).
struct SharedSwizzle {
  int32_t perPhase = 1, maxPhase = 1;
  /// The swizzle of `swizzleBytes` (0, 32, 64 or 128) for rows of
  /// `rowBytes` (a power of two, at least 16).
  static SharedSwizzle forRows(int64_t rowBytes, int64_t swizzleBytes);
  int64_t storedChunk(int64_t row, int64_t chunk) const {
    return chunk ^ ((row / perPhase) % maxPhase);
  }
};

/// The shared-memory layout of a [rows, rowElements] tile stored row after
/// row with `swizzle`: input "offset" (the element offset) to outputs
/// "dim0" (row) and "dim1" (column). A bijection for power-of-two shapes.
LinearLayout swizzledSharedLayout(int32_t rows, int32_t rowElements,
                                  int32_t elementBytes, SharedSwizzle swizzle);

/// Whether every extent is a power of two.
bool isPowerOfTwoShape(llvm::ArrayRef<int64_t> shape);

} // namespace nautilus::layout

#endif
