//===- TileAttrs.cpp - The tile dialect's attributes ----------------------===//
//
// #tile.target, #tile.schedule, #tile.mma and #tile.linear: their parsers,
// printers and verifiers (the ops are in TileOps.cpp).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Layout/LinearLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr: #tile.target<name = "sm_90", multiprocessors = 4>
LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, int64_t multiprocessors) {
  if (name.empty())
    return emitError() << "a target needs a name";
  if (multiprocessors < 0)
    return emitError() << "multiprocessors must be positive (0: the target's)";
  return success();
}

//===----------------------------------------------------------------------===//
// SizeRangeAttr: #tile.size_range<size = "M", at_least = 128>
LogicalResult
SizeRangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef size, int64_t atLeast,
                      std::optional<int64_t> below) {
  if (size.empty())
    return emitError() << "a size range needs a size";
  if (atLeast < 0)
    return emitError() << "at_least = " << atLeast
                       << ": a size is never negative";
  if (below && *below <= atLeast)
    return emitError() << "the range of '" << size
                       << "' is empty (at_least = " << atLeast
                       << ", below = " << *below << ")";
  if (!below && atLeast == 0)
    return emitError() << "the range of '" << size
                       << "' holds every value: give at_least or below";
  return success();
}

std::string SizeRangeAttr::describe() const {
  std::string size = getSize().str();
  if (!getBelow())
    return size + " >= " + std::to_string(getAtLeast());
  std::string below = size + " < " + std::to_string(*getBelow());
  return getAtLeast() ? std::to_string(getAtLeast()) + " <= " + below : below;
}

std::string SizeRangeAttr::copyName(StringRef program,
                                    ArrayRef<SizeRangeAttr> ranges) {
  std::string name = program.str();
  for (SizeRangeAttr range : ranges) {
    name += "_" + range.getSize().str() + "_";
    if (!range.getBelow())
      name += "from_" + std::to_string(range.getAtLeast());
    else if (!range.getAtLeast())
      name += "below_" + std::to_string(*range.getBelow());
    else
      name += std::to_string(range.getAtLeast()) + "_to_" +
              std::to_string(*range.getBelow());
  }
  return name;
}

//===----------------------------------------------------------------------===//
// ScheduleAttr: #tile.schedule<tile = [1, 16, 64], threads = 128>

/// A tensor-core tile's rows: its leading extents' product.
/// The most elements a schedule's tile may have: beyond what any target
/// holds in registers (a GPU block's 1024 threads x 128 elements each), and
/// far from a product that overflows 64 bits (whose remainder by the
/// threads would pass every divisibility check).
static constexpr int64_t kMaxTileElements = int64_t(1) << 20;

static int64_t mmaRowsOf(ArrayRef<int64_t> tile) {
  int64_t rows = 1;
  for (int64_t t : tile.drop_back())
    rows *= t;
  return rows;
}

int64_t ScheduleAttr::getMmaRows() const { return mmaRowsOf(getTile()); }

std::string ScheduleAttr::tensorCoreRefusal(unsigned rank, bool flash) const {
  if (!getMma())
    return "";
  if (!flash && getMmaRows() != getTile()[rank - 2])
    return "tiles dimension " + std::to_string(rank - 3) + " by " +
           std::to_string(getTile()[rank - 3]) +
           " on tensor cores: only a flash kernel (a stream) folds the "
           "dimension before its rows into them (tile it by 1)";
  if (std::string refusal = getMma().wgmmaTileKRefusal(flash); !refusal.empty())
    return refusal;
  if (!flash && getReduceSplit() != 1)
    return "reduce_split is for programs on the CUDA cores and flash kernels "
           "(streams); a tensor-core schedule splits K with split_k";
  return "";
}

int64_t ScheduleAttr::getNumElements() const {
  int64_t n = 1;
  for (int64_t t : getTile())
    n *= t;
  return n;
}

