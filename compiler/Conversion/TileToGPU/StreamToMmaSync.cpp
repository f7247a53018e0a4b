//===- StreamToMmaSync.cpp - A stream as one flash kernel -----------------===//
//
// A tile.online_reduce that is a contraction stream (ContractionStream.h:
// attention) becomes FlashAttention-2's kernel, derived from the stream's
// body rather than recognised. This file holds the main loop and the
// online softmax; FlashCopies.cpp the copies and the key range;
// FlashWgmma.cpp sm_90's contractions (both on wgmma there, Q, K and V by
// TMA into 64-column panels, two warpgroups of 64 rows: see
// docs/architecture.md, "Streams on GPUs"). On sm_80, per program instance
// (64 rows of the output, 4 warps of 16 rows, the output's innermost
// extent D whole):
//
//  - the lhs of the recomputed contraction (Q) is read once: its rows by
//    cp.async into V's second stage (free until block 1's copy, which
//    with more than two stages waits for a barrier after it), then
//    mma.sync A fragments by ldmatrix, D / 16 of them;
//  - the streamed index goes in blocks of `tile_k` (64) keys; a block's
//    rows of the contraction's rhs (K) and of the second contraction's
//    operand (V) are copied by cp.async into one of `stages` swizzled
//    stages (2 or more; the copy of block j + stages - 1 is issued before
//    block j's arithmetic, into the stage block j - 1 used: the wait and
//    the block barrier open each step; the blocks before it, before the
//    loop);
//  - the block's scores, 16 x 64 a warp, are mma.sync m16n8k16 over D with
//    K's fragments by ldmatrix; they stay in the accumulator registers;
//  - the body's ops are evaluated on the scores, element by element, as
//    the CPU's stream does on its keys (StreamLowering.cpp): the ops that
//    read no leader, then each leader folds its row's terms (the thread's
//    16, then the 4 lanes of a quad by two shuffles), the repairs from
//    the old leaders to the new are computed once a row, and the ops that
//    read a leader follow at the new leaders (a leader at its identity
//    read as 0, the repair from it 1);
//  - a row's sums (L) are the thread's partial sums, repaired, added up
//    over the quad after the loop; a sum whose term is P times V is a
//    second contraction: its accumulators (16 x D a warp, in registers)
//    are multiplied by the repair, P is rounded to the operand type and
//    the score accumulators of two adjacent 8-key tiles are the A fragment
//    of m16n8k16 as they are (no shared memory), and V's B fragments come
//    by ldmatrix.trans from its stage;
//  - keys past the streamed extent (the last block's ragged end) are
//    zero-filled by the copies and contribute nothing (a leader's term is
//    its identity there, a sum's 0), nor do the keys of a split stream's
//    blocks outside its chunk (split-KV: tile-split-reductions gives the
//    chunks to a partial program, whose results another program combines,
//    ElementStreams.cpp);
//  - a causal or windowed mask (maskedKeyBounds) narrows the blocks to
//    those holding a key some row of the tile sees: the blocks wholly
//    masked for every row are neither copied nor computed; the blocks
//    every row sees whole, inside the stream's range, run a form of the
//    step without the masks (their comparisons known true), and only the
//    boundary blocks evaluate them.
//
// A tile may hold several heads (tile [..., h, n, D], h > 1, on mma.sync:
// a decoding step of grouped-query attention, whose heads of a group read
// the same K and V rows): its h x n rows are (head, query) pairs,
// row-major (outputRow), each K and V block is copied once for all of
// them, and Q's rows, the masks and the epilogue take each row's pair.
//
// The results are the accumulators in the program's layout, the mma
// accumulator layout of [rows, D] over warps [rows / 16, 1]: the second
// contraction's registers as they are, a row's value in each register of
// its row. The epilogue (O / L) is the program's, after the stream.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/FlashKernel.h"
#include "compiler/Conversion/TileToGPU/Streams.h"

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

OutputRow FlashLowering::outputRow(Value rowInTile) {
  Value head = rank >= 3 ? kernel.tileOrigin[rank - 3] : Value();
  Value row = kernel.tileOrigin[rank - 2];
  if (heads == 1)
    return {head, add(row, rowInTile)};
  return {add(head, arith::DivUIOp::create(b, loc, rowInTile, c(headRows))),
          add(row, arith::RemUIOp::create(b, loc, rowInTile, c(headRows)))};
}

Value FlashLowering::insideOutput(OutputRow at) {
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       at.row, kernel.extents[rank - 2]);
  if (heads == 1)
    return inside;
  return arith::AndIOp::create(
      b, loc, inside,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at.head,
                            kernel.extents[rank - 3]));
}

