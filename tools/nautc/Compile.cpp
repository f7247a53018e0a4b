//===- Compile.cpp - nautc compile ----------------------------------------===//
//
// Loads the kernel, compiles it through the compile driver as far as
// `--emit KIND` needs (compiler/Pipeline/Artifacts.h lists the kinds), and
// writes the artefact.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Artifacts.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "tools/nautc/Commands.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace nautilus;

namespace {

int internalError(const std::string &what) {
  llvm::errs() << "nautc: internal error: " << what
               << " (this is a bug in nautilus; please report it with the "
                  "command line and the .tensor file)\n";
  return kExitInternal;
}

std::optional<Artifact> artifactNamed(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Artifact>>(name)
      .Case("alg", Artifact::Alg)
      .Case("tile", Artifact::Tile)
      .Case("gpu", Artifact::Gpu)
      .Case("llvm", Artifact::Llvm)
      .Case("obj", Artifact::Obj)
      .Case("ptx", Artifact::Ptx)
      .Case("amdgcn", Artifact::Amdgcn)
      .Case("bundle", Artifact::Bundle)
      .Case("header", Artifact::Header)
      .Case("reference-cuda", Artifact::ReferenceCuda)
      .Case("reference-ptx", Artifact::ReferencePtx)
      .Default(std::nullopt);
}

int writeOutput(const std::string &path, const std::string &text,
                bool binary) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec,
                           binary ? llvm::sys::fs::OF_None
                                  : llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "nautc: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return kExitUserError;
  }
  out.os() << text;
  out.keep();
  return kExitSuccess;
}

} // namespace

int nautilus::runCompile(const Options &opts) {
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts.source(), context, sourceMgr, /*bindShape=*/true, loaded))
    return rc;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  RemarkFilter remarks(context, opts.explain);
  std::optional<TargetInfo> target =
      getTarget(opts.target, opts.multiprocessors);
  std::optional<Artifact> kind = artifactNamed(opts.emit);
  if (!kind) {
    llvm::errs() << "nautc: unknown --emit kind '" << opts.emit
                 << "' (expected alg, tile, gpu, llvm, obj, ptx, amdgcn, "
                    "bundle, header, reference-cuda or reference-ptx)\n";
    return kExitUsage;
  }
  if (!artifactAppliesTo(*kind, *target)) {
    llvm::errs() << "nautc: --emit " << opts.emit
                 << " does not apply to --target " << opts.target << "\n";
    return kExitUsage;
  }

  std::shared_ptr<ScheduleProvider> schedules =
      scheduleProviderOf(opts, loaded.structuralHash, *target, opts.shape);
  if (!schedules)
    return kExitUserError;
  Compilation compilation(*loaded.module, *target, schedules);
  compilation.setVerification(!opts.noVerify);
  std::string text;
  if (failed(emitArtifact(compilation, *kind, text))) {
    if (isUsersToFix(compilation.fault())) {
      llvm::errs() << "nautc: error: " << compilation.failureMessage() << "\n";
      return kExitUserError;
    }
    if (compilation.fault() != Fault::Schedules)
      return internalError(compilation.failureMessage());
    // A schedule file's schedules rejected (diagnosed) or not lowered.
    if (compilation.stage() >= Stage::Tile)
      blameScheduleFile(opts);
    return kExitUserError;
  }
  std::string path = opts.output.empty() ? "-" : opts.output;
  if (opts.explain) // on stderr when the artefact goes to stdout
    compilation.scheduleProvider().explain(path == "-" ? llvm::errs()
                                                       : llvm::outs());
  return writeOutput(path, text, isBinaryArtifact(*kind));
}
