//===- SplitStreams.cpp - a stream split across programs (split-KV) -------===//
//
// A stream (tile.online_reduce) whose program's schedule asks for
// `reduce_split = S` becomes, like a split reduction (SplitReductions.cpp):
//
//  - `<program>_partial`, over [S', the program's output dims], streams
//    chunk s of the streamed index (`tile.online_reduce ... chunks(C along
//    0)`) and stores each accumulator, its running leaders and unscaled
//    sums, to a workspace `<program>.partial<i>` [S', dims...]. The chunk
//    index comes first so that the program's innermost dimension stays
//    innermost (its loads stay contiguous rows: with the chunk innermost,
//    attention's partial programs ran 3x slower on the CPU);
//  - the program itself, where it had the stream, combines the S' partials
//    with a second stream over them, of the same accumulators and repairs:
//    a leader's term is chunk s's leader m_s, a follower's is chunk s's sum
//    f_s repaired from m_s to the running leader r, f_s * phi(m_s, r) (the
//    product over the leaders), and 0 for a chunk whose leader never left
//    its identity (it folded nothing; its sums are 0).
//
// phi(m_s, r) brings a sum folded at leader m_s to leader r: the combine is
// the stream itself, run over chunks instead of points, as flash-decoding's
// combination of (max, sum, O) triples is for attention.
//
// Over a streamed extent not bound at compile time (a decoding step's keys
// in a kernel compiled without them) the split is into S parts whatever
// the extent: `chunks(G along 0 in S)`, each chunk ceil(extent / S)
// rounded up to a multiple of G (a flash kernel's key block, else 64),
// computed at launch (emitStreamChunk); parts past the extent fold nothing
// and are combined as empty chunks are.
//
// A stream led by a mean (Welford) is combined by Chan's rule instead: sums
// over the chunks of their means weighted by their counts, and of their
// followers moved to the combined mean by the repair's addend
// (combineMeans).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/SplitStreams.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/SplitReductions.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "dialects/Tile/Utils/StreamSplits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace nautilus;

std::string nautilus::splitStreamRefusal(tile::ProgramOp program,
                                         int64_t split) {
  std::string refusal = tile::streamSplitShapeRefusal(program);
  if (!refusal.empty())
    return refusal;
  tile::OnlineReduceOp stream = tile::onlyTopLevelStream(program);
  std::optional<int64_t> extent = program.getKnownExtent(stream.getExtent());
  // (Over an unbound extent: `split` parts, whatever the extent.)
  int64_t splits = extent ? reductionChunks(*extent, split).splits : split;
  if (splits == 1)
    return "";
  return partialWorkspaceRefusal(program, splits,
                                 tile::streamPartialElementBytes(stream));
}

namespace {

/// `map` (over the output dims, then the streamed and nested indices) with
/// a new first dimension.
AffineMap withDimFirst(AffineMap map) {
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    dims.push_back(getAffineDimExpr(d + 1, map.getContext()));
  return map.replaceDimsAndSymbols(dims, {}, map.getNumDims() + 1,
                                   map.getNumSymbols());
}

class StreamSplitter {
public:
  StreamSplitter(ModuleOp module, tile::PlanOp plan, tile::ProgramOp program,
                 tile::ScheduleAttr combining)
      : module(module), plan(plan), program(program),
        stream(tile::onlyTopLevelStream(program)), combining(combining) {}

