//===- DefaultSchedule.cpp - A program's schedule before any search -------===//
#include "compiler/Conversion/DefaultSchedule.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace nautilus;

tile::ScheduleAttr
nautilus::defaultSchedule(MLIRContext *ctx,
                          ArrayRef<std::optional<int64_t>> extents,
                          const TargetInfo &target) {
  SmallVector<int64_t> tile(extents.size(), 1);
  bool gpu = target.family != TargetFamily::CPU;
  // The innermost dimension is the contiguous one: tile it widest. On the
  // CPU a tile row is two SIMD registers of f32 and the accumulators of a
  // tile fill about half the register file (16 x 32 with AVX-512, 6 x 16
  // with AVX2), which measured best for GEMM (bench/README.md).
  int64_t lanes = std::max<int64_t>(target.vectorBits / 32, 4);
  int64_t inner = gpu ? 64 : 2 * lanes;
  int64_t outer = gpu ? 16 : (target.vectorBits >= 512 ? 16 : 6);
  auto fit = [](int64_t want, std::optional<int64_t> extent) {
    if (!extent)
      return want;
    return std::min<int64_t>(want, llvm::PowerOf2Ceil(*extent));
  };
  if (!extents.empty())
    tile.back() = fit(inner, extents.back());
  if (extents.size() >= 2)
    tile[extents.size() - 2] = fit(outer, extents[extents.size() - 2]);
  int64_t elements = 1;
  for (int64_t t : tile)
    elements *= t;
  int64_t threads =
      gpu ? std::min<int64_t>(target.defaultThreads, elements) : 1;
  return tile::ScheduleAttr::get(ctx, tile, threads);
}