std::optional<layout::LinearLayout> ScheduleAttr::getDistribution() const {
  ArrayRef<int64_t> tile = getTile();
  if (MmaAttr mma = getMma())
    return layout::withRowsOverLeadingDims(
        layout::mmaAccumulatorLayout(getMmaRows(), tile.back(),
                                     mma.getWarps()[0], mma.getWarps()[1]),
        tile);
  int64_t threads = getTileThreads();
  if (!layout::isPowerOfTwoShape(tile) || !llvm::isPowerOf2_64(threads) ||
      getNumElements() % threads != 0)
    return std::nullopt;
  return layout::rowMajorBlockedLayout(tile, threads, getTileRun());
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> tile;
  int64_t threads = 1;
  MmaAttr mma;
  if (parser.parseLess() || parser.parseKeyword("tile") || parser.parseEqual())
    return {};
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(tile.emplace_back());
      }))
    return {};
  if (parser.parseComma() || parser.parseKeyword("threads") ||
      parser.parseEqual() || parser.parseInteger(threads))
    return {};
  int64_t reduceThreads = 1, reduceSplit = 1, vector = 1, reduceBlock = 0;
  bool reduceInterleaved = false, pack = false;
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    llvm::SMLoc keyAt = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (!seen.insert(key).second) {
      parser.emitError(keyAt, "'") << key << "' is given twice";
      return {};
    }
    int64_t *integer = key == "reduce_threads" ? &reduceThreads
                       : key == "reduce_split" ? &reduceSplit
                       : key == "vector"       ? &vector
                       : key == "reduce_block" ? &reduceBlock
                                               : nullptr;
    if (integer) {
      if (parser.parseInteger(*integer))
        return {};
    } else if (key == "mma") {
      if (parser.parseAttribute(mma))
        return {};
    } else if (key == "pack") {
      StringRef value;
      llvm::SMLoc at = parser.getCurrentLocation();
      if (parser.parseKeyword(&value))
        return {};
      if (value != "true" && value != "false") {
        parser.emitError(at, "pack is true or false, not '") << value << "'";
        return {};
      }
      pack = value == "true";
    } else if (key == "reduce_groups") {
      std::string groups;
      llvm::SMLoc at = parser.getCurrentLocation();
      if (parser.parseString(&groups))
        return {};
      if (groups != "consecutive" && groups != "interleaved") {
        parser.emitError(at, "reduce_groups is \"consecutive\" or "
                             "\"interleaved\", not \"")
            << groups << "\"";
        return {};
      }
      reduceInterleaved = groups == "interleaved";
    } else {
      parser.emitError(parser.getCurrentLocation(),
                       "expected 'mma', 'vector', 'reduce_threads', "
                       "'reduce_split', 'reduce_groups', 'pack' or "
                       "'reduce_block', not '")
          << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ScheduleAttr>(
      parser.getContext(), tile, threads, mma, reduceThreads, reduceSplit,
      reduceInterleaved, vector, pack, reduceBlock);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<tile = [";
  llvm::interleaveComma(getTile(), printer);
  printer << "], threads = " << getThreads();
  if (getMma())
    printer << ", mma = " << getMma();
  if (getReduceThreads() != 1)
    printer << ", reduce_threads = " << getReduceThreads();
  if (getReduceSplit() != 1)
    printer << ", reduce_split = " << getReduceSplit();
  if (getReduceInterleaved())
    printer << ", reduce_groups = \"interleaved\"";
  if (getVector() != 1)
    printer << ", vector = " << getVector();
  if (getPack())
    printer << ", pack = true";
  if (getReduceBlock())
    printer << ", reduce_block = " << getReduceBlock();
  printer << ">";
}

Attribute MmaAttr::parse(AsmParser &parser, Type) {
  std::string instr;
  int64_t tileK = 0, stages = 0, groupM = 1, producers = 0, persistent = 0,
          swizzle = 128, splitK = 1, pingPong = 0, overlapSoftmax = 0;
  SmallVector<int64_t> warps;
  bool seenInstr = false, seenTileK = false, seenWarps = false,
       seenStages = false;
  llvm::StringSet<> given;
  auto field = [&]() -> ParseResult {
    StringRef key;
    SMLoc keyAt = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!given.insert(key).second)
      return parser.emitError(keyAt, "'") << key << "' is given twice";
    if (key == "instr") {
      seenInstr = true;
      return parser.parseString(&instr);
    }
    if (key == "warps") {
      seenWarps = true;
      return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(warps.emplace_back());
      });
    }
    int64_t *slot = key == "tile_k"            ? (seenTileK = true, &tileK)
                    : key == "stages"          ? (seenStages = true, &stages)
                    : key == "group_m"         ? &groupM
                    : key == "producers"       ? &producers
                    : key == "persistent"      ? &persistent
                    : key == "swizzle"         ? &swizzle
                    : key == "split_k"         ? &splitK
                    : key == "ping_pong"       ? &pingPong
                    : key == "overlap_softmax" ? &overlapSoftmax
                                               : nullptr;
    if (!slot)
      return parser.emitError(parser.getCurrentLocation(),
                              "unknown #tile.mma field '")
             << key << "'";
    return parser.parseInteger(*slot);
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::None, field) ||
      parser.parseGreater())
    return {};
  if (!seenInstr || !seenTileK || !seenWarps || !seenStages) {
    parser.emitError(parser.getNameLoc(),
                     "#tile.mma needs instr, tile_k, warps and stages");
    return {};
  }
  return parser.getChecked<MmaAttr>(parser.getContext(), instr, tileK, warps,
                                    stages, groupM, producers, persistent,
                                    swizzle, splitK, pingPong, overlapSoftmax);
}

