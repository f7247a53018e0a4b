//===- ConversionInvariants.cpp - Conversions give back their elements ----===//
//
//   dataflow.conversion  a tile.convert_layout's threads write each element
//                        into shared memory at the offset of its (row,
//                        column) and read back, at the same function of
//                        theirs, the elements the new layout gives them
//                        (LayoutConversion.cpp). Every register then holds
//                        its element exactly when that offset is one to one
//                        over the tile's rows and within their buffer: for
//                        every width the staging may take (the tile's, a
//                        band's) and every layout of its rows the lowering
//                        may choose (stagingRowCandidates), whichever the
//                        cost and the shared memory left pick.
//
// The proof enumerates: the domain is finite and concrete (a tile's rows
// and columns), so visiting every element is a proof. Both layouts are
// proved one to one and onto the tile by the layout.* invariants; the
// threads' own address arithmetic is the emulator's to check.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Invariants.h"

#include "dialects/Tile/Utils/StagingRows.h"

#include <chrono>

using namespace nautilus;
using namespace nautilus::verify;

namespace {

std::string describe(const StagingRows &rows) {
  std::string out = "rows " + std::to_string(rows.width) + " wide";
  if (rows.pad)
    out += ", padded by " + std::to_string(rows.pad);
  if (rows.maxPhase > 1)
    out += ", chunks of " + std::to_string(rows.unit) + " swizzled in " +
           std::to_string(rows.maxPhase) + " phases every " +
           std::to_string(rows.perPhase) + " rows";
  return out;
}

/// Where `rows` stores the first element that shares an offset with
/// another or lies past the buffer of `count` rows; empty if none does.
std::string firstClash(const StagingRows &rows, int64_t count) {
  int64_t size = count * rows.pitch();
  std::vector<int64_t> holder(std::max<int64_t>(size, 0), -1);
  for (int64_t r = 0; r < count; ++r)
    for (int64_t c = 0; c < rows.width; ++c) {
      int64_t at = rows.offset(r, c);
      if (at >= 0 && at < size && holder[at] < 0) {
        holder[at] = r * rows.width + c;
        continue;
      }
      std::string element =
          "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
      if (at < 0 || at >= size)
        return describe(rows) + ": element " + element + " at offset " +
               std::to_string(at) + ", outside the rows' " +
               std::to_string(size) + " elements";
      int64_t other = holder[at];
      return describe(rows) + ": elements (" +
             std::to_string(other / rows.width) + ", " +
             std::to_string(other % rows.width) + ") and " + element +
             " both at offset " + std::to_string(at);
    }
  return "";
}

} // namespace

void verify::proveConversions(const ProgramModel &model,
                              std::vector<Finding> &findings) {
  for (const ConversionStaging &staging : model.conversions) {
    auto start = std::chrono::steady_clock::now();
    Finding f;
    f.invariant = "dataflow.conversion";
    f.subject = "@" + model.name + ": a tile.convert_layout's staging (" +
                std::to_string(staging.rows) + " x " +
                std::to_string(staging.columns) + ", runs of " +
                std::to_string(staging.unit) + ")";
    f.verdict = Verdict::Proved;
    for (int64_t width : staging.widths) {
      std::vector<StagingRows> candidates =
          stagingRowCandidates(width, staging.unit, staging.elementBytes);
      // A band's rows may also keep the whole tile's padding, unswizzled.
      for (const StagingRows &whole : stagingRowCandidates(
               staging.columns, staging.unit, staging.elementBytes))
        candidates.push_back(StagingRows{width, whole.pad, staging.unit});
      // The buffer holds the tile's rows, or (rows of the tile's width)
      // a band of them: rows / bands for each count of bands.
      std::vector<int64_t> counts = {staging.rows};
      if (width == staging.columns)
        for (int64_t bands = 2;
             bands <= staging.rows && staging.rows % bands == 0; bands *= 2)
          counts.push_back(staging.rows / bands);
      for (StagingRows rows : candidates) {
        if (staging.pitchShort)
          rows.pad = -rows.unit;
        for (int64_t count : counts) {
          std::string clash = firstClash(rows, count);
          if (clash.empty())
            continue;
          f.verdict = Verdict::Refuted;
          f.detail = clash;
          break;
        }
        if (f.verdict == Verdict::Refuted)
          break;
      }
      if (f.verdict == Verdict::Refuted)
        break;
    }
    f.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    findings.push_back(std::move(f));
  }
}