  void run() {
    int64_t split = program.getSchedule().getReduceSplit();
    std::optional<int64_t> extent = program.getKnownExtent(stream.getExtent());
    // Over an unbound extent, `split` parts of whole granules, the chunk
    // computed at launch (emitStreamChunk).
    auto [chunk, splits] = extent ? reductionChunks(*extent, split)
                                  : ReductionChunks{granule(), split};
    if (splits == 1) {
      program.retile(withReduceSplit(program.getSchedule(),
                               program.getSchedule().getTile(), 1));
      return;
    }
    MLIRContext *ctx = module.getContext();
    unsigned rank = program.getRank();
    SmallVector<Attribute> dims{IntegerAttr::get(IntegerType::get(ctx, 64), splits)};
    dims.append(program.getOutputDims().begin(), program.getOutputDims().end());
    auto type = cast<VectorType>(stream.getResult(0).getType());
    for (unsigned i = 0; i < stream.getNumResults(); ++i)
      workspaces.push_back(addKernelBuffer(
          module, plan, (program.getSymName() + ".partial" + Twine(i)).str(),
          "workspace",
          MemRefType::get(SmallVector<int64_t>(rank + 1, ShapedType::kDynamic),
                          type.getElementType()),
          dims, program.getLaunchRangesAttr()));
    buildPartialProgram(chunk, extent ? 0 : splits, dims);
    if (stream.hasMeanLeader())
      combineMeans(splits);
    else
      combinePartials(splits);
    program.retile(combining ? combining
                             : withReduceSplit(program.getSchedule(),
                                               program.getSchedule().getTile(),
                                               1));
  }

private:
  /// A chunk's granule over an unbound extent: a flash kernel's key block
  /// (only a chunk's last block may be partial), else 64 points (whole
  /// 16-byte runs of any element type).
  int64_t granule() {
    tile::MmaAttr mma = program.getSchedule().getMma();
    return mma ? std::max<int64_t>(mma.getTileK(), 1) : 64;
  }

  /// `<program>_partial`: the stream over each chunk (of `chunk` points,
  /// or, `parts` nonzero, that many parts of whole `chunk` granules), its
  /// accumulators stored.
  void buildPartialProgram(int64_t chunk, int64_t parts,
                           ArrayRef<Attribute> dims) {
    Location loc = program.getLoc();
    SmallVector<int64_t> partialTile{1};
    llvm::append_range(partialTile, program.getSchedule().getTile());
    std::string symbol = partialProgramName(program.getSymName());
    OpBuilder b(module.getContext());
    IRMapping mapping;
    tile::ProgramOp partial =
        createSiblingProgram(b, program, symbol, dims, mapping);
    Block *entry = &partial.getBody().front();
    cloneUsedFromOutside(stream, mapping, b);
    auto split = cast<tile::OnlineReduceOp>(b.clone(*stream, mapping));
    partial.walk([&](tile::LoadOp load) {
      load.setMapAttr(AffineMapAttr::get(withDimFirst(load.getMap())));
    });
    partial.walk([&](tile::IndexOp index) {
      index.setDimAttr(b.getI64IntegerAttr(index.getDim() + 1));
    });
    split.setSplitDimAttr(b.getI64IntegerAttr(0));
    split.setSplitChunkAttr(b.getI64IntegerAttr(chunk));
    if (parts)
      split.setSplitPartsAttr(b.getI64IntegerAttr(parts));
    partialStream = split;
    for (auto [result, workspace] : llvm::zip(split.getResults(), workspaces))
      tile::StoreOp::create(b, loc, result, entry->getArgument(workspace));
    tile::ReturnOp::create(b, loc);
    partial.retile(withReduceSplit(program.getSchedule(), partialTile, 1));
    launchBefore(plan, symbol, program.getSymName());
  }