SmallVector<Value> FlashLowering::indicesOf(const StreamRead &read,
                                            OutputRow at, Value inner,
                                            Value key, Value nested) {
  SmallVector<Value> dims(kernel.tileOrigin.begin(), kernel.tileOrigin.end());
  if (at.head)
    dims[rank - 3] = at.head;
  dims[rank - 2] = at.row;
  dims[rank - 1] = inner ? inner : c(0);
  dims.push_back(key ? key : c(0));
  if (read.map.getNumDims() > rank + 1)
    dims.push_back(nested ? nested : c(0));
  SmallVector<Value> indices;
  for (AffineExpr e : read.map.getResults())
    indices.push_back(
        expandAffine(b, loc, e, b.getIndexType(), dims, kernel.sizeArgs));
  return indices;
}

Value FlashLowering::packPair(Value lo, Value hi) {
  Value pair = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, element), ValueRange{lo, hi});
  if (!element.isBF16()) // f16 pairs go to mma.sync as vector<2xf16>
    return pair;
  Value bits = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), pair);
  return vector::ExtractOp::create(b, loc, bits, 0);
}

void FlashLowering::setUp() {
  ArrayRef<int64_t> tile = kernel.program.getSchedule().getTile();
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  rank = tile.size();
  headRows = tile[rank - 2];
  heads = rank >= 3 ? tile[rank - 3] : 1;
  rows = heads * headRows;
  headDim = tile.back();
  keyBlock = mma.getTileK();
  keyTiles = keyBlock / 8;
  headTiles = headDim / 8;
  element = roles.lhs.element;
  // A producer warpgroup (threads 0 .. 127) holds no rows: the computing
  // threads count from the first consumer's.
  producers = mma.getProducers();
  pingPong = mma.getPingPong() != 0;
  overlapSoftmax = mma.getOverlapSoftmax() != 0;
  computing =
      producers
          ? arith::SubIOp::create(b, loc, kernel.threadId,
                                  c(kernel.target.warpgroupThreads * producers))
                .getResult()
          : kernel.threadId;
  lane =
      arith::RemUIOp::create(b, loc, computing, c(kernel.target.kernelLanes));
  warp =
      arith::DivUIOp::create(b, loc, computing, c(kernel.target.kernelLanes));
  quadRow = arith::DivUIOp::create(b, loc, lane, c(4));
  quadColumn = arith::RemUIOp::create(b, loc, lane, c(4));
  extent = kernel.scalars.lookupOrDefault(stream.getExtent());
  // K's stages, then V's: rows of keys, D elements each.
  Value base = emitDynamicSharedBase(b, loc, kernel.func);
  int64_t stageElements = keyBlock * headDim;
  int64_t stages = mma.getStages();
  int64_t bytes = stages * stageElements * element.getIntOrFloatBitWidth() / 8;
  // On wgmma, the descriptors' swizzle (the threads' copies, without TMA,
  // must store what they read).
  int64_t swizzle = mma.getInstr() == "wgmma" ? FlashWgmmaPlan::kSwizzleBytes
                                              : mma.getSwizzle();
  keyStages = {
      emitDynamicSharedBuffer(b, loc, base, 0, stages * stageElements, element),
      element,
      headDim,
      stageElements,
      /*kInnermost=*/true,
      swizzle};
  valueStages = {emitDynamicSharedBuffer(b, loc, base, bytes,
                                         stages * stageElements, element),
                 element,
                 headDim,
                 stageElements,
                 /*kInnermost=*/false,
                 swizzle};
  if (mma.getInstr() == "mma_sync") {
    keyLoader.emplace(b, loc, keyStages, lane, /*isLhs=*/false);
    valueLoader.emplace(b, loc, valueStages, lane, /*isLhs=*/false);
  }
  wgmma = mma.getInstr() == "wgmma";
  if (wgmma) {
    // wgmma reads Q, K and V through descriptors: each stage is panels of
    // 64 columns (rows of 128 bytes, the swizzle's span), and Q has a
    // region of its own after V's stages, read by every block's Q K^T.
    sharedAddress = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
    sharedPlan = planFlashWgmma(kernel.program);
    sharedBase = base;
    maps = flashTensorMaps(kernel.program);
    tma = !kernel.flashTensorMaps.empty(); // (bound from the same maps)
    barrierBytes = sharedPlan.regionsEnd();
    queryRegion = {emitDynamicSharedBuffer(b, loc, base,
                                           sharedPlan.queryOffset(),
                                           rows * headDim, element),
                   element,
                   headDim,
                   rows * headDim,
                   /*kInnermost=*/true,
                   FlashWgmmaPlan::kSwizzleBytes};
  }
  for (auto [i, factor] : llvm::enumerate(roles.factors)) {
    if (stream.isLeader(i))
      leaders.push_back(i);
    else
      (factor ? contracted : rowSums).push_back(i);
  }
}

/// One mma.sync m16n8k16 (row.col) of 16-bit `a`, `bFrag` into `acc`.
static void emitMma(OpBuilder &b, Location loc, Type element, ArrayRef<Value> a,
                    ArrayRef<Value> bFrag, MutableArrayRef<Value> acc) {
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes type =
      element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto op = NVVM::MmaOp::create(
      b, loc, resultType, a, bFrag, acc, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t r = 0; r < 4; ++r)
    acc[r] = LLVM::ExtractValueOp::create(b, loc, op, r);
}