void MmaAttr::print(AsmPrinter &printer) const {
  printer << "<instr = \"" << getInstr() << "\", tile_k = " << getTileK()
          << ", warps = [";
  llvm::interleaveComma(getWarps(), printer);
  printer << "], stages = " << getStages();
  if (getGroupM() != 1)
    printer << ", group_m = " << getGroupM();
  if (getProducers() != 0)
    printer << ", producers = " << getProducers();
  if (getPersistent() != 0)
    printer << ", persistent = " << getPersistent();
  if (getSwizzle() != 128)
    printer << ", swizzle = " << getSwizzle();
  if (getSplitK() != 1)
    printer << ", split_k = " << getSplitK();
  if (getPingPong() != 0)
    printer << ", ping_pong = " << getPingPong();
  if (getOverlapSoftmax() != 0)
    printer << ", overlap_softmax = " << getOverlapSoftmax();
  printer << ">";
}

LogicalResult MmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringRef instr, int64_t tileK,
                              ArrayRef<int64_t> warps, int64_t stages,
                              int64_t groupM, int64_t producers,
                              int64_t persistent, int64_t swizzle,
                              int64_t splitK, int64_t pingPong,
                              int64_t overlapSoftmax) {
  if (splitK < 1)
    return emitError() << "split_k must be at least 1";
  if (pingPong != 0 && (pingPong != 1 || instr != "wgmma" || producers != 1 ||
                        warps.size() != 2 || warps[0] != 8 || warps[1] != 1))
    return emitError() << "ping_pong: 0, or 1 with wgmma, a producer "
                          "warpgroup and two consumer warpgroups (warps = "
                          "[8, 1])";
  if (overlapSoftmax != 0 &&
      (overlapSoftmax != 1 || instr != "wgmma" || producers != 1))
    return emitError() << "overlap_softmax: 0, or 1 with wgmma and a "
                          "producer warpgroup (producers = 1)";
  // K and V share a stage, released a step later than without the
  // overlap: with two stages the producer could not copy ahead at all.
  if (overlapSoftmax != 0 && stages < 3)
    return emitError() << "overlap_softmax needs 3 or more stages: a "
                          "block's stage is released a step later (after "
                          "its P V), so with "
                       << stages << " the producer cannot copy a block ahead";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle is 0, 32, 64 or 128 bytes, not " << swizzle;
  if (persistent != 0 && (persistent != 1 || producers != 1))
    return emitError() << "persistent: 0, or 1 with a producer warpgroup";
  if (groupM < 1)
    return emitError() << "group_m must be at least 1";
  if (producers != 0 && (producers != 1 || instr != "wgmma"))
    return emitError() << "producers: 0, or 1 producer warpgroup with wgmma";
  if (instr != "mma_sync" && instr != "wgmma")
    return emitError() << "unknown tensor-core instruction '" << instr
                       << "' (mma_sync or wgmma)";
  if (warps.size() != 2 || warps[0] <= 0 || warps[1] <= 0)
    return emitError() << "warps must be [warps along M, warps along N]";
  if (tileK <= 0 || tileK % 16 != 0)
    return emitError() << "tile_k must be a positive multiple of 16 (the "
                          "instruction's K)";
  if (instr == "wgmma") {
    if (warps[1] != 1 || warps[0] % 4 != 0)
      return emitError() << "wgmma runs whole warpgroups along M: warps must "
                            "be [4 x warpgroups, 1]";
    if (swizzle == 0)
      return emitError() << "wgmma's operands come by TMA into swizzled "
                            "stages: swizzle is 32, 64 or 128";
  }
  if (stages < 2)
    return emitError() << "a pipeline needs at least 2 stages";
  return success();
}

