//===- ScheduleFile.h - Schedules a user wrote, by program name -*- C++ -*-===//
//
// `--schedule PATH.json`: {"programs": {"NAME": "#tile.schedule<...>"}},
// and optionally the rewrite choices (autoscheduler/Rewrites.h) that are
// not the default: "fuse_reductions": false, "recompute_in_streams": false,
// "fuse_shared_operands": false.
// The named programs' schedules are replaced by the file's (checked by
// tile-apply-schedules); every other question goes to the provider the file
// wraps (the heuristics). Errors in the file as a whole point at the file,
// errors about one program at the program.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_SCHEDULEFILE_H
#define NAUTILUS_SCHEDULE_SCHEDULEFILE_H

#include "compiler/Schedule/ScheduleProvider.h"

#include "llvm/ADT/StringMap.h"

#include <optional>

namespace nautilus {

class ScheduleFile final : public RewriteStatingProvider {
public:
  /// The file at `path`, read when replacing begins; or, given `text`, that
  /// text as the file's (what a caller read already, so that what it saw
  /// and what is used cannot differ). Diagnostics name it "schedule file
  /// 'PATH'", or `describedAs` when given (a tuning record's text).
  ScheduleFile(std::string path, std::shared_ptr<ScheduleProvider> next,
               std::optional<std::string> text = std::nullopt,
               std::string describedAs = "")
      : RewriteStatingProvider(std::move(next)), path(std::move(path)),
        text(std::move(text)), describedAs(std::move(describedAs)) {}

  /// The rewrites the file states: `"fuse_reductions": false` keeps the
  /// chains of reductions separate programs, `"recompute_in_streams":
  /// false` keeps what streams read point by point a program of its own,
  /// `"fuse_shared_operands": false` keeps contractions that share an
  /// operand separate programs.
  /// Read ahead of beginReplacing (which reports a malformed file): a file
  /// that does not parse states none.
  std::optional<autosched::RewriteChoice> statedRewrites() const override;
  /// `"fuse_shared_operands": true`: fused wherever the target's lowering
  /// runs them (as the heuristics do); `"sweep_row_consumers": true`: swept
  /// wherever the rows can be shared (the auto-scheduler's structure choice
  /// states every rewrite).
  bool asksFor(bool autosched::RewriteChoice::*rewrite,
               llvm::StringRef key) const override;
  /// Reads and checks the file, and that `module` has every program it
  /// names.
  mlir::LogicalResult beginReplacing(mlir::ModuleOp module) override;
  /// The file's schedule of `program` (parsed), if it names it.
  mlir::FailureOr<tile::ScheduleAttr>
  replacement(tile::ProgramOp program, const TargetInfo &target) override;
  /// None: a file's schedule serves every size, and a program it does not
  /// name keeps its own.
  mlir::FailureOr<std::vector<ScheduleVariant>>
  launchVariants(tile::ProgramOp program, const TargetInfo &target) override {
    return std::vector<ScheduleVariant>();
  }
  std::string origin() const override {
    return describedAs.empty() ? "schedule file '" + path + "'" : describedAs;
  }
  bool isUsers() const override { return true; }
  void explain(llvm::raw_ostream &os) const override {
    os << "explain: the programs " << origin()
       << " names take its schedules\n";
    next->explain(os);
  }

private:
  std::string refusalOf(llvm::StringRef key) const override {
    return origin() + " says \"" + key.str() + "\": false";
  }

  std::string path;
  std::optional<std::string> text; // the file's content, when given
  std::string describedAs;
  /// The schedules' text by program name.
  llvm::StringMap<std::string> schedules;
};

} // namespace nautilus

#endif