  /// The stream replaced by one over the chunks' partial accumulators.
  void combinePartials(int64_t splits) {
    Location loc = stream.getLoc();
    auto type = cast<VectorType>(stream.getResult(0).getType());
    OpBuilder b(stream);
    Value count = arith::ConstantIndexOp::create(b, loc, splits);
    unsigned leaders = stream.getNumLeaders();
    auto combine = tile::OnlineReduceOp::create(
        b, loc, stream.getResultTypes(), count, stream.getAccumulators(),
        leaders);
    Block *body = b.createBlock(&combine.getBody());
    body->addArgument(b.getIndexType(), loc);
    for (unsigned j = 0; j < leaders; ++j)
      body->addArgument(type, loc);
    SmallVector<Value> partials;
    for (unsigned i = 0; i < workspaces.size(); ++i)
      partials.push_back(loadPartial(b, i));
    // phi(m_s, r) for each follower: the product over the leaders.
    unsigned accumulators = stream.getNumResults();
    SmallVector<Value> factors(accumulators);
    Value empty; // some leader of the chunk is still at its identity
    for (unsigned i = 0, j = 0; i < accumulators; ++i) {
      if (!stream.isLeader(i))
        continue;
      Value identity =
          reductionIdentity(b, loc, stream.getAccumulatorKind(i), type);
      Value unset = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          partials[i], identity);
      empty = empty ? arith::OrIOp::create(b, loc, empty, unset).getResult()
                    : unset;
      Block &repair = stream.getRepairs()[j].front();
      IRMapping phi;
      phi.map(repair.getArgument(0), partials[i]);
      phi.map(repair.getArgument(1), body->getArgument(1 + j));
      for (Operation &op : repair.without_terminator())
        b.clone(op, phi);
      auto yielded = cast<tile::YieldOp>(repair.getTerminator()).getValues();
      for (unsigned k = 0, f = 0; k < accumulators; ++k) {
        if (stream.isLeader(k))
          continue;
        Value factor = phi.lookupOrDefault(yielded[f++]);
        factors[k] = factors[k]
                         ? arith::MulFOp::create(b, loc, factors[k], factor)
                         : factor;
      }
      ++j;
    }
    Value zero = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
    SmallVector<Value> terms;
    for (unsigned i = 0; i < accumulators; ++i) {
      if (stream.isLeader(i)) {
        terms.push_back(partials[i]);
        continue;
      }
      Value repaired = arith::MulFOp::create(b, loc, partials[i], factors[i]);
      terms.push_back(
          empty ? arith::SelectOp::create(b, loc, empty, zero, repaired).getResult()
                : repaired);
    }
    tile::YieldOp::create(b, loc, terms);
    for (auto [from, to] :
         llvm::zip(stream.getRepairs(), combine.getRepairs())) {
      IRMapping same;
      from.cloneInto(&to, same);
    }
    stream.replaceAllUsesWith(combine.getResults());
    stream.erase();
  }

  /// Workspace `i`'s partials of the chunk a stream or reduction over the
  /// chunks is at (the index after the program's output dimensions).
  Value loadPartial(OpBuilder &b, unsigned i) {
    MLIRContext *ctx = module.getContext();
    unsigned rank = program.getRank();
    // (dims..., s) -> (s, dims...).
    SmallVector<AffineExpr> chunkFirst{getAffineDimExpr(rank, ctx)};
    for (unsigned d = 0; d < rank; ++d)
      chunkFirst.push_back(getAffineDimExpr(d, ctx));
    auto map =
        AffineMap::get(rank + 1, program.getSizes().size(), chunkFirst, ctx);
    return tile::LoadOp::create(
        b, stream.getLoc(), stream.getResult(0).getType(),
        program.getBody().front().getArgument(workspaces[i]), ValueRange{},
        AffineMapAttr::get(map), b.getDenseI64ArrayAttr({}));
  }

  /// The points chunk `s` folded, min(C, max(0, extent - s C)), as a
  /// float tile (C the partial stream's chunk: emitStreamChunk).
  Value chunkCount(OpBuilder &b, Value s) {
    Location loc = stream.getLoc();
    auto type = cast<VectorType>(stream.getResult(0).getType());
    Value extent = stream.getExtent();
    Value chunk = emitStreamChunk(b, loc, partialStream, extent);
    Value rest = arith::SubIOp::create(b, loc, extent,
                                       arith::MulIOp::create(b, loc, s, chunk));
    Value count = arith::MinSIOp::create(
        b, loc,
        arith::MaxSIOp::create(b, loc, rest,
                               arith::ConstantIndexOp::create(b, loc, 0)),
        chunk);
    auto indices = VectorType::get(type.getShape(), b.getIndexType());
    auto integers = VectorType::get(type.getShape(), b.getI64Type());
    Value tile = arith::IndexCastOp::create(
        b, loc, integers, vector::BroadcastOp::create(b, loc, indices, count));
    return arith::SIToFPOp::create(b, loc, type, tile);
  }

