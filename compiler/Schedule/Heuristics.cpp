//===- Heuristics.cpp - Schedules decided by hand-written rules ----------===//
#include "compiler/Schedule/Heuristics.h"
#include "dialects/Tile/Utils/AffineExpansion.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace nautilus;

tile::ScheduleAttr
nautilus::defaultSchedule(MLIRContext *ctx,
                          ArrayRef<std::optional<int64_t>> extents,
                          const TargetInfo &target) {
  SmallVector<int64_t> tile(extents.size(), 1);
  bool gpu = target.isGPU();
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

/// The narrowest element (bytes) of the loads of `program` that read
/// along dimension `dim` (of its output and reduced indices), and whether
/// each such load reads it as its buffer's contiguous index; `within`: only
/// the loads nested in it. Elements narrower than a byte (i1) move one at a
/// time: they break the runs where `narrowBreaks`, else are passed over.
/// A gather moves runs only along an output dimension (`outputDim`).
static std::pair<int64_t, bool> narrowestAlong(Operation *within, unsigned dim,
                                               bool narrowBreaks,
                                               bool outputDim) {
  int64_t narrowest = std::numeric_limits<int64_t>::max();
  bool runs = true;
  within->walk([&](tile::LoadOp load) {
    AffineMap map = load.getMap();
    if (!map.isFunctionOfDim(dim))
      return;
    auto memType = cast<MemRefType>(load.getBuffer().getType());
    Type element = memType.getElementType();
    // (A gather's runs along an output dimension only: the lowerings of
    // reductions read gathers element by element.)
    bool contiguous = load.getIndirect().empty()
                          ? isContiguousAlong(map, dim)
                          : outputDim && gathersRunsAlong(load, dim);
    if (!memType.getLayout().isIdentity() || !contiguous) {
      runs = false;
      return;
    }
    int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    if (bits >= 8)
      narrowest = std::min<int64_t>(narrowest, bits / 8);
    else if (narrowBreaks)
      runs = false;
  });
  return {narrowest, runs};
}

int64_t nautilus::maxVectorRun(tile::ProgramOp program, bool ofReductions) {
  int64_t narrowest = std::numeric_limits<int64_t>::max();
  bool runs = true;
  auto fold = [&](std::pair<int64_t, bool> along) {
    narrowest = std::min(narrowest, along.first);
    runs &= along.second;
  };
  unsigned rank = program.getRank();
  if (ofReductions) {
    // The runs of a shared reduction's iterations: each top-level
    // reduction over one index (or stream), read along it contiguously.
    for (auto reduce : program.getBody().front().getOps<tile::ReduceOp>()) {
      if (reduce.getExtents().size() != 1)
        return 1;
      fold(narrowestAlong(reduce, rank, /*narrowBreaks=*/true,
                          /*outputDim=*/false));
    }
    for (auto stream : program.getBody().front().getOps<tile::OnlineReduceOp>())
      fold(narrowestAlong(stream, rank, /*narrowBreaks=*/true,
                          /*outputDim=*/false));
  } else {
    if (rank == 0)
      return 1;
    // Runs along the innermost output dimension: its loads read it
    // contiguously, and stores move runs of their element.
    // (i1 tiles move element by element either way.)
    fold(narrowestAlong(program, rank - 1, /*narrowBreaks=*/false,
                        /*outputDim=*/true));
    program.walk([&](tile::StoreOp store) {
      Type element =
          cast<MemRefType>(store.getBuffer().getType()).getElementType();
      int64_t bits =
          element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
      if (bits >= 8)
        narrowest = std::min<int64_t>(narrowest, bits / 8);
    });
  }
  if (!runs || narrowest > 16)
    return 1;
  return 16 / narrowest;
}

tile::ScheduleAttr nautilus::withVectorRuns(tile::ProgramOp program,
                                            const TargetInfo &target) {
  tile::ScheduleAttr schedule = program.getSchedule();
  ArrayRef<int64_t> tile = schedule.getTile();
  if (target.isCPU() || schedule.getMma() || tile.empty())
    return schedule;
  auto withVector = [&](int64_t vector) {
    if (vector == schedule.getVector())
      return schedule;
    return tile::ScheduleAttr::get(
        program.getContext(), tile, schedule.getThreads(), schedule.getMma(),
        schedule.getReduceThreads(), schedule.getReduceSplit(),
        schedule.getReduceInterleaved(), vector, /*pack=*/false);
  };
  // A shared reduction's runs: consecutive groups of one element each.
  if (schedule.getReduceThreads() != 1)
    return withVector(schedule.getReduceInterleaved() ||
                              schedule.getElementsPerThread() != 1
                          ? 1
                          : maxVectorRun(program, /*ofReductions=*/true));
  int64_t vector = maxVectorRun(program, /*ofReductions=*/false);
  if (vector == 1) // (no access moves runs: the schedule as it is)
    return schedule;
  while (vector > 1 && (tile.back() % vector != 0 ||
                        schedule.getElementsPerThread() % vector != 0))
    vector /= 2;
  return withVector(vector);
}

int64_t nautilus::programCount(ArrayRef<std::optional<int64_t>> extents,
                               ArrayRef<int64_t> tile, int64_t unbound) {
  int64_t n = 1;
  for (auto [extent, t] : llvm::zip(extents, tile))
    n *= extent ? static_cast<int64_t>(llvm::divideCeil(*extent, t)) : unbound;
  return n;
}

/// A stream's schedule on the CPU: see ReductionScheduleOptions.
static tile::ScheduleAttr
streamSchedule(MLIRContext *ctx, ArrayRef<std::optional<int64_t>> extents,
               std::optional<int64_t> reduced, tile::ScheduleAttr schedule,
               const TargetInfo &target,
               const ReductionScheduleOptions &options) {
  SmallVector<int64_t> tile(schedule.getTile());
  if (options.wholeInnermost && !extents.empty() && extents.back()) {
    // 16 rows: once the scores' reads were staged (StagedReads.cpp: Q's
    // columns once an instance, K widened once a block), attention ran
    // 1.2x-1.3x faster with 16 x D tiles than with 8 x D (the scores a
    // full AVX-512 vector a key), and no faster with 32 (B = 1, H = 8,
    // N = M = 512, D = 64: 6.2, 4.7, 4.8 ms; H = 4, N = M = 1024, D = 128:
    // 22.4, 19.0, 31.6 ms).
    tile.back() = std::min<int64_t>(llvm::PowerOf2Ceil(*extents.back()),
                                    kWholeInnermostLimit);
    if (tile.size() >= 2)
      tile[tile.size() - 2] =
          std::min<int64_t>(tile[tile.size() - 2], kWholeInnermostRows);
    // Fewer query rows than that (decoding): the heads of a group, which
    // share each K and V load (grouped-query attention at B = 1, H = 32,
    // G = 8, N = 1, M = 4096, D = 128: 2.8 ms with 4 heads a tile against
    // 4.5 with one).
    for (auto [d, group] : llvm::enumerate(options.sharedLoadGroups)) {
      if (d + 1 >= tile.size() || tile[d] != 1)
        continue;
      int64_t rows = 1;
      for (size_t r = 0; r + 1 < tile.size(); ++r)
        rows *= tile[r];
      int64_t room = kWholeInnermostRows / rows;
      int64_t take = 1;
      for (int64_t t = std::min(group, room); t > 1; --t)
        if (group % t == 0 && (!extents[d] || *extents[d] % t == 0)) {
          take = t;
          break;
        }
      tile[d] = take;
    }
  }
  // Split-KV: chunks of the streamed index for idle cores (decoding: few
  // queries, many keys).
  int64_t split = 1;
  bool bound = reduced && llvm::all_of(extents, [](auto e) {
                 return e.has_value();
               });
  if (bound && options.splittable) {
    int64_t programs = programCount(extents, tile, 1);
    while (programs * split * 2 <= target.multiprocessors &&
           *reduced / (split * 2) >= kMinStreamChunk)
      split *= 2;
  }
  return tile::ScheduleAttr::get(ctx, tile, schedule.getThreads(),
                                 tile::MmaAttr(), /*reduceThreads=*/1, split,
                                 /*reduceInterleaved=*/false, /*vector=*/1,
                                 /*pack=*/false);
}

/// How many heads (output dimension rank - 3) a flash kernel's tile holds:
/// where the queries are fewer than kFlashRows, as many of the `allowed`
/// (ReductionScheduleOptions::flashHeads), and of the heads rounded up to a
/// power of two, as fit kFlashRows rows with the queries rounded up to a
/// power of two; else 1.
static int64_t flashHeads(ArrayRef<std::optional<int64_t>> extents,
                          int64_t allowed) {
  size_t rank = extents.size();
  if (rank < 3 || !extents[rank - 2] || *extents[rank - 2] >= kFlashRows)
    return 1;
  int64_t headRows = llvm::PowerOf2Ceil(*extents[rank - 2]);
  // (No more heads than the output has, where bound: multi-query
  // attention's K and V serve every head.)
  if (extents[rank - 3])
    allowed =
        std::min<int64_t>(allowed, llvm::PowerOf2Ceil(*extents[rank - 3]));
  int64_t heads = 1;
  while (heads * 2 <= allowed && heads * 2 * headRows <= kFlashRows)
    heads *= 2;
  return heads;
}

/// A stream's schedule on a GPU, one flash kernel (alg-fuse-reductions
/// streams only what flashStreamRefusal accepts, the output's innermost
/// extent bound): FlashAttention-2's blocks, 4 warps of 16 query rows
/// (tile 64 x D), the streamed index in blocks of 64 (`tile_k`), each
/// block's K and V rows copied into one of 2 stages; split over the keys
/// (`reduce_split`) where too few programs would leave multiprocessors
/// idle.
static tile::ScheduleAttr
flashSchedule(MLIRContext *ctx, ArrayRef<std::optional<int64_t>> extents,
              std::optional<int64_t> reduced, const TargetInfo &target,
              int64_t allowedHeads) {
  SmallVector<int64_t> tile(extents.size(), 1);
  tile.back() = extents.back().value_or(kFlashRows);
  // sm_90: both contractions on wgmma where D is a multiple of its 64
  // (FlashAttention-3's instructions and TMA copies; not yet its producer
  // warp or ping-pong), two warpgroups of 64 rows sharing each K and V
  // block unless the rows are few (a decoding step).
  bool wgmma = target.hasWgmma() && tile.back() % 64 == 0;
  std::optional<int64_t> queries =
      extents.size() >= 2 ? extents[extents.size() - 2] : std::nullopt;
  int64_t rows = wgmma && (!queries || *queries > kFlashRows)
                     ? 2 * kFlashRows
                     : kFlashRows;
  if (tile.size() >= 2)
    tile[tile.size() - 2] = rows;
  // Few query rows (decoding) of heads that share each K and V load
  // (grouped-query attention): the tile holds several heads of a group,
  // their rows stacked, on mma.sync, one warp of 16 rows if they fit, so
  // that each K and V block is loaded once for them. (Not at D = 256 on
  // sm_90: a warp's 16 x 256 accumulators spill on mma.sync, and wgmma's
  // 64-row warpgroups have none to spare.)
  int64_t heads =
      wgmma && tile.back() > 128 ? 1 : flashHeads(extents, allowedHeads);
  if (heads > 1) {
    int64_t headRows = llvm::PowerOf2Ceil(*queries);
    wgmma = false;
    rows = std::max<int64_t>(16, heads * headRows);
    tile[tile.size() - 3] = heads;
    tile[tile.size() - 2] = rows / heads;
  }
  // Split-KV (flash-decoding): few programs over many keys split the keys
  // while the programs still fit the multiprocessors and each chunk keeps
  // kFlashMinChunk keys.
  int64_t split = 1;
  if (reduced && llvm::all_of(extents, [](auto e) { return e.has_value(); })) {
    int64_t programs = programCount(extents, tile, 1);
    while (programs * split * 2 <= target.multiprocessors &&
           *reduced / (split * 2) >= kFlashMinChunk)
      split *= 2;
  }
  auto mma =
      tile::MmaAttr::get(ctx, wgmma ? "wgmma" : "mma_sync", kFlashKeyBlock,
                         {rows / 16, 1}, /*stages=*/2,
                         /*groupM=*/1, /*producers=*/0,
                         /*persistent=*/0, /*swizzle=*/128,
                         /*splitK=*/1, /*pingPong=*/0, /*overlapSoftmax=*/0);
  return tile::ScheduleAttr::get(ctx, tile, rows / 16 * target.warpSize, mma,
                                 /*reduceThreads=*/1, split,
                                 /*reduceInterleaved=*/false, /*vector=*/1,
                                 /*pack=*/false);
}

ReductionShape nautilus::reductionShapeOf(tile::ProgramOp program,
                                          Operation *reduction) {
  unsigned rank = program.getRank(), reducedDim = rank;
  bool rows = true, columns = rank > 0, any = false;
  reduction->walk([&](tile::LoadOp load) {
    AffineMap map = load.getMap();
    auto involves = [&](unsigned d) {
      return llvm::any_of(map.getResults(),
                          [&](AffineExpr e) { return e.isFunctionOfDim(d); });
    };
    if (!involves(reducedDim))
      return;
    any = true;
    auto type = cast<MemRefType>(load.getBuffer().getType());
    bool everyOutput = true;
    for (unsigned d = 0; d < rank; ++d)
      everyOutput &= involves(d);
    if (!everyOutput || !load.getIndirect().empty() ||
        !type.getLayout().isIdentity()) {
      rows = columns = false;
      return;
    }
    rows &= isContiguousAlong(map, reducedDim);
    columns &= rank > 0 && isContiguousAlong(map, rank - 1);
  });
  if (!any)
    return ReductionShape::Other;
  return rows      ? ReductionShape::Rows
         : columns ? ReductionShape::Columns
                   : ReductionShape::Other;
}

tile::ScheduleAttr nautilus::defaultReductionSchedule(
    MLIRContext *ctx, ArrayRef<std::optional<int64_t>> extents,
    std::optional<int64_t> reduced, ReductionShape shape,
    const TargetInfo &target, const ReductionScheduleOptions &options) {
  tile::ScheduleAttr schedule = defaultSchedule(ctx, extents, target);
  if (target.isCPU() && options.stream)
    return streamSchedule(ctx, extents, reduced, schedule, target, options);
  // A stream that recomputes a reduction (attention's scores) is a flash
  // kernel; another (softmax's maximum and denominator) is shared by groups
  // of threads as a reduction is.
  if (options.stream && options.wholeInnermost)
    return flashSchedule(ctx, extents, reduced, target, options.flashHeads);
  // (A GEMM's tile reuses each row of A across its columns: groups would
  // lose that.)
  if (target.isCPU() || !reduced ||
      *reduced < options.minShared || shape == ReductionShape::Other)
    return schedule;
  bool columns = shape == ReductionShape::Columns;
  int64_t shared = std::min<int64_t>(
      llvm::PowerOf2Ceil(llvm::divideCeil(*reduced, options.stepsPerThread)),
      kReductionBlockThreads);
  SmallVector<int64_t> tile(schedule.getTile());
  auto elements = [&] {
    int64_t n = 1;
    for (int64_t t : tile)
      n *= t;
    return n;
  };
  auto programs = [&] {
    return programCount(extents, tile, target.multiprocessors);
  };
  // Halves the widest outer tile extent, else the innermost (down to a
  // warp's lanes for columns: the groups' reads of a row coalesce across
  // them).
  int64_t lanes = target.kernelLanes;
  int64_t minInner =
      columns && !tile.empty() ? std::min<int64_t>(tile.back(), lanes) : 1;
  auto halve = [&] {
    if (tile.empty())
      return false;
    if (tile.size() > 1) {
      auto outer = std::max_element(tile.begin(), tile.end() - 1);
      if (*outer > 1) {
        *outer /= 2;
        return true;
      }
    }
    if (tile.back() <= minInner)
      return false;
    tile.back() /= 2;
    return true;
  };
  while (elements() * shared > kReductionBlockThreads && halve())
    ;
  while (programs() < target.multiprocessors && halve())
    ;
  shared = std::min(shared, kReductionBlockThreads / elements());
  if (shared <= 1)
    return schedule;
  // At least a warp a block: the groups' shuffles then run on whole warps.
  shared = std::max(shared, lanes / std::min<int64_t>(elements(), lanes));
  // Few programs over long rows: more of them, each a chunk of the rows.
  int64_t split = 1;
  bool bound = llvm::all_of(extents, [](auto e) { return e.has_value(); });
  while (options.splittable && bound &&
         programs() * 2 * split <=
             kReductionBlocksPerMultiprocessor * target.multiprocessors &&
         *reduced / (2 * split) >= shared * options.stepsPerThread)
    split *= 2;
  return tile::ScheduleAttr::get(ctx, tile, elements() * shared,
                                 tile::MmaAttr(), shared, split, columns,
                                 /*vector=*/1, /*pack=*/false);
}

/// The smallest tile extent along M or N of an mma.sync program (a warp's
/// 16 x 8 fragments over 2 x 4 warps), and of a wgmma one (a warpgroup's
/// 64 rows).
constexpr int64_t kSmallestMmaSyncTile = 32;
constexpr int64_t kSmallestWgmmaTile = 64;

/// The tile extent for an output extent (known or not): a power of two
/// from kSmallestMmaSyncTile to kMaxContractionTile.
static int64_t contractionTile(std::optional<int64_t> extent) {
  if (!extent)
    return kMaxContractionTile;
  return std::clamp<int64_t>(llvm::PowerOf2Ceil(*extent),
                             kSmallestMmaSyncTile, kMaxContractionTile);
}

std::optional<autosched::ContractionProblem::Groups>
nautilus::routedGroupsOf(tile::ProgramOp program) {
  tile::SkipIfNegativeOp skip = tile::SkipIfNegativeOp::find(program);
  tile::RouteOp route = skip ? skip.getRouting() : tile::RouteOp();
  return route ? routedGroupsOf(route) : std::nullopt;
}

std::optional<autosched::ContractionProblem::Groups>
nautilus::routedGroupsOf(tile::RouteOp route) {
  auto routing = route->getParentOfType<tile::ProgramOp>();
  auto ids = dyn_cast<BlockArgument>(route.getIds());
  ArrayAttr idsDims =
      ids ? routing.getBufferDims(ids.getArgNumber()) : ArrayAttr();
  if (!idsDims)
    return std::nullopt;
  autosched::ContractionProblem::Groups groups;
  groups.block = route.getBlock();
  groups.rows = 1;
  for (Attribute dim : idsDims) {
    std::optional<int64_t> extent = routing.getKnownExtent(dim);
    if (!extent)
      return std::nullopt;
    groups.rows *= *extent;
  }
  std::optional<int64_t> experts = routing.getKnownExtent(route.getExperts());
  if (!experts || *experts <= 0 || groups.rows <= 0)
    return std::nullopt;
  groups.groups = *experts;
  return groups;
}

ContractionExtents nautilus::contractionExtents(tile::ProgramOp program) {
  ArrayAttr dims = program.getOutputDims();
  unsigned rank = dims.size();
  ContractionExtents extents;
  extents.m = program.getKnownExtent(dims[rank - 2]);
  extents.n = program.getKnownExtent(dims[rank - 1]);
  extents.batch = 1;
  for (unsigned d = 0; d + 2 < rank; ++d) {
    std::optional<int64_t> extent = program.getKnownExtent(dims[d]);
    extents.batch = extent && extents.batch
                        ? std::optional<int64_t>(*extents.batch * *extent)
                        : std::nullopt;
  }
  extents.grouped = routedGroupsOf(program);
  extents.routed = tile::SkipIfNegativeOp::find(program) != nullptr;
  Block &body = program.getBody().front();
  if (auto contracts = body.getOps<tile::ContractOp>(); !contracts.empty())
    extents.k = program.getKnownExtent((*contracts.begin()).getExtent());
  else if (auto reduces = body.getOps<tile::ReduceOp>();
           !reduces.empty() && (*reduces.begin()).getExtents().size() == 1)
    extents.k = program.getKnownExtent((*reduces.begin()).getExtents()[0]);
  return extents;
}

/// Halves `tileM` or `tileN` (not below `smallest`) while twice the tiles
/// of `extents` fit in one wave of `multiprocessors`: the larger first (N
/// on a tie), but M first for a computed lhs and N first for a computed
/// rhs. Unbound extents count as large: nothing changes.
static void fillMachine(int64_t &tileM, int64_t &tileN,
                        const ContractionExtents &extents, int64_t smallest,
                        int64_t multiprocessors, ComputedSides computed) {
  if (!extents.m || !extents.n || !extents.batch)
    return;
  auto tiles = [&]() -> int64_t {
    return llvm::divideCeil(*extents.m, tileM) *
           llvm::divideCeil(*extents.n, tileN) * *extents.batch;
  };
  auto halve = [&](int64_t &extent) {
    if (extent <= smallest)
      return false;
    extent /= 2;
    return true;
  };
  while (2 * tiles() <= multiprocessors) {
    bool mFirst = computed.lhs != computed.rhs ? computed.lhs : tileM > tileN;
    bool halved = mFirst ? halve(tileM) || halve(tileN)
                         : halve(tileN) || halve(tileM);
    if (!halved)
      return;
  }
}

/// The chunks to split K of `k` into (1: none) when the output's tiles
/// fill at most half of `multiprocessors`: doubled while twice as many
/// programs still fit in one wave and each chunk keeps kMinSplitSteps
/// steps of `tileK`.
static int64_t splitToFill(int64_t tileM, int64_t tileN,
                           const ContractionExtents &extents,
                           std::optional<int64_t> k, int64_t tileK,
                           int64_t multiprocessors) {
  if (!k || !extents.m || !extents.n || !extents.batch)
    return 1;
  int64_t tiles = llvm::divideCeil(*extents.m, tileM) *
                  llvm::divideCeil(*extents.n, tileN) * *extents.batch;
  int64_t steps = llvm::divideCeil(*k, tileK);
  int64_t splits = 1;
  while (2 * splits * tiles <= multiprocessors &&
         steps / (2 * splits) >= kMinSplitSteps)
    splits *= 2;
  return splits;
}

tile::ScheduleAttr nautilus::defaultContractionSchedule(
    MLIRContext *ctx, unsigned rank, const ContractionExtents &extents,
    bool wgmma, ComputedSides computed, const TargetInfo &target,
    std::optional<int64_t> splittableK) {
  SmallVector<int64_t> tile(rank, 1);
  int64_t &tileM = tile[rank - 2], &tileN = tile[rank - 1];
  tileM = contractionTile(extents.m);
  tileN = contractionTile(extents.n);
  tile::MmaAttr mma;
  if (wgmma) {
    // A warpgroup per 64 rows, tiles of 64 or 128 (M) by 64 or 128 (N),
    // 64 of K a stage, 4 stages of TMA copies (128 KiB for 128 x 128).
    tileM = std::max<int64_t>(tileM, kSmallestWgmmaTile);
    tileN = std::max<int64_t>(tileN, kSmallestWgmmaTile);
    // A wide problem takes 128 x 256 tiles (wgmma m64n256, 128
    // accumulators a consumer thread): each byte copied feeds twice the
    // products. Its registers come from the producer's (setmaxnreg, see
    // WgmmaPlan.h), which a producer computing an operand cannot spare.
    if (tileM == 128 && extents.n && *extents.n >= kMaxWideContractionTile &&
        !computed.any())
      tileN = kMaxWideContractionTile;
    // Siblings: as many accumulators a thread as one contraction's tile
    // (N shared among them); unsplit.
    if (computed.siblings > 1) {
      tileN = std::max<int64_t>(
          kSmallestWgmmaTile,
          llvm::bit_floor<uint64_t>(tileN / computed.siblings));
      splittableK = std::nullopt;
    }
    fillMachine(tileM, tileN, extents, kSmallestWgmmaTile,
                target.multiprocessors, computed);
    mma = tile::MmaAttr::get(ctx, "wgmma", /*tileK=*/64,
                             /*warps=*/{tileM / 16, 1}, /*stages=*/4,
                             /*groupM=*/8, /*producers=*/1,
                             /*persistent=*/1, /*swizzle=*/128,
                             splitToFill(tileM, tileN, extents, splittableK,
                                         /*tileK=*/64, target.multiprocessors),
                             /*pingPong=*/0, /*overlapSoftmax=*/0);
  } else {
    // 8 warps, 2 along M and 4 along N: a 128 x 128 tile leaves each
    // thread 64 accumulators (with 4 warps, 128 of them and an epilogue
    // spill registers). 64 of K a stage, 3 stages (96 KiB for 128 x 128,
    // two stages in flight): a step's fixed costs (the wait, the block
    // barrier, the ldmatrix latency before the first mma) spread over 64
    // mma.sync a warp rather than 32; a block a multiprocessor either way.
    // A computed operand keeps 32: its threads hold a step's elements in
    // registers before storing them (attention's kernel would take 251
    // registers at 64, 218 at 32).
    // Siblings: about one contraction's accumulators a thread; unsplit.
    if (computed.siblings > 1) {
      tileN = std::max<int64_t>(
          kSmallestMmaSyncTile,
          std::min<int64_t>(tileN,
                            llvm::bit_floor<uint64_t>(kMaxContractionTile /
                                                      computed.siblings)));
      splittableK = std::nullopt;
    }
    fillMachine(tileM, tileN, extents, kSmallestMmaSyncTile,
                target.multiprocessors, computed);
    int64_t warpsN = std::min<int64_t>(4, tileN / 16);
    int64_t tileK = computed.any() ? 32 : 64;
    mma = tile::MmaAttr::get(ctx, "mma_sync", tileK,
                             /*warps=*/{2, warpsN}, /*stages=*/3,
                             /*groupM=*/8, /*producers=*/0,
                             /*persistent=*/0, /*swizzle=*/128,
                             splitToFill(tileM, tileN, extents, splittableK,
                                         tileK, target.multiprocessors),
                             /*pingPong=*/0, /*overlapSoftmax=*/0);
  }
  return tile::ScheduleAttr::get(ctx, tile, mma.getNumThreads(), mma);
}

tile::ScheduleAttr
nautilus::spreadOverMachine(tile::ScheduleAttr schedule,
                            ArrayRef<std::optional<int64_t>> extents,
                            const TargetInfo &target) {
  SmallVector<int64_t> tile(schedule.getTile());
  unsigned rank = tile.size();
  while (programCount(extents, tile, target.multiprocessors) <
         target.multiprocessors) {
    if (rank >= 2 && tile[rank - 2] > 1)
      tile[rank - 2] /= 2;
    else if (tile.back() > target.kernelLanes)
      tile.back() /= 2;
    else
      break;
  }
  int64_t elements = 1;
  for (int64_t t : tile)
    elements *= t;
  return tile::ScheduleAttr::get(
      schedule.getContext(), tile,
      std::min(schedule.getThreads(), elements));
}

bool nautilus::defaultFusesReductions(const TargetInfo &target,
                                      std::string &why) {
  // (On a GPU, gpuStreamRefusal says which streams run: a flash kernel
  // needs tensor cores.)
  (void)target;
  (void)why;
  return true;
}

bool nautilus::defaultRecomputesInStreams(const TargetInfo &target,
                                          std::string &why) {
  if (target.isCPU() || target.hasMmaSync())
    return true; // blocks of keys share each read of the recomputed operands
  why = "streams do not run on " + target.name;
  return false;
}

bool nautilus::defaultFusesSharedOperands(const TargetInfo &target,
                                          std::string &why) {
  // Siblings read the shared operand once and write no projection: on
  // every target that runs them (mma.sync or wgmma pipelines, the CPU).
  return canFuseSharedOperands(target, why);
}

bool nautilus::canFuseSharedOperands(const TargetInfo &target,
                                     std::string &why) {
  // NVIDIA's tensor-core pipelines run sibling contractions (mma.sync's
  // and wgmma's); AMD's programs have no tensor-core contractions.
  if (target.isCPU() || target.hasMmaSync())
    return true;
  why = "its lowering has no tensor-core contractions to share a tile";
  return false;
}

bool nautilus::defaultRecomputesOperands(const TargetInfo &target,
                                         std::string &why) {
  (void)target;
  (void)why;
  return true;
}

bool nautilus::defaultSweepsRowConsumers(const TargetInfo &target,
                                         std::string &why) {
  if (target.isGPU())
    return true;
  why = "the CPU lowering has no sweep";
  return false;
}