SmallVector<Value> FlashLowering::scores(Value stage) {
  if (wgmma) {
    // The first k step writes the accumulators without reading them.
    SmallVector<Value> s(keyTiles * 4);
    // K-major B: 16 of D are 32 bytes along a panel's rows. Q from its
    // region, the warpgroup's 64 rows of each panel (K-major A).
    WgmmaDescriptorPlan query = sharedPlan.query(), keys = sharedPlan.keys();
    Value warpgroup = arith::DivUIOp::create(b, loc, warp, c(4));
    Value groupBytes = arith::IndexCastOp::create(
        b, loc, b.getI32Type(), mul(warpgroup, c(query.groupBytes)));
    if (pingPong) // this warpgroup's turn to issue
      NVVM::BarrierOp::create(b, loc, Type(), ownTurn, i32(kTurnThreads),
                              nullptr, Value());
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (int64_t kStep = 0; kStep < headDim / 16; ++kStep) {
      Value a = descriptor(query, c(0), kStep, groupBytes);
      emitWgmma(s, a, descriptor(keys, stage, kStep), /*transposeB=*/false,
                /*fresh=*/kStep == 0);
    }
    if (!pingPong && !deferred) {
      waitForWgmma(s);
      return s;
    }
    // Overlapped: the previous block's P V is a group of its own after
    // the scores', which are all the wait below waits for.
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    if (deferred)
      issueDeferred();
    // Issued: the other warpgroup's turn (not after the second's last
    // block, which the first does not wait for), then this one's softmax
    // while the other's contractions run.
    if (pingPong) {
      auto ifArrive = scf::IfOp::create(b, loc, arriveAfterIssue,
                                        /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifArrive.getThenRegion().front());
      emitTurnArrive(otherTurn);
    }
    SmallVector<Value> waited =
        emitTiedWgmmaWait(b, loc, s, /*pending=*/deferred ? 1 : 0);
    llvm::copy(waited, s.begin());
    return s;
  }
  SmallVector<Value> s(keyTiles * 4, f32(0));
  for (int64_t kk = 0; kk < headDim; kk += 16) {
    ArrayRef<Value> a = ArrayRef<Value>(queryFragments).slice(kk / 16 * 4, 4);
    for (int64_t j = 0; j < keyTiles; j += 2) {
      SmallVector<Value, 4> r = keyLoader->load(stage, 8 * j, kk);
      emitMma(b, loc, element, a, {r[0], r[1]},
              MutableArrayRef<Value>(s).slice(4 * j, 4));
      emitMma(b, loc, element, a, {r[2], r[3]},
              MutableArrayRef<Value>(s).slice(4 * (j + 1), 4));
    }
  }
  return s;
}

void FlashLowering::planEvaluation() {
  // What the step needs: the leaders' and row sums' terms and the second
  // contraction's factors; not V's reads, nor the products with them.
  Operation *yield = body.getTerminator();
  SmallVector<Value> wanted;
  for (unsigned i : leaders)
    wanted.push_back(yield->getOperand(i));
  for (unsigned i : rowSums)
    wanted.push_back(yield->getOperand(i));
  for (unsigned i : contracted)
    wanted.push_back(roles.factors[i]);
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> work(wanted);
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != &body || def == roles.scores ||
        !needed.insert(def).second)
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  llvm::SmallPtrSet<Value, 8> tainted(body.getArguments().begin() + 1,
                                      body.getArguments().end());
  for (Operation &op : body.without_terminator()) {
    bool readsLeader = llvm::any_of(
        op.getOperands(), [&](Value v) { return tainted.contains(v); });
    if (readsLeader)
      tainted.insert(op.result_begin(), op.result_end());
    if (needed.contains(&op))
      (readsLeader ? late : early).insert(&op);
  }
}

Value FlashLowering::valueAt(Value v, IRMapping &map, const ScorePlace *place) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  if (!isa<VectorType>(v.getType()))
    return kernel.scalars.lookupOrDefault(v);
  // A tile from outside the stream (a splat constant, an index, a
  // broadcast size): its scalar at this element.
  Operation *def = v.getDefiningOp();
  if (auto index = dyn_cast_or_null<tile::IndexOp>(def)) {
    int64_t dim = index.getDim();
    if (place && dim == static_cast<int64_t>(rank) - 2)
      return place->at.row;
    if (place && dim + 3 == static_cast<int64_t>(rank) && place->at.head)
      return place->at.head;
    return kernel.tileOrigin[dim]; // (a repair reads no row: the origin's)
  }
  if (Value known = outsideScalars.lookup(v))
    return known;
  return outsideScalars[v] = kernel.lookup(v)[0];
}

