//===- Check.cpp - Outputs checked against the reference ------------------===//
#include "compiler/Pipeline/Check.h"
#include "compiler/Interpreter/AlgInterpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;

double nautilus::checkTolerance(alg::KernelOp kernel, const SizeValues &sizes,
                                rt::DType outputType,
                                std::optional<rt::DType> rounded) {
  double elementRoundoff = rounded ? rt::unitRoundoff(*rounded) : 0;
  double accumulation = 0;
  kernel.walk([&](alg::DefineOp def) {
    auto type = cast<RankedTensorType>(def.getType()).getElementType();
    bool isOutput =
        llvm::is_contained(kernel.getReturn().getOutputs(), def.getResult());
    if (!isOutput)
      if (auto dt = dtypeOf(type))
        elementRoundoff = std::max(elementRoundoff, rt::unitRoundoff(*dt));
    // Values a definition computes in a narrow type (tanh of an f16 input,
    // bf16(x) + R) round there too: all but the value an output stores,
    // whose rounding is the output's, and exact reads and widenings.
    Operation *stored = nullptr; // (none when the folded sum is stored)
    if (isOutput) {
      Region &region = def.getEpilogue().empty() ? def.getBody() : def.getEpilogue();
      if (!def.isReduction() || &region == &def.getEpilogue())
        stored = cast<alg::YieldOp>(region.front().getTerminator())
                     .getValue()
                     .getDefiningOp();
    }
    def->walk([&](Operation *op) {
      if (op == stored || op->getNumResults() != 1 ||
          isa<alg::LoadOp, arith::ExtFOp, arith::ConstantOp>(op))
        return;
      if (auto dt = dtypeOf(op->getResult(0).getType()); dt && rt::isFloat(*dt))
        elementRoundoff = std::max(elementRoundoff, rt::unitRoundoff(*dt));
    });
    if (!def.isReduction())
      return;
    std::optional<rt::DType> accumulator = dtypeOf(def.getBodyType());
    if (!accumulator)
      return;
    double length = 1;
    if (def.getReduceDimsAttr())
      for (Attribute d : def.getReduceDimsAttr())
        length *= isa<StringAttr>(d)
                      ? sizes.at(cast<StringAttr>(d).getValue().str())
                      : cast<IntegerAttr>(d).getInt();
    accumulation = std::max(
        accumulation, rt::unitRoundoff(*accumulator) * std::sqrt(length));
  });
  return 4 * rt::unitRoundoff(outputType) + 8 * elementRoundoff +
         16 * accumulation;
}

std::string nautilus::checkOutputs(alg::KernelOp reference,
                                   const SizeValues &sizes,
                                   const std::vector<rt::HostTensor> &inputs,
                                   const std::vector<rt::HostTensor> &outputs,
                                   std::optional<rt::DType> rounded,
                                   std::vector<OutputCheck> &checks) {
  std::vector<rt::HostTensor> expected;
  if (std::string e = interpretKernel(reference, sizes, inputs, expected);
      !e.empty())
    return e;
  compareOutputs(reference, sizes, expected, outputs, rounded, checks);
  return "";
}

void nautilus::compareOutputs(alg::KernelOp reference, const SizeValues &sizes,
                              const std::vector<rt::HostTensor> &expected,
                              const std::vector<rt::HostTensor> &outputs,
                              std::optional<rt::DType> rounded,
                              std::vector<OutputCheck> &checks) {
  KernelSignature sig = getSignature(reference);
  checks.clear();
  for (size_t i = 0; i < outputs.size(); ++i) {
    double tolerance =
        checkTolerance(reference, sizes, outputs[i].dtype(), rounded);
    checks.push_back({sig.outputs[i].name, tolerance,
                      rt::compareTensors(outputs[i], expected[i], tolerance)});
  }
}