std::string MmaAttr::wgmmaTileKRefusal(bool flash) const {
  if (getInstr() != "wgmma")
    return "";
  if (flash)
    return getTileK() == 64 || getTileK() == 128
               ? ""
               : "a flash kernel on wgmma takes blocks of 64 or 128 keys "
                 "(tile_k), not " +
                     std::to_string(getTileK());
  if (getTileK() * 2 != getSwizzle())
    return "wgmma stages K-major rows of one swizzle span: tile_k = swizzle "
           "/ 2 = " +
           std::to_string(getSwizzle() / 2) + " (16-bit elements), not " +
           std::to_string(getTileK());
  return "";
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<int64_t> tile, int64_t threads,
                                   MmaAttr mma, int64_t reduceThreads,
                                   int64_t reduceSplit, bool reduceInterleaved,
                                   int64_t vector, bool pack,
                                   int64_t reduceBlock) {
  if (pack && (mma || threads != 1))
    return emitError() << "pack is for programs on the CPU (one thread, no "
                          "mma)";
  if (reduceBlock < 0)
    return emitError() << "reduce_block must be positive, not " << reduceBlock;
  if (reduceBlock && !pack)
    return emitError() << "reduce_block blocks a packed contraction's "
                          "reduction: it needs pack = true";
  if (mma) {
    if (tile.size() < 2)
      return emitError() << "a tensor-core schedule tiles at least 2 dimensions";
    // The rows are the leading dimensions flattened: all 1 but the last,
    // or (a flash kernel holding several heads of a group) the last two,
    // the heads by a power of two, on mma.sync.
    for (auto [d, t] : llvm::enumerate(tile.drop_back(2)))
      if (t != 1 && (d + 3 != tile.size() || mma.getInstr() != "mma_sync" ||
                     !llvm::isPowerOf2_64(t)))
        return emitError() << "a tensor-core schedule tiles batch dimensions "
                              "by 1 (on mma_sync, the dimension before the "
                              "rows may take a power of two: a flash "
                              "kernel's heads)";
    if (threads != mma.getNumThreads())
      return emitError() << "a tensor-core schedule with "
                         << mma.getNumWarps() << " warps"
                         << (mma.getProducers() ? " and a producer warpgroup"
                                                : "")
                         << " has " << mma.getNumThreads() << " threads, not "
                         << threads;
    int64_t m = mmaRowsOf(tile), n = tile.back();
    ArrayRef<int64_t> warps = mma.getWarps();
    if (mma.getInstr() == "wgmma" &&
        (m != 16 * warps[0] || n % 64 != 0 || n > 256))
      return emitError() << "a wgmma tile is 64 rows a warpgroup (" << 16 * warps[0]
                         << ") by a multiple of 64 up to 256 columns, not "
                         << m << " x " << n;
    if (!layout::isPowerOfTwoShape({m, n}) || m % (16 * warps[0]) != 0 ||
        n % (8 * warps[1]) != 0)
      return emitError() << "the " << m << " x " << n
                         << " tile does not split into 16 x 8 instruction "
                            "tiles over "
                         << warps[0] << " x " << warps[1]
                         << " warps (powers of two, M a multiple of 16 x "
                            "warps M, N of 8 x warps N)";
    // The accumulator layout must place every element of the tile exactly
    // once.
    if (!layout::mmaAccumulatorLayout(m, n, warps[0], warps[1]).isBijective())
      return emitError() << "the accumulator layout is not a bijection onto "
                            "the tile";
  }
  int64_t n = 1;
  for (int64_t t : tile) {
    if (t <= 0)
      return emitError() << "tile extents must be positive";
    if (__builtin_mul_overflow(n, t, &n) || n > kMaxTileElements)
      return emitError() << "a tile of more than " << kMaxTileElements
                         << " elements (the tile's extents multiply to that "
                            "or overflow): a program computes its tile in "
                            "registers";
  }
  if (threads <= 0)
    return emitError() << "threads must be positive";
  if (reduceThreads != 1) {
    if (mma)
      return emitError() << "reduce_threads is for programs on the CUDA "
                            "cores; a tensor-core schedule (mma) has none";
    if (reduceThreads < 1 || !llvm::isPowerOf2_64(reduceThreads) ||
        threads % reduceThreads != 0)
      return emitError() << "reduce_threads must be a power of two that "
                            "divides threads ("
                         << threads << "), not " << reduceThreads;
  }
  if (reduceInterleaved && reduceThreads == 1)
    return emitError() << "reduce_groups = \"interleaved\" needs groups of "
                          "threads (reduce_threads > 1)";
  if (reduceSplit != 1) {
    // (On a tensor-core schedule, only a flash kernel's: ProgramOp checks.)
    if (reduceSplit < 1)
      return emitError() << "reduce_split must be at least 1, not "
                         << reduceSplit;
  }
  int64_t holders = mma ? 32 * mma.getNumWarps() : threads / reduceThreads;
  if (n % holders != 0)
    return emitError() << "a tile of " << n << " elements does not divide "
                       << "among " << holders
                       << (reduceThreads != 1 ? " groups of threads"
                                              : " threads");
  if (vector != 1 && reduceThreads != 1) {
    // Runs of a shared reduction's iterations.
    if (vector < 1 || !llvm::isPowerOf2_64(vector) || reduceInterleaved ||
        n / holders != 1)
      return emitError() << "vector runs of a shared reduction's iterations "
                            "(with reduce_threads) need consecutive groups "
                            "holding one element each, and a power of two, "
                            "not "
                         << vector;
  } else if (vector != 1) {
    if (mma)
      return emitError() << "vector runs are for programs on the CUDA cores; "
                            "a tensor-core schedule (mma) has its own layout";
    if (vector < 1 || !llvm::isPowerOf2_64(vector) ||
        tile.empty() || tile.back() % vector != 0 ||
        (n / holders) % vector != 0)
      return emitError() << "vector must be a power of two dividing the "
                            "tile's innermost extent ("
                         << (tile.empty() ? 1 : tile.back())
                         << ") and the elements a thread holds ("
                         << n / holders << "), not " << vector;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr: #tile.linear<[16, 8], register = [[0, 1]], lane = ..., warp = ...>
//===----------------------------------------------------------------------===//

static const char *const kLayoutInputs[] = {"register", "lane", "warp"};

/// The layout of bases flattened a dimension-count of coordinates each.
static layout::LinearLayout buildLayout(ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> registers,
                                        ArrayRef<int64_t> lanes,
                                        ArrayRef<int64_t> warps) {
  std::vector<layout::LinearLayout::InDim> ins;
  ArrayRef<int64_t> lists[] = {registers, lanes, warps};
  for (auto [k, flat] : llvm::enumerate(lists)) {
    layout::LinearLayout::InDim dim{kLayoutInputs[k], {}};
    for (size_t i = 0; i + shape.size() <= flat.size(); i += shape.size())
      dim.bases.push_back(std::vector<int32_t>(flat.begin() + i,
                                               flat.begin() + i + shape.size()));
    ins.push_back(std::move(dim));
  }
  std::vector<layout::LinearLayout::OutDim> outs;
  for (auto [d, size] : llvm::enumerate(shape))
    outs.push_back({"dim" + std::to_string(d), int32_t(size)});
  return layout::LinearLayout(std::move(ins), std::move(outs));
}

layout::LinearLayout LinearLayoutAttr::getLayout() const {
  return buildLayout(getShape(), getRegisterBases(), getLaneBases(),
                     getWarpBases());
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *context,
                                       const layout::LinearLayout &l,
                                       ArrayRef<int64_t> shape) {
  SmallVector<int64_t> flat[3];
  for (const auto &in : l.getInDims())
    for (int k = 0; k < 3; ++k)
      if (in.name == kLayoutInputs[k])
        for (const auto &basis : in.bases)
          flat[k].append(basis.begin(), basis.end());
  return Base::get(context, shape, flat[0], flat[1], flat[2]);
}

int64_t LinearLayoutAttr::getNumRegisters() const {
  return int64_t(1) << (getRegisterBases().size() / getShape().size());
}

int64_t LinearLayoutAttr::getNumThreads() const {
  size_t rank = getShape().size();
  return int64_t(1) << ((getLaneBases().size() + getWarpBases().size()) / rank);
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> flat[3];
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(shape.emplace_back());
      }))
    return {};
  for (int k = 0; k < 3; ++k) {
    if (parser.parseComma() || parser.parseKeyword(kLayoutInputs[k]) ||
        parser.parseEqual())
      return {};
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
          size_t before = flat[k].size();
          if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
                return parser.parseInteger(flat[k].emplace_back());
              }))
            return failure();
          if (flat[k].size() - before != shape.size())
            return parser.emitError(parser.getCurrentLocation(),
                                    "a basis has one coordinate per dimension");
          return ParseResult(success());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), shape,
                                             flat[0], flat[1], flat[2]);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  ArrayRef<int64_t> shape = getShape();
  printer << "<[";
  llvm::interleaveComma(shape, printer);
  printer << "]";
  ArrayRef<int64_t> lists[] = {getRegisterBases(), getLaneBases(),
                               getWarpBases()};
  for (auto [k, flat] : llvm::enumerate(lists)) {
    printer << ", " << kLayoutInputs[k] << " = [";
    for (size_t i = 0; i < flat.size(); i += shape.size()) {
      printer << (i ? ", [" : "[");
      llvm::interleaveComma(flat.slice(i, shape.size()), printer);
      printer << "]";
    }
    printer << "]";
  }
  printer << ">";
}

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, ArrayRef<int64_t> registers,
                         ArrayRef<int64_t> lanes, ArrayRef<int64_t> warps) {
  if (shape.empty() || !layout::isPowerOfTwoShape(shape))
    return emitError() << "a linear layout's tile extents are powers of two";
  for (ArrayRef<int64_t> flat : {registers, lanes, warps}) {
    if (flat.size() % shape.size() != 0)
      return emitError() << "a basis has one coordinate per dimension";
    for (size_t i = 0; i < flat.size(); ++i)
      if (flat[i] < 0 || flat[i] >= shape[i % shape.size()])
        return emitError() << "basis coordinate " << flat[i]
                           << " lies outside the tile";
  }
  if (!buildLayout(shape, registers, lanes, warps).isBijective())
    return emitError() << "the layout does not place every element of the "
                          "tile exactly once";
  return success();
}