void FlashLowering::evaluate(Operation &op, IRMapping &map,
                             const ScorePlace *place) {
  if (op.getNumResults() == 1 && map.contains(op.getResult(0)))
    return; // (a mask comparison known true)
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    map.map(index.getResult(), valueAt(index.getResult(), map, place));
    return;
  }
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    StreamRead read{&op, load.getBuffer(), load.getMap(), Type()};
    map.map(load.getResult(),
            emitGuardedLoad(
                b, loc, kernel.scalars.lookup(load.getBuffer()),
                indicesOf(read, place->at, Value(), place->key, Value())));
    return;
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    map.map(broadcast.getResult(), valueAt(broadcast.getSource(), map, place));
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    map.map(constant.getResult(),
            arith::ConstantOp::create(
                b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>())));
    return;
  }
  IRMapping scalarOperands;
  for (Value operand : op.getOperands())
    scalarOperands.map(operand, valueAt(operand, map, place));
  Operation *copy = b.clone(op, scalarOperands);
  for (auto [from, to] : llvm::zip(op.getResults(), copy->getResults())) {
    to.setType(getElementTypeOrSelf(from.getType()));
    map.map(from, to);
  }
}

Value FlashLowering::foldQuad(alg::ReductionKind kind, Value v) {
  Value width =
      arith::ConstantIntOp::create(b, loc, kernel.target.kernelLanes, 32);
  for (int64_t offset : {1, 2}) {
    Value mask = arith::ConstantIntOp::create(b, loc, offset, 32);
    Value other =
        gpu::ShuffleOp::create(b, loc, v, mask, width, gpu::ShuffleMode::XOR)
            .getShuffleResult();
    v = combineReduction(b, loc, kind, v, other);
  }
  return v;
}

FlashLowering::BlockScores FlashLowering::placeScores(Value block, Value stage,
                                                      bool masked) {
  BlockScores scored;
  scored.values = scores(stage);
  int64_t elements = keyTiles * 4;
  scored.maps.resize(elements);
  // The thread's two rows: its quad's, and 8 below, of its warp's 16.
  Value firstRow = add(mul(warp, c(16)), quadRow);
  std::array<OutputRow, 2> rowOf = {outputRow(firstRow),
                                    outputRow(add(firstRow, c(8)))};
  Value firstKey = mul(block, c(keyBlock));
  Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int64_t i = 0; i < elements; ++i) {
    unsigned half = (i / 2) % 2;
    Value key =
        add(firstKey, add(c(8 * (i / 4) + i % 2), mul(quadColumn, c(2))));
    Value inside = always;
    if (masked)
      inside = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, key,
                                chunkFirst),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, key,
                                chunkEnd));
    scored.places.push_back({rowOf[half], key, inside, half});
    IRMapping &map = scored.maps[i];
    map.map(body.getArgument(0), key);
    map.map(roles.scores->getResult(0), scored.values[i]);
    if (!masked)
      for (Operation *comparison : maskComparisons)
        map.map(comparison->getResult(0), always);
  }
  return scored;
}

void FlashLowering::evaluateAll(ArrayRef<Operation *> ops,
                                BlockScores &scored) {
  for (Operation *op : ops)
    for (auto [map, place] : llvm::zip(scored.maps, scored.places))
      evaluate(*op, map, &place);
}

void FlashLowering::foldLeaders(BlockScores &scored, ValueRange carried,
                                MutableArrayRef<Value> updated,
                                SmallVector<RowPair> &oldSafe,
                                SmallVector<RowPair> &newSafe) {
  Operation *yield = body.getTerminator();
  Type f32Type = b.getF32Type();
  unsigned next = 0;
  for (auto [l, i] : llvm::enumerate(leaders)) {
    alg::ReductionKind kind = stream.getAccumulatorKind(i);
    Value identity = reductionIdentity(b, loc, kind, f32Type);
    RowPair olds, news;
    for (unsigned half = 0; half < 2; ++half) {
      // The row's terms (keys outside the range give the identity), over
      // the quad, into the running value.
      Value fold = identity;
      for (auto [map, place] : llvm::zip(scored.maps, scored.places))
        if (place.half == half)
          fold = combineReduction(
              b, loc, kind, fold,
              arith::SelectOp::create(
                  b, loc, place.keyInside,
                  valueAt(yield->getOperand(i), map, &place), identity));
      Value old = carried[next];
      Value fresh = combineReduction(b, loc, kind, old, foldQuad(kind, fold));
      updated[next++] = fresh;
      // Read safely: a leader at its identity as 0, the repair from it 1.
      auto isIdentity = [&](Value v) {
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                     identity);
      };
      news[half] =
          arith::SelectOp::create(b, loc, isIdentity(fresh), f32(0), fresh);
      olds[half] =
          arith::SelectOp::create(b, loc, isIdentity(old), news[half], old);
    }
    oldSafe.push_back(olds);
    newSafe.push_back(news);
    for (auto [map, place] : llvm::zip(scored.maps, scored.places))
      map.map(body.getArgument(1 + l), news[place.half]);
  }
}