  /// The stream's extent as a float tile (a constant where bound; at
  /// least 1 where not, so that no points make a mean of 0, as the stream
  /// unsplit makes, not 0 / 0).
  Value totalPoints(OpBuilder &b) {
    Location loc = stream.getLoc();
    auto type = cast<VectorType>(stream.getResult(0).getType());
    if (std::optional<int64_t> extent =
            program.getKnownExtent(stream.getExtent()))
      return arith::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(
              type, b.getFloatAttr(type.getElementType(), double(*extent))));
    auto integers = VectorType::get(type.getShape(), b.getI64Type());
    Value some = arith::MaxSIOp::create(
        b, loc, stream.getExtent(), arith::ConstantIndexOp::create(b, loc, 1));
    Value tile = arith::IndexCastOp::create(
        b, loc, integers,
        vector::BroadcastOp::create(
            b, loc, VectorType::get(type.getShape(), b.getIndexType()), some));
    return arith::SIToFPOp::create(b, loc, type, tile);
  }

  /// A stream led by a mean: its chunks' partials combined by Chan's rule.
  /// Chunk s folded n_s points to a mean m_s and followers f_s (sums about
  /// m_s); the mean is R = sum_s n_s m_s / extent, and a follower
  /// sum_s (f_s + a(m_s, R, n_s)), where a is its repair's addend (the
  /// change of a sum over n points when their mean moves): for a sum of
  /// squared deviations, n_s (R - m_s)^2, Chan et al.'s combination. Sums
  /// over the chunks, not a stream over them: a stream's mean weighs each
  /// chunk as one point.
  void combineMeans(int64_t splits) {
    Location loc = stream.getLoc();
    auto type = cast<VectorType>(stream.getResult(0).getType());
    unsigned mean = 0;
    while (!stream.isLeader(mean))
      ++mean;
    OpBuilder b(stream);
    Value count = arith::ConstantIndexOp::create(b, loc, splits);
    auto sumOverChunks =
        [&](llvm::function_ref<Value(OpBuilder &, Value)> term) -> Value {
      auto sum = tile::ReduceOp::create(b, loc, type, ValueRange{count},
                                        alg::ReductionKind::sum);
      Block *body = b.createBlock(&sum.getBody());
      Value s = body->addArgument(b.getIndexType(), loc);
      tile::YieldOp::create(b, loc, term(b, s));
      b.setInsertionPointAfter(sum);
      return sum.getResult();
    };
    Value weighted = sumOverChunks([&](OpBuilder &in, Value s) -> Value {
      return arith::MulFOp::create(in, loc, chunkCount(in, s),
                                   loadPartial(in, mean));
    });
    Value total = totalPoints(b);
    Value combinedMean = arith::DivFOp::create(b, loc, weighted, total);
    SmallVector<Value> results(stream.getNumResults());
    results[mean] = combinedMean;
    Block &repair = stream.getRepairs()[0].front();
    for (unsigned i = 0, f = 0; i < stream.getNumResults(); ++i) {
      if (stream.isLeader(i))
        continue;
      unsigned follower = f++;
      results[i] = sumOverChunks([&](OpBuilder &in, Value s) -> Value {
        IRMapping moved;
        moved.map(repair.getArgument(0), loadPartial(in, mean));
        moved.map(repair.getArgument(1), combinedMean);
        moved.map(repair.getArgument(2), chunkCount(in, s));
        for (Operation &op : repair.without_terminator())
          in.clone(op, moved);
        Value addend = moved.lookupOrDefault(
            cast<tile::YieldOp>(repair.getTerminator()).getValues()[follower]);
        return arith::AddFOp::create(in, loc, loadPartial(in, i), addend);
      });
    }
    stream.replaceAllUsesWith(results);
    stream.erase();
  }

  ModuleOp module;
  tile::PlanOp plan;
  tile::ProgramOp program;
  tile::OnlineReduceOp stream;
  tile::ScheduleAttr combining;
  SmallVector<unsigned> workspaces;
  tile::OnlineReduceOp partialStream; // the stream of the partial program
};

} // namespace

void nautilus::splitStream(ModuleOp module, tile::PlanOp plan,
                           tile::ProgramOp program,
                           tile::ScheduleAttr combining) {
  StreamSplitter(module, plan, program, combining).run();
}
