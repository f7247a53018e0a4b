//===- Requirements.cpp - A kernel's `require` lines for the runtime ------===//
#include "compiler/Pipeline/Requirements.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace nautilus;

namespace {

const char *predicateName(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::eq:
    return "eq";
  case arith::CmpIPredicate::ne:
    return "ne";
  case arith::CmpIPredicate::slt:
    return "lt";
  case arith::CmpIPredicate::sle:
    return "le";
  case arith::CmpIPredicate::sgt:
    return "gt";
  case arith::CmpIPredicate::sge:
    return "ge";
  case arith::CmpIPredicate::ult:
    return "ult";
  case arith::CmpIPredicate::ule:
    return "ule";
  case arith::CmpIPredicate::ugt:
    return "ugt";
  case arith::CmpIPredicate::uge:
    return "uge";
  }
  return "eq";
}

/// The name of a size operation for `op` ("" when there is none).
const char *operationName(Operation *op) {
  return llvm::TypeSwitch<Operation *, const char *>(op)
      .Case<arith::AddIOp>([](auto) { return "add"; })
      .Case<arith::SubIOp>([](auto) { return "sub"; })
      .Case<arith::MulIOp>([](auto) { return "mul"; })
      .Case<arith::DivSIOp>([](auto) { return "div"; })
      .Case<arith::FloorDivSIOp>([](auto) { return "floordiv"; })
      .Case<arith::RemSIOp>([](auto) { return "rem"; })
      .Case<arith::MinSIOp>([](auto) { return "min"; })
      .Case<arith::MaxSIOp>([](auto) { return "max"; })
      .Case<arith::AndIOp>([](auto) { return "and"; })
      .Case<arith::OrIOp>([](auto) { return "or"; })
      .Case<arith::XOrIOp>([](auto) { return "xor"; })
      .Case<arith::SelectOp>([](auto) { return "select"; })
      .Case<arith::CmpIOp>(
          [](arith::CmpIOp c) { return predicateName(c.getPredicate()); })
      .Default([](Operation *) { return ""; });
}

FailureOr<rt::SizeExpr> exprOf(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  if (auto size = dyn_cast<alg::SizeOp>(op))
    return rt::SizeExpr::size(size.getName().str());
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto i = dyn_cast<IntegerAttr>(c.getValue());
    if (!i)
      return failure();
    return rt::SizeExpr::of(v.getType().isInteger(1)
                                ? int64_t(i.getValue().getBoolValue())
                                : i.getValue().getSExtValue());
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    return exprOf(op->getOperand(0));
  const char *name = operationName(op);
  if (!*name)
    return failure();
  std::vector<rt::SizeExpr> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<rt::SizeExpr> e = exprOf(operand);
    if (failed(e))
      return failure();
    operands.push_back(std::move(*e));
  }
  return rt::SizeExpr::op(name, std::move(operands));
}

} // namespace

LogicalResult nautilus::requirementsOf(alg::KernelOp kernel,
                                       std::vector<rt::Requirement> &out) {
  for (auto require : kernel.getBody().getOps<alg::RequireOp>()) {
    FailureOr<rt::SizeExpr> condition = exprOf(require.getCondition());
    if (failed(condition))
      return require.emitError()
             << "requirement '" << require.getMessage()
             << "' uses an operation the runtime cannot check";
    out.push_back({require.getMessage().str(), std::move(*condition)});
  }
  return success();
}