DenseMap<unsigned, FlashLowering::RowPair>
FlashLowering::repairFactors(ArrayRef<RowPair> oldSafe,
                             ArrayRef<RowPair> newSafe) {
  // Once a row half: one factor per follower, the product over the
  // leaders.
  SmallVector<unsigned> followers(rowSums);
  followers.append(contracted.begin(), contracted.end());
  llvm::sort(followers);
  DenseMap<unsigned, RowPair> factor;
  for (auto [l, repair] : llvm::enumerate(stream.getRepairs())) {
    Block &repairBlock = repair.front();
    for (unsigned half = 0; half < 2; ++half) {
      IRMapping map;
      map.map(repairBlock.getArgument(0), oldSafe[l][half]);
      map.map(repairBlock.getArgument(1), newSafe[l][half]);
      for (Operation &op : repairBlock.without_terminator())
        evaluate(op, map, nullptr);
      for (auto [f, i] : llvm::enumerate(followers)) {
        Value phi = map.lookup(repairBlock.getTerminator()->getOperand(f));
        Value &slot = factor[i][half];
        slot =
            slot ? arith::MulFOp::create(b, loc, slot, phi).getResult() : phi;
      }
    }
  }
  return factor;
}

SmallVector<SmallVector<Value, 4>>
FlashLowering::valueFragments(Value term, BlockScores &scored) {
  // P, rounded to V's type: the C fragments of key tiles 2kk and 2kk + 1
  // are the A fragment of the block's kk-th 16 keys.
  SmallVector<Value> p;
  for (auto [map, place] : llvm::zip(scored.maps, scored.places))
    p.push_back(arith::TruncFOp::create(
        b, loc, element,
        arith::SelectOp::create(b, loc, place.keyInside,
                                valueAt(term, map, &place), f32(0))));
  SmallVector<SmallVector<Value, 4>> fragments;
  for (int64_t kk = 0; kk < keyBlock / 16; ++kk) {
    int64_t t0 = 8 * kk, t1 = 8 * kk + 4;
    fragments.push_back(
        {packPair(p[t0], p[t0 + 1]), packPair(p[t0 + 2], p[t0 + 3]),
         packPair(p[t1], p[t1 + 1]), packPair(p[t1 + 2], p[t1 + 3])});
  }
  return fragments;
}

void FlashLowering::issueValues(ArrayRef<SmallVector<Value, 4>> fragments,
                                Value stage, MutableArrayRef<Value> acc) {
  // M/N-major B (V's rows are keys): 16 keys are 16 rows of 128 bytes, the
  // panels along D a panel's bytes apart.
  for (auto [kStep, a] : llvm::enumerate(fragments))
    emitWgmma(acc, a, descriptor(sharedPlan.values(), stage, kStep),
              /*transposeB=*/true);
}

void FlashLowering::contractWithValues(Value term, BlockScores &scored,
                                       Value stage,
                                       MutableArrayRef<Value> acc) {
  SmallVector<SmallVector<Value, 4>> fragments = valueFragments(term, scored);
  if (wgmma) {
    // Every A register written before the fence (else ptxas fences each
    // wgmma itself).
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    issueValues(fragments, stage, acc);
    waitForWgmma(acc);
    return;
  }
  for (auto [kk, a] : llvm::enumerate(fragments)) {
    for (int64_t j = 0; j < headTiles; j += 2) {
      bool last = j + 1 == headTiles;
      SmallVector<Value, 4> r =
          last ? emitLdmatrixFragment(b, loc, valueStages, lane, stage,
                                      c(8 * j), c(16 * kk), /*isLhs=*/false,
                                      /*oneRhsTile=*/true)
               : valueLoader->load(stage, 8 * j, 16 * kk);
      emitMma(b, loc, element, a, {r[0], r[1]}, acc.slice(4 * j, 4));
      if (!last)
        emitMma(b, loc, element, a, {r[2], r[3]}, acc.slice(4 * (j + 1), 4));
    }
  }
}

