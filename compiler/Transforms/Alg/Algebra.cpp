//===- Algebra.cpp - Facts about the scalar values of alg regions ---------===//
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "dialects/Alg/AlgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;

static bool mapReads(AffineMap map, unsigned first, unsigned count) {
  for (unsigned d = first; d < first + count && d < map.getNumDims(); ++d)
    if (map.isFunctionOfDim(d))
      return true;
  return false;
}

bool nautilus::variesAlong(Value value, Block &block, unsigned first,
                           unsigned count) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &block && arg.getArgNumber() >= first &&
          arg.getArgNumber() < first + count)
        return true;
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (op->getBlock() != &block)
      continue; // computed above the block: the same at every point of it
    if (auto load = dyn_cast<alg::LoadOp>(op))
      if (mapReads(load.getMap(), first, count))
        return true;
    if (auto apply = dyn_cast<alg::ApplyOp>(op))
      if (mapReads(apply.getMap(), first, count))
        return true;
    if (op->getNumRegions() != 0)
      return true;
    llvm::append_range(work, op->getOperands());
  }
  return false;
}

bool nautilus::isPointFree(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || isa<alg::LoadOp, alg::ApplyOp, alg::ReduceOp>(def))
    return false;
  if (isa<alg::SizeOp>(def))
    return true;
  if (!isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
      def->getNumRegions() != 0)
    return false;
  return llvm::all_of(def->getOperands(), isPointFree);
}

std::optional<double> nautilus::constantValue(Value value) {
  if (auto c = value.getDefiningOp<arith::ConstantOp>())
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
  return std::nullopt;
}

std::optional<double> nautilus::evaluatePointFree(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return double(i.getValue().getSExtValue());
    return std::nullopt;
  }
  SmallVector<double, 2> in;
  for (Value operand : op->getOperands()) {
    std::optional<double> v = evaluatePointFree(operand);
    if (!v)
      return std::nullopt;
    in.push_back(*v);
  }
  std::optional<double> r =
      llvm::TypeSwitch<Operation *, std::optional<double>>(op)
          .Case<arith::IndexCastOp, arith::ExtSIOp, arith::SIToFPOp,
                arith::ExtFOp, arith::TruncFOp>(
              [&](auto) { return in[0]; })
          .Case<arith::MulFOp>([&](auto) { return in[0] * in[1]; })
          .Case<arith::DivFOp>([&](auto) { return in[0] / in[1]; })
          .Case<arith::AddFOp>([&](auto) { return in[0] + in[1]; })
          .Case<arith::SubFOp>([&](auto) { return in[0] - in[1]; })
          .Case<arith::NegFOp>([&](auto) { return -in[0]; })
          .Case<math::SqrtOp>([&](auto) { return std::sqrt(in[0]); })
          .Case<math::RsqrtOp>([&](auto) { return 1 / std::sqrt(in[0]); })
          .Case<math::ExpOp>([&](auto) { return std::exp(in[0]); })
          .Case<math::Exp2Op>([&](auto) { return std::exp2(in[0]); })
          .Case<math::LogOp>([&](auto) { return std::log(in[0]); })
          .Case<math::Log2Op>([&](auto) { return std::log2(in[0]); })
          .Default([](Operation *) { return std::nullopt; });
  if (!r)
    return std::nullopt;
  Type type = value.getType();
  if (type.isF32())
    return double(float(*r));
  if (type.isF64() || type.isIntOrIndex())
    return r;
  return std::nullopt; // 16-bit floats: not folded
}

/// A size (at least 1), possibly converted between integer types.
static bool isSize(Value value) {
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<alg::SizeOp>(op))
    return true;
  if (isa_and_nonnull<arith::IndexCastOp, arith::ExtSIOp>(op))
    return isSize(op->getOperand(0));
  return false;
}

bool nautilus::isPositive(Value value) {
  if (std::optional<double> c = evaluatePointFree(value))
    return *c > 0 && std::isfinite(*c);
  Operation *op = value.getDefiningOp();
  Type type = value.getType();
  if (!op || !(type.isF32() || type.isF64()))
    return false;
  if (isa<arith::SIToFPOp>(op)) // a size of up to 2^63 is finite in f32
    return isSize(op->getOperand(0));
  if (isa<math::SqrtOp, math::RsqrtOp, arith::ExtFOp>(op))
    return isPositive(op->getOperand(0));
  return false;
}

Value nautilus::clonePointFree(OpBuilder &builder, Value value,
                               IRMapping &mapping) {
  if (Value done = mapping.lookupOrNull(value))
    return done;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    clonePointFree(builder, operand, mapping);
  builder.clone(*def, mapping);
  return mapping.lookup(value);
}

Value nautilus::floatConstant(OpBuilder &builder, Location loc, Type type,
                              double value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getFloatAttr(type, value));
}

std::string nautilus::tensorName(Value tensor) {
  if (alg::DefineOp def = definitionOf(tensor))
    return def.getName().str();
  if (auto input = tensor.getDefiningOp<alg::InputOp>())
    return input.getName().str();
  return "a tensor";
}

std::string nautilus::describeValue(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return "an index";
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto load = dyn_cast<alg::LoadOp>(op))
    os << "'" << tensorName(load.getTensor()) << "'";
  else if (auto input = dyn_cast<alg::InputOp>(op))
    os << "the scalar input '" << input.getName() << "'";
  else if (std::optional<double> c = constantValue(value))
    os << llvm::format("%g", *c);
  else if (auto size = dyn_cast<alg::SizeOp>(op))
    os << size.getName();
  else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::SIToFPOp,
               arith::ExtFOp, arith::TruncFOp>(op))
    return describeValue(op->getOperand(0));
  else if (isa<math::SqrtOp, math::RsqrtOp, math::ExpOp, math::Exp2Op,
               math::LogOp, math::Log2Op, math::TanhOp>(op))
    os << op->getName().stripDialect() << "("
       << describeValue(op->getOperand(0)) << ")";
  else if (isa<arith::MulFOp, arith::DivFOp>(op))
    os << describeValue(op->getOperand(0))
       << (isa<arith::MulFOp>(op) ? " * " : " / ")
       << describeValue(op->getOperand(1));
  else if (isa<arith::NegFOp>(op))
    os << "-" << describeValue(op->getOperand(0));
  else if (auto c = dyn_cast<arith::ConstantOp>(op);
           c && isa<IntegerAttr>(c.getValue()))
    os << cast<IntegerAttr>(c.getValue()).getValue().getSExtValue();
  else
    os << "'" << op->getName() << "'";
  return s;
}

void nautilus::eraseDeadOps(Block &block) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(block.getOperations())))
    if (isOpTriviallyDead(&op))
      op.erase();
}
