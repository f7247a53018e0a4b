//===- ApplySchedules.cpp - schedules from a file -------------------------===//
//
// Gives programs the schedules a JSON schedule file names (see
// TileApplySchedules in Passes.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/Passes.h"
#include "compiler/Conversion/SplitContractions.h"
#include "compiler/Conversion/SplitReductions.h"
#include "compiler/Conversion/WgmmaPlan.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEAPPLYSCHEDULES
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// The most elements of a tile one GPU thread may hold (the widest default,
/// wgmma's 128 x 256 accumulators over two warpgroups, holds 128).
constexpr int64_t kMaxElementsPerThread = 128;
/// The threads of a block on every GPU target (NVIDIA and AMD).
constexpr int64_t kMaxBlockThreads = 1024;

struct TileApplySchedulesPass
    : public nautilus::impl::TileApplySchedulesBase<TileApplySchedulesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (path.empty())
      return;
    ModuleOp module = getOperation();
    // Errors in the file as a whole point at the file.
    auto fail = [&]() -> InFlightDiagnostic {
      signalPassFailure();
      return emitError(FileLineColLoc::get(&getContext(), path, 1, 1),
                       "schedule file '")
             << path << "': ";
    };
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      fail() << buffer.getError().message();
      return;
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      fail() << "not JSON: " << llvm::toString(json.takeError());
      return;
    }
    const llvm::json::Object *top = json->getAsObject();
    const llvm::json::Object *programs =
        top ? top->getObject("programs") : nullptr;
    if (!programs) {
      fail() << "expected an object {\"programs\": {\"NAME\": "
                "\"#tile.schedule<...>\", ...}}";
      return;
    }
    for (const auto &entry : *top)
      if (entry.first != "programs") {
        fail() << "unknown key '" << entry.first.str()
               << "' (the file has one key, \"programs\")";
        return;
      }
    for (const auto &entry : *programs) {
      StringRef name = entry.first;
      auto program = module.lookupSymbol<tile::ProgramOp>(name);
      if (!program) {
        std::string known;
        for (auto p : module.getOps<tile::ProgramOp>())
          known += (known.empty() ? "" : ", ") + p.getSymName().str();
        fail() << "the kernel has no program '" << name
               << "' (its programs: " << known << ")";
        return;
      }
      std::optional<StringRef> text = entry.second.getAsString();
      if (!text) {
        fail() << "the schedule of '" << name
               << "' must be a string holding a #tile.schedule";
        return;
      }
      if (failed(apply(program, *text)))
        return signalPassFailure();
    }
  }

  /// Checks the schedule `text` against `program` and gives it to it.
  LogicalResult apply(tile::ProgramOp program, StringRef text) {
    auto error = [&]() {
      return program.emitError("schedule file '")
             << path << "', program '" << program.getSymName() << "': ";
    };
    Attribute parsed = parseAttribute(text, program.getContext());
    if (!parsed)
      return error() << "the schedule does not parse (see above)";
    auto schedule = dyn_cast<tile::ScheduleAttr>(parsed);
    if (!schedule)
      return error() << "'" << text << "' is not a #tile.schedule";
    if (schedule.getTile().size() != program.getRank())
      return error() << "the schedule tiles " << schedule.getTile().size()
                     << " dimensions; the program's output has "
                     << program.getRank();
    tile::ContractOp contract = findContract(program);
    tile::MmaAttr mma = schedule.getMma();
    if (contract && !mma)
      return error() << "the program's contraction needs a tensor-core "
                        "schedule (mma = #tile.mma<...>)";
    if (!contract && mma)
      return error() << "a tensor-core schedule (mma) needs a contraction, "
                        "and the program has none";
    if (mma && mma.getInstr() == "wgmma") {
      if (target != "sm_90")
        return error() << "wgmma runs on sm_90, not " << target;
      if ((contract.isComputed(0) || contract.isComputed(1)) &&
          !mma.getProducers())
        return error() << "a computed operand under wgmma is evaluated by "
                          "the producer warpgroup: producers = 1";
    }
    if (schedule.getReduceThreads() > 1) {
      bool routes = false;
      program.walk([&](tile::RouteOp) { routes = true; });
      if (routes)
        return error() << "reduce_threads: the program routes rows (a "
                          "mixture of experts' bucketing), which groups of "
                          "threads do not share";
    }
    if (schedule.getReduceSplit() > 1) {
      std::string refusal =
          splitReductionRefusal(program, schedule.getReduceSplit());
      if (!refusal.empty())
        return error() << "reduce_split = " << schedule.getReduceSplit()
                       << ": " << refusal;
    }
    if (mma && mma.getSplitK() > 1) {
      std::string refusal = splitKRefusal(program, contract, mma);
      if (!refusal.empty())
        return error() << "split_k = " << mma.getSplitK() << ": " << refusal;
    }
    // Each thread holds its share of every tile in registers, element by
    // element (tensor cores: the consumer warps' accumulators); past a
    // share of 128 a thread runs out of its 255 registers, and compiling
    // the unrolled code takes minutes.
    if (target != "cpu") {
      if (schedule.getThreads() > kMaxBlockThreads)
        return error() << "threads = " << schedule.getThreads()
                       << ": a GPU block holds at most " << kMaxBlockThreads
                       << " threads";
      int64_t elements = 1;
      for (int64_t extent : schedule.getTile())
        elements *= extent;
      int64_t holders = schedule.getTileThreads();
      if (elements / holders > kMaxElementsPerThread)
        return error() << "the schedule gives each thread "
                       << elements / holders << " elements of a tile ("
                       << elements << " over " << holders
                       << " threads); at most " << kMaxElementsPerThread
                       << " fit in a thread's registers: use more threads or "
                          "a smaller tile";
    }
    // Skipping tiles only saves work (tile.skip_if_negative): a tile that
    // cannot be skipped whole under the new schedule runs.
    if (auto skip = tile::SkipIfNegativeOp::find(program))
      if (!skip.isUniformOver(schedule.getTile()))
        skip.erase();
    program.retile(schedule);
    return success();
  }
};

} // namespace