SmallVector<Value> FlashLowering::step(Value block, Value stage,
                                       ValueRange carried, bool masked) {
  if (keyLoader) { // (each form of the step makes its own bases)
    keyLoader->reset();
    valueLoader->reset();
  }
  SmallVector<Value> updated(carried.begin(), carried.end());
  if (overlapSoftmax) // (placeScores issues the previous block's P V)
    beginOverlappedStep(updated);
  BlockScores scored = placeScores(block, stage, masked);
  evaluateAll(early.getArrayRef(), scored);
  SmallVector<RowPair> oldSafe, newSafe;
  foldLeaders(scored, carried, updated, oldSafe, newSafe);
  evaluateAll(late.getArrayRef(), scored);
  DenseMap<unsigned, RowPair> factor = repairFactors(oldSafe, newSafe);
  auto repaired = [&](unsigned i, unsigned half, Value acc) -> Value {
    auto it = factor.find(i);
    if (it == factor.end())
      return acc;
    return arith::MulFOp::create(b, loc, acc, it->second[half]);
  };
  Operation *yield = body.getTerminator();
  unsigned next = 2 * leaders.size();
  // Row sums: the thread's partials, repaired, plus its terms.
  for (unsigned i : rowSums)
    for (unsigned half = 0; half < 2; ++half) {
      Value acc = repaired(i, half, updated[next]);
      for (auto [map, place] : llvm::zip(scored.maps, scored.places))
        if (place.half == half)
          acc = arith::AddFOp::create(
              b, loc, acc,
              arith::SelectOp::create(
                  b, loc, place.keyInside,
                  valueAt(yield->getOperand(i), map, &place), f32(0)));
      updated[next++] = acc;
    }
  // The second contraction: O repaired, plus P V for the block (with the
  // softmax overlapped, the previous block's P V, once waited for; this
  // block's is the next step's).
  if (overlapSoftmax)
    endOverlappedStep(scored, stage, updated);
  for (unsigned i : contracted) {
    MutableArrayRef<Value> acc =
        MutableArrayRef<Value>(updated).slice(next, headTiles * 4);
    next += headTiles * 4;
    for (int64_t r = 0; r < headTiles * 4; ++r)
      acc[r] = repaired(i, (r / 2) % 2, acc[r]);
    if (!overlapSoftmax)
      contractWithValues(roles.factors[i], scored, stage, acc);
  }
  return updated;
}

SmallVector<Fragment> FlashLowering::results(ValueRange finals) {
  // Carried: per leader its two row halves, per row sum its two partials,
  // per contracted sum its accumulators.
  SmallVector<Fragment> out(stream.getNumResults());
  unsigned next = 0;
  auto rowFragment = [&](Value top, Value bottom) {
    Fragment f(kernel.perThread);
    for (int64_t e = 0; e < kernel.perThread; ++e)
      f[e] = (e / 2) % 2 ? bottom : top;
    return f;
  };
  for (unsigned i : leaders) {
    out[i] = rowFragment(finals[next], finals[next + 1]);
    next += 2;
  }
  for (unsigned i : rowSums) {
    Value top = foldQuad(alg::ReductionKind::sum, finals[next]);
    Value bottom = foldQuad(alg::ReductionKind::sum, finals[next + 1]);
    out[i] = rowFragment(top, bottom);
    next += 2;
  }
  for (unsigned i : contracted) {
    out[i] =
        Fragment(finals.begin() + next, finals.begin() + next + headTiles * 4);
    next += headTiles * 4;
  }
  return out;
}

FailureOr<SmallVector<Fragment>> FlashLowering::run() {
  setUp();
  if (static_cast<int64_t>(headTiles * 4) != kernel.perThread ||
      rows != 16 * kernel.program.getSchedule().getMma().getWarps()[0] ||
      (!wgmma && rows > keyBlock))
    return stream.emitOpError(
        "has a schedule the flash kernel does not run (it takes tile [..., "
        "16 x warps, D], or [..., h, n, D] with h x n = 16 x warps on "
        "mma_sync, warps [w, 1], D whole and tile_k of at least the rows)");
  // A tile of several heads copies each K and V block once, at its first
  // head's (ApplySchedules refuses a schedule file's tile that cannot).
  std::string headsRefusal = flashHeadsRefusal(
      stream, rank, heads, tile::knownSizeValues(kernel.program));
  if (!headsRefusal.empty())
    return stream.emitOpError("cannot hold ")
           << heads << " heads a tile: " << headsRefusal;
  // Tiles from outside the stream are read element by element at the
  // scores' places: splats, indices and broadcast sizes only.
  WalkResult outside = stream.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (isa<VectorType>(v.getType()) &&
          !stream->isProperAncestor(v.getParentBlock()->getParentOp()) &&
          v.getParentBlock()->getParentOp() != stream.getOperation() &&
          !tile::isUniformTile(v) && !v.getDefiningOp<tile::IndexOp>())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return stream.emitOpError("reads a tile computed outside it, which the "
                              "flash kernel does not hold at its scores");
  protocol = tile::flashPipelineProtocol(kernel.program.getSchedule().getMma());
  if (protocol.stages < 2)
    return stream.emitOpError(
        "a flash kernel takes 2 or more stages (stages = 2 or more)");
  if (producers && (!tma || producers != 1))
    return stream.emitOpError(
        "a flash kernel's producer warpgroup (producers = 1) issues TMA "
        "copies: it needs wgmma on sm_90 with the tensor maps of Q, K and "
        "V (their sizes bound)");
  planEvaluation();
  Type f32Type = b.getF32Type();
  SmallVector<Value> init;
  for (unsigned i : leaders) {
    Value identity =
        reductionIdentity(b, loc, stream.getAccumulatorKind(i), f32Type);
    init.append({identity, identity});
  }
  for (size_t i = 0; i < rowSums.size(); ++i)
    init.append({f32(0), f32(0)});
  for (size_t i = 0; i < contracted.size(); ++i)
    init.append(headTiles * 4, f32(0));
  if (overlapSoftmax)
    appendDeferredInit(init);
  init.push_back(c(0)); // the stage
  auto [firstKey, endKey] = keyRange();
  Value firstBlock = arith::DivUIOp::create(b, loc, firstKey, c(keyBlock));
  endBlock = arith::CeilDivUIOp::create(b, loc, endKey, c(keyBlock));
  // A part of a split sized at launch past the keys streams none: not
  // even the partial block its first key falls in.
  if (stream.getSplitParts())
    firstBlock = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, firstKey,
                              endKey),
        endBlock, firstBlock);
  if (producers)
    return results(warpSpecialized(firstBlock, init));
  loadQuery(firstBlock);
  return results(mainLoop(firstBlock, init));
}

