//===- TargetSupport.cpp - What a target cannot compute -------------------===//
#include "compiler/Pipeline/TargetSupport.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// Whether a GPU computes math op `op` of f64 values: those with an
/// instruction (LibcallsToIntrinsics.cpp), or expanded into them.
bool gpuComputesInF64(Operation *op) {
  return isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FloorOp,
             math::CeilOp, math::FmaOp, math::CopySignOp>(op);
}

/// The source's name of a math op ("exp" for math.exp).
StringRef functionName(Operation *op) { return op->getName().stripDialect(); }

} // namespace

std::string nautilus::unsupportedOperations(ModuleOp module,
                                            const TargetInfo &target) {
  if (!target.isGPU())
    return "";
  size_t count = 0;
  std::string first;
  module.walk([&](Operation *op) {
    if (!isa<math::MathDialect>(op->getDialect()) || gpuComputesInF64(op) ||
        op->getNumResults() != 1 ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isF64())
      return;
    ++count;
    if (first.empty())
      first = functionName(op).str();
    op->emitError() << "'" << functionName(op) << "' of f64 values has no "
                    << "code on " << target.name
                    << " (nautilus links no device math library; sigmoid, "
                       "silu, gelu and pow are made of exp, log and erfc): "
                       "compute it in f32 (f32(...) of its argument), or "
                       "compile for cpu";
  });
  if (!count)
    return "";
  return "the kernel computes f64 '" + first + "'" +
         (count > 1 ? " (and " + std::to_string(count - 1) + " more)" : "") +
         ", which " + target.name + " has no code for (see above)";
}
