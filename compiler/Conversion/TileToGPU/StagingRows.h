//===- StagingRows.h - How a layout conversion stages its rows --*- C++ -*-===//
//
// A tile.convert_layout writes the tile's rows (or a band of them) into
// shared memory and reads them back in the new layout (LayoutConversion.h).
// The rows are laid out plain, padded, or with their chunks XOR-swizzled;
// the lowering takes whichever candidate costs warp 0 the fewest bank
// wavefronts. Every candidate must store each element of the rows at its
// own offset within the buffer, or a conversion would not give back the
// elements it was given (StagingRowsTest proves it of every candidate for
// every width and unit, exhaustively).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_STAGINGROWS_H
#define NAUTILUS_CONVERSION_TILETOGPU_STAGINGROWS_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nautilus {
namespace tiletogpu {

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

} // namespace tiletogpu
} // namespace nautilus

#endif
