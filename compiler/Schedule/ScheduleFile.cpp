//===- ScheduleFile.cpp - Schedules a user wrote, by program name ---------===//
#include "compiler/Schedule/ScheduleFile.h"
#include "autoscheduler/Tuner.h"
#include "compiler/Schedule/AutoSchedules.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace nautilus;

/// The file's text (given, or read), or std::nullopt with `error` set.
static std::optional<std::string>
contentOf(StringRef path, const std::optional<std::string> &text,
          std::string &error) {
  if (text)
    return *text;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = buffer.getError().message();
    // A word rather than a path: most likely a keyword misspelt.
    if (!path.contains('/') && !path.contains('.'))
      error += " (--schedule takes default, heuristics, auto or a schedule "
               "file)";
    return std::nullopt;
  }
  return (*buffer)->getBuffer().str();
}

/// The rewrite choices a file may state (autoscheduler/Rewrites.h).
static constexpr const char *kRewriteKeys[] = {
    autosched::kFuseReductionsKey, autosched::kRecomputeInStreamsKey,
    autosched::kFuseSharedOperandsKey, autosched::kSweepRowConsumersKey,
    autosched::kRecomputeOperandsKey};

/// The file's top-level object, parsed (std::nullopt: it does not parse).
static std::optional<llvm::json::Object>
topLevelOf(const std::string &path, const std::optional<std::string> &text) {
  std::string error;
  std::optional<std::string> content = contentOf(path, text, error);
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(content.value_or(""));
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *top = json->getAsObject())
    return std::move(*top);
  return std::nullopt;
}

bool ScheduleFile::asksFor(bool autosched::RewriteChoice::*,
                           llvm::StringRef key) const {
  std::optional<llvm::json::Object> top = topLevelOf(path, text);
  return top && top->getBoolean(key) == true;
}

std::optional<autosched::RewriteChoice> ScheduleFile::statedRewrites() const {
  std::optional<llvm::json::Object> top = topLevelOf(path, text);
  std::string why; // (beginReplacing says what is wrong with the file)
  std::optional<autosched::ScheduleAssignment> stated =
      top ? autosched::scheduleAssignmentOf(llvm::json::Value(std::move(*top)),
                                            why)
          : std::nullopt;
  if (!stated)
    return std::nullopt;
  return stated->rewrites;
}

LogicalResult ScheduleFile::beginReplacing(ModuleOp module) {
  // Errors in the file as a whole point at the file.
  auto fail = [&]() -> InFlightDiagnostic {
    return emitError(FileLineColLoc::get(module.getContext(), path, 1, 1),
                     origin() + ": ");
  };
  std::string error;
  std::optional<std::string> content = contentOf(path, text, error);
  if (!content)
    return fail() << error, failure();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(*content);
  if (!json)
    return fail() << "not JSON: " << llvm::toString(json.takeError()),
           failure();
  const llvm::json::Object *top = json->getAsObject();
  const llvm::json::Object *programs =
      top ? top->getObject("programs") : nullptr;
  if (!programs)
    return fail() << "expected an object {\"programs\": {\"NAME\": "
                     "\"#tile.schedule<...>\", ...}}",
           failure();
  for (const auto &entry : *top) {
    if (llvm::is_contained(kRewriteKeys, entry.first)) {
      if (entry.second.getAsBoolean())
        continue;
      return fail() << "'" << entry.first.str()
                    << "' takes true or false (a JSON boolean, unquoted)",
             failure();
    }
    if (entry.first != "programs")
      return fail() << "unknown key '" << entry.first.str()
                    << "' (the file has \"programs\" and, optionally, "
                       "\"fuse_reductions\", \"recompute_in_streams\", "
                       "\"fuse_shared_operands\", \"sweep_row_consumers\" "
                       "and \"recompute_operands\": true or false)",
             failure();
  }
  schedules.clear();
  for (const auto &entry : *programs) {
    StringRef name = entry.first;
    auto program = module.lookupSymbol<tile::ProgramOp>(name);
    // The rows' program of a swept consumer, by its name before the merge.
    if (!program)
      for (auto p : module.getOps<tile::ProgramOp>())
        if (auto rows = p->getAttrOfType<StringAttr>(tile::kSweptRowsAttrName);
            rows && rows.getValue() == name)
          program = p;
    if (program && program.getSymName() != name &&
        programs->get(program.getSymName()))
      return fail() << "'" << name << "' and '" << program.getSymName()
                    << "' name the same program (the rows' program, which "
                       "writes its consumer too): name it once",
             failure();
    if (!program) {
      std::string known;
      for (auto p : module.getOps<tile::ProgramOp>())
        known += (known.empty() ? "" : ", ") + p.getSymName().str();
      return fail() << "the kernel has no program '" << name
                    << "' (its programs: " << known << ")",
             failure();
    }
    std::optional<StringRef> text = entry.second.getAsString();
    if (!text)
      return fail() << "the schedule of '" << name
                    << "' must be a string holding a #tile.schedule",
             failure();
    schedules[program.getSymName()] = text->str();
  }
  return success();
}

FailureOr<tile::ScheduleAttr>
ScheduleFile::replacement(tile::ProgramOp program, const TargetInfo &target) {
  auto it = schedules.find(program.getSymName());
  if (it == schedules.end())
    return tile::ScheduleAttr();
  auto error = [&]() {
    return program.emitError(origin())
           << ", program '" << program.getSymName() << "': ";
  };
  Attribute parsed = parseAttribute(it->second, program.getContext());
  if (!parsed)
    return error() << "the schedule does not parse (see above)", failure();
  auto schedule = dyn_cast<tile::ScheduleAttr>(parsed);
  if (!schedule)
    return error() << "'" << it->second << "' is not a #tile.schedule",
           failure();
  return schedule;
}

llvm::StringRef nautilus::defaultScheduleOn(const TargetInfo &target) {
  return target.isCPU() ? "auto" : "heuristics";
}

bool nautilus::namesScheduleFile(llvm::StringRef schedule) {
  return !schedule.empty() && schedule != "default" &&
         schedule != "heuristics" && schedule != "auto";
}

std::shared_ptr<ScheduleProvider>
nautilus::scheduleProviderFor(llvm::StringRef schedule,
                              const TargetInfo &target, size_t listedCandidates,
                              std::optional<ModelCalibration> calibration,
                              const autosched::SearchOptions &search) {
  if (schedule.empty() || schedule == "default")
    schedule = defaultScheduleOn(target);
  if (schedule == "heuristics")
    return heuristicSchedules();
  if (schedule == "auto")
    return std::make_shared<AutoSchedules>(
        heuristicSchedules(), listedCandidates, std::move(calibration), search);
  return std::make_shared<ScheduleFile>(schedule.str(), heuristicSchedules());
}