SmallVector<Value> FlashLowering::mainLoop(Value firstBlock, ValueRange init) {
  if (pingPong)
    setUpTurns(firstBlock);
  auto loop = scf::ForOp::create(b, loc, firstBlock, endBlock, c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value block = loop.getInductionVar();
    SmallVector<Value> carried(loop.getRegionIterArgs().begin(),
                               loop.getRegionIterArgs().end());
    Value stage = carried.pop_back_val();
    if (pingPong)
      arriveAfterIssue = arith::OrIOp::create(
          b, loc, arith::XOrIOp::create(b, loc, secondConsumer, one()),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                add(block, c(1)), endBlock));
    // Block j's rows are in; every thread is done with block j - 1's
    // stage, which now takes block j + stages - 1's (the protocol
    // compiler/Verify proves: tile::pipelineProtocol).
    int64_t stages = protocol.stages;
    if (tma) {
      // The stage's phase: its uses so far (block - first) / stages, mod 2.
      Value uses = arith::DivUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, block, firstBlock), c(stages));
      Value parity = arith::IndexCastOp::create(
          b, loc, b.getI32Type(), arith::RemUIOp::create(b, loc, uses, c(2)));
      NVVM::MBarrierTryWaitParityOp::create(b, loc, barrierPointer(stage),
                                            parity, i32(0x989680));
    } else {
      NVVM::CpAsyncWaitGroupOp::create(b, loc, protocol.copyWaitPending);
    }
    if (wgmma && !tma) // the copies were the generic proxy's; wgmma reads async
      NVVM::FenceProxyOp::create(
          b, loc,
          NVVM::ProxyKindAttr::get(b.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(b.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    if (protocol.barrierBeforeIssue && !producers)
      gpu::BarrierOp::create(b, loc);
    // The stage block j - 1 used, and the next step's.
    Value freed =
        stages == 2 ? arith::SubIOp::create(b, loc, c(1), stage).getResult()
                    : arith::RemUIOp::create(b, loc, add(stage, c(stages - 1)),
                                             c(stages))
                          .getResult();
    Value following =
        stages == 2
            ? freed
            : arith::RemUIOp::create(b, loc, add(stage, c(1)), c(stages))
                  .getResult();
    if (!producers) // (the producer warpgroup copies)
      copyBlock(add(block, c(stages - 1)), freed);
    // A block every row sees whole skips the masks (scf.if: both forms).
    // With the softmax overlapped, one form in one sequence: with two,
    // ptxas serialised the wgmma pipeline (C7513: the forms' copies of the
    // carried P and O, where they merge, define a wgmma's inputs inside
    // its stage). The masked one, unless every block is whole (no mask,
    // the keys a bound multiple of the block, not split).
    SmallVector<Value> next;
    if (overlapSoftmax) {
      std::optional<int64_t> keys =
          kernel.program.getKnownExtent(stream.getExtent());
      bool whole = maskComparisons.empty() && !stream.isSplit() && keys &&
                   *keys % keyBlock == 0;
      next = step(block, stage, carried, /*masked=*/!whole);
    } else {
      Value blockFirst = mul(block, c(keyBlock));
      Value interior = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, blockFirst,
                                fullFirst),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                add(blockFirst, c(keyBlock)), fullEnd));
      auto ifInterior = scf::IfOp::create(
          b, loc, ValueRange(carried).getTypes(), interior, /*withElse=*/true);
      for (bool masked : {false, true}) {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(masked
                                       ? &ifInterior.getElseRegion().front()
                                       : &ifInterior.getThenRegion().front());
        scf::YieldOp::create(b, loc, step(block, stage, carried, masked));
      }
      next.assign(ifInterior.getResults().begin(),
                  ifInterior.getResults().end());
    }
    if (producers) {
      // The step's groups are done (step() waits for them): each
      // consumer warpgroup's first thread releases the block's stage
      // (overlapped, the previous block's, whose P V the step ran; none
      // at the first block).
      Value leader = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, computing,
                                 c(kernel.target.warpgroupThreads)),
          c(0));
      assert(protocol.releaseLag == (overlapSoftmax ? 1 : 0) &&
             "the deferred values carry the one stage released late");
      if (protocol.releaseLag)
        leader = arith::AndIOp::create(
            b, loc, leader,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, block,
                                  firstBlock));
      auto ifLeader = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
      OpBuilder::InsertionGuard release(b);
      b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
      NVVM::MBarrierArriveOp::create(
          b, loc, b.getI64Type(),
          emptyPointer(protocol.releaseLag ? carried.back() : stage), Value());
    }
    next.push_back(following);
    scf::YieldOp::create(b, loc, next);
  }
  ValueRange finals = loop.getResults().drop_back(); // (not the stage)
  if (overlapSoftmax)
    return drainDeferred(finals, firstBlock);
  return SmallVector<Value>(finals);
}

