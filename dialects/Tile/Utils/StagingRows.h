//===- StagingRows.h - How a layout conversion stages its rows --*- C++ -*-===//
//
// A tile.convert_layout writes the tile's rows (or a band of them) into
// shared memory and reads them back in the new layout (the GPU lowering's
// LayoutConversion.h). The rows are laid out plain, padded, or with their
// chunks XOR-swizzled; the lowering takes whichever candidate costs warp 0
// the fewest bank wavefronts. Every candidate must store each element of
// the rows at its own offset within the buffer, or a conversion would not
// give back the elements it was given: compiler/Verify's
// dataflow.conversion checks every candidate of each conversion, and
// StagingRowsTest every candidate for every width up to 256.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_DIALECTS_TILE_UTILS_STAGINGROWS_H
#define NAUTILUS_DIALECTS_TILE_UTILS_STAGINGROWS_H

#include "dialects/Tile/Layout/LinearLayout.h"

#include "mlir/IR/Types.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace nautilus {

/// `width` columns a row (the tile's, or a band's), `pad` elements after
/// each, and the row's chunks of `unit` elements XOR-swizzled: chunk c of
/// row r stored at c ^ ((r / perPhase) % maxPhase) (maxPhase 1: none).
struct StagingRows {
  int64_t width, pad = 0, unit = 1, perPhase = 1, maxPhase = 1;

  int64_t pitch() const { return width + pad; }
  /// Where element (`row`, `column`) of the staging lies, in elements.
  int64_t offset(int64_t row, int64_t column) const {
    int64_t chunk = column / unit ^ (row / perPhase) % maxPhase;
    return row * pitch() + chunk * unit + column % unit;
  }
};

/// The layouts the lowering chooses among for rows `width` elements wide
/// (a multiple of `unit`) of `elementBytes`-byte elements: plain (with a
/// word of padding when elements move one at a time), XOR-swizzled, or
/// padded by up to 128 bytes. A swizzle's phase count divides the row's
/// chunk count: the XOR changes only the chunk's low bits, so the chunk
/// it gives stays within the row only when the row holds whole groups of
/// maxPhase chunks (12 chunks with 8 phases would send chunk 11 to 12,
/// onto the next row).
inline std::vector<StagingRows>
stagingRowCandidates(int64_t width, int64_t unit, int64_t elementBytes) {
  StagingRows plain{width};
  plain.unit = unit;
  if (unit == 1) { // element by element: a word of padding, as always
    plain.pad = std::max<int64_t>(1, 4 / elementBytes);
    return {plain};
  }
  std::vector<StagingRows> candidates = {plain};
  int64_t chunks = width / unit;
  for (int64_t maxPhase = 2; chunks % maxPhase == 0; maxPhase *= 2)
    for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2) {
      StagingRows swizzled = plain;
      swizzled.maxPhase = maxPhase;
      swizzled.perPhase = perPhase;
      candidates.push_back(swizzled);
    }
  for (int64_t pad = unit; pad * elementBytes <= 128; pad += unit) {
    StagingRows padded = plain;
    padded.pad = pad;
    candidates.push_back(padded);
  }
  return candidates;
}

/// The longest run (a power of two, at most `maxRun`) of a row's
/// consecutive elements that `l` puts in consecutive registers of a thread
/// and that starts at a column multiple of it: each such run moves through
/// shared memory as one aligned vector.
int64_t alignedRun(const layout::LinearLayout &l, int64_t maxRun);

/// How a conversion from `from` (none: one element at a time) to `to` of
/// `element`s moves its elements: runs of a row's consecutive elements in
/// a thread's registers, aligned, of at most 16 bytes (bytes, not i1's
/// bits), each way; `unit`, the larger, is the staging rows' chunk.
struct StagingRuns {
  int64_t write = 1, read = 1, unit = 1;
};
StagingRuns stagingRuns(const std::optional<layout::LinearLayout> &from,
                        const layout::LinearLayout &to, mlir::Type element);

/// The widths the staging rows of a `rows` x `columns` tile may take: the
/// tile's, and a band's of columns / bands for each power-of-two count of
/// bands dividing the rows (as stagingBands splits them) whose columns
/// split into whole chunks of `unit`.
std::vector<int64_t> stagingWidths(int64_t rows, int64_t columns, int64_t unit);

} // namespace nautilus

#endif
