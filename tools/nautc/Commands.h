//===- Commands.h - nautc's subcommands ------------------------*- C++ -*-===//
#ifndef NAUTILUS_TOOLS_NAUTC_COMMANDS_H
#define NAUTILUS_TOOLS_NAUTC_COMMANDS_H

#include "compiler/Target/Target.h"
#include "tools/nautc/Options.h"

#include "mlir/IR/Diagnostics.h"

namespace nautilus {
/// Drops the compiler's remarks (the alg rewrites' and alg-fuse-reductions'
/// decisions and refusals) unless `show` (--explain). Install after the handler that
/// prints: the handler installed last sees a diagnostic first.
class RemarkFilter : public mlir::ScopedDiagnosticHandler {
public:
  RemarkFilter(mlir::MLIRContext &context, bool show)
      : ScopedDiagnosticHandler(&context, [show](mlir::Diagnostic &d) {
          return mlir::success(!show && d.getSeverity() ==
                                            mlir::DiagnosticSeverity::Remark);
        }) {}
};

/// The target `--target` names, or the first NVIDIA target's where it
/// names the CPU and `--device` runs NVIDIA kernels (emu, cuda): what `nautc
/// run` and `nautc tune` compile for.
TargetInfo targetForDevice(const Options &opts);

int runCompile(const Options &opts);
int runRun(const Options &opts);
int runVerify(const Options &opts);
int runTune(const Options &opts);
} // namespace nautilus

#endif