void FlashLowering::emitTurnArrive(Value barrier) {
  LLVM::CallIntrinsicOp::create(
      b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.arrive.count"),
      ValueRange{barrier, i32(kTurnThreads)});
}

void FlashLowering::setUpTurns(Value firstBlock) {
  // Named barriers, the first consumer warpgroup's then the second's
  // (consecutive ids); each warpgroup waits at its own and arrives at the
  // other's. The second lets the first take the first turn.
  int64_t first = kernel.barriers.reserve(BarrierGroup::FirstConsumerTurn);
  int64_t second = kernel.barriers.reserve(BarrierGroup::SecondConsumerTurn);
  assert(second == first + 1 && "the turn barriers' ids are consecutive");
  (void)second;
  Value group = arith::DivUIOp::create(b, loc, computing,
                                       c(kernel.target.warpgroupThreads));
  secondConsumer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, group, c(1));
  Value groupI32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), group);
  ownTurn = arith::AddIOp::create(b, loc, i32(first), groupI32);
  otherTurn = arith::SubIOp::create(b, loc, i32(2 * first + 1), ownTurn);
  Value anyBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         firstBlock, endBlock);
  auto ifStart = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, secondConsumer, anyBlock),
      /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifStart.getThenRegion().front());
  emitTurnArrive(otherTurn);
}

SmallVector<Value> FlashLowering::warpSpecialized(Value firstBlock,
                                                  ValueRange init) {
  // FlashAttention-3's producer: warpgroup 0's thread 0 issues every
  // block's TMA copies (Q's with the first), waiting for the consumers to
  // release a stage before reusing it; warpgroups 1 .. run the main loop
  // without block barriers, each releasing a block's stage when its
  // groups are done. The warpgroup index comes from lane 0 (uniform to
  // ptxas).
  initBarriers();
  Value warpgroup = NVVM::ShflOp::create(
      b, loc, b.getI32Type(), i32(-1),
      arith::IndexCastOp::create(
          b, loc, b.getI32Type(),
          arith::DivUIOp::create(b, loc, kernel.threadId,
                                 c(kernel.target.warpgroupThreads))),
      i32(0), i32(kernel.target.kernelLanes - 1),
      NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::idx),
      /*return_value_and_is_valid=*/nullptr);
  Value isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           warpgroup, i32(0));
  // The producer warpgroup ends with its copies: it yields nothing, so it
  // carries no accumulators through a join and can give its registers
  // away (emitSetMaxRegisters). The consumers' branch runs the main loop and
  // then the rest of the program (the builder stays in it).
  auto split = scf::IfOp::create(b, loc, TypeRange(), isProducer,
                                 /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&split.getThenRegion().front());
    emitSetMaxRegisters(b, loc, sharedPlan.registers, /*producer=*/true);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        kernel.threadId, c(0));
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    produceBlocks(firstBlock);
  }
  b.setInsertionPoint(split.getElseRegion().front().getTerminator());
  emitSetMaxRegisters(b, loc, sharedPlan.registers, /*producer=*/false);
  return mainLoop(firstBlock, init);
}

FailureOr<SmallVector<Fragment>>
tiletogpu::lowerStream(KernelContext &kernel, tile::OnlineReduceOp stream) {
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  if (!mma)
    return lowerElementStream(kernel, stream);
  if (mma.getInstr() == "wgmma" &&
      (!kernel.target.hasWgmma() ||
       kernel.program.getSchedule().getTile().back() % 64 != 0))
    return stream.emitOpError("a wgmma flash kernel needs sm_90 and an output "
                              "innermost extent that is a multiple of 64");
  std::string why;
  FailureOr<ContractionStream> roles =
      analyseTileStream(stream, kernel.program.getRank(), why);
  if (failed(roles) || !roles->value)
    return stream.emitOpError("is not a flash kernel: ")
           << (why.empty() ? "it has no second contraction" : why);
  return FlashLowering(kernel, stream, std::move(*roles)).run();
}
