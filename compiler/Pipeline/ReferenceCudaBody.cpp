//===- ReferenceCudaBody.cpp - Alg regions as C++ statements --------------===//
#include "compiler/Pipeline/ReferenceCudaBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstdio>
#include <limits>

using namespace mlir;
using namespace nautilus;

std::string nautilus::referenceValueType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isIndex() || type.isInteger(1) || type.isInteger(8) ||
      type.isInteger(32) || type.isInteger(64))
    return "long long";
  return "";
}

std::string nautilus::referenceRoundTo(Type type, const std::string &expr) {
  if (type.isF16())
    return "nautilus_round_f16(" + expr + ")";
  if (type.isBF16())
    return "nautilus_round_bf16(" + expr + ")";
  if (type.isF32())
    return "(float)(" + expr + ")";
  if (type.isF64())
    return "(double)(" + expr + ")";
  if (type.isInteger(1))
    return "((long long)(" + expr + ") & 1)";
  if (type.isInteger(8))
    return "(long long)(signed char)(" + expr + ")";
  if (type.isInteger(32))
    return "(long long)(int)(" + expr + ")";
  return "(long long)(" + expr + ")";
}

std::string nautilus::referenceStorageType(rt::DType dtype) {
  switch (dtype) {
  case rt::DType::F16:
  case rt::DType::BF16: return "unsigned short";
  case rt::DType::F32: return "float";
  case rt::DType::F64: return "double";
  case rt::DType::I8: return "signed char";
  case rt::DType::I32: return "int";
  case rt::DType::I64: return "long long";
  case rt::DType::Bool: return "unsigned char";
  }
  return "";
}

std::string nautilus::referenceEncode(rt::DType dtype,
                                      const std::string &value) {
  switch (dtype) {
  case rt::DType::F16: return "nautilus_f16_bits(" + value + ")";
  case rt::DType::BF16: return "nautilus_bf16_bits(" + value + ")";
  case rt::DType::Bool: return "(unsigned char)(" + value + " != 0)";
  default: return "(" + referenceStorageType(dtype) + ")(" + value + ")";
  }
}

std::string nautilus::referenceDecode(rt::DType dtype,
                                      const std::string &element) {
  switch (dtype) {
  case rt::DType::F16: return "nautilus_f16(" + element + ")";
  case rt::DType::BF16: return "nautilus_bf16(" + element + ")";
  case rt::DType::F32:
  case rt::DType::F64: return element;
  case rt::DType::Bool: return "(long long)(" + element + " != 0)";
  default: return "(long long)" + element;
  }
}

std::string ReferenceBodyEmitter::sizeParam(llvm::StringRef size) {
  std::string name = "s_";
  for (char c : size)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::string ReferenceBodyEmitter::extentOf(Attribute dim) {
  if (auto size = dyn_cast<StringAttr>(dim))
    return sizeParam(size.getValue());
  return std::to_string(cast<IntegerAttr>(dim).getInt()) + "LL";
}

namespace {

std::string intLiteral(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min())
    return "(-9223372036854775807LL - 1)";
  return v < 0 ? "(" + std::to_string(v) + "LL)" : std::to_string(v) + "LL";
}

/// A float constant as a C literal of `type`'s C type, exactly.
std::string floatLiteral(double v, Type type) {
  bool single = !type.isF64();
  if (std::isnan(v))
    return single ? "NAUTILUS_NANF" : "NAUTILUS_NAN";
  if (std::isinf(v))
    return std::string(v < 0 ? "(-" : "(") +
           (single ? "NAUTILUS_INFF)" : "NAUTILUS_INF)");
  char text[64];
  std::snprintf(text, sizeof text, single ? "%.9g" : "%.17g", v);
  std::string s = text;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return "(" + s + (single ? "f)" : ")");
}

/// An arith.cmpf as a C condition over `a` and `b` (names, so repeatable):
/// C's comparisons are false when unordered, as the ordered predicates are.
std::string compareF(arith::CmpFPredicate p, const std::string &a,
                     const std::string &b) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::AlwaysFalse: return "0";
  case P::OEQ: return a + " == " + b;
  case P::OGT: return a + " > " + b;
  case P::OGE: return a + " >= " + b;
  case P::OLT: return a + " < " + b;
  case P::OLE: return a + " <= " + b;
  case P::ONE: return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::ORD: return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UEQ: return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UGT: return "!(" + a + " <= " + b + ")";
  case P::UGE: return "!(" + a + " < " + b + ")";
  case P::ULT: return "!(" + a + " >= " + b + ")";
  case P::ULE: return "!(" + a + " > " + b + ")";
  case P::UNE: return "!(" + a + " == " + b + ")";
  case P::UNO: return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  case P::AlwaysTrue: return "1";
  }
  return "0";
}

std::string compareI(arith::CmpIPredicate p, const std::string &a,
                     const std::string &b) {
  using P = arith::CmpIPredicate;
  auto u = [](const std::string &x) {
    return "(unsigned long long)" + x;
  };
  switch (p) {
  case P::eq: return a + " == " + b;
  case P::ne: return a + " != " + b;
  case P::slt: return a + " < " + b;
  case P::sle: return a + " <= " + b;
  case P::sgt: return a + " > " + b;
  case P::sge: return a + " >= " + b;
  case P::ult: return u(a) + " < " + u(b);
  case P::ule: return u(a) + " <= " + u(b);
  case P::ugt: return u(a) + " > " + u(b);
  case P::uge: return u(a) + " >= " + u(b);
  }
  return "0";
}

/// A math function of the reference's: the float one for f16, bf16 and
/// f32 results, the double one for f64.
std::string mathCall(Operation *op, llvm::ArrayRef<std::string> in) {
  bool single = !op->getResult(0).getType().isF64();
  auto call = [&](const char *name) {
    std::string s = std::string(name) + (single ? "f(" : "(");
    for (size_t i = 0; i < in.size(); ++i)
      s += (i ? ", " : "") + in[i];
    return s + ")";
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<math::ExpOp>([&](auto) { return call("exp"); })
      .Case<math::Exp2Op>([&](auto) { return call("exp2"); })
      .Case<math::LogOp>([&](auto) { return call("log"); })
      .Case<math::Log2Op>([&](auto) { return call("log2"); })
      .Case<math::SqrtOp>([&](auto) { return call("sqrt"); })
      .Case<math::RsqrtOp>([&](auto) {
        return std::string(single ? "1.0f / " : "1.0 / ") + call("sqrt");
      })
      .Case<math::TanhOp>([&](auto) { return call("tanh"); })
      .Case<math::ErfOp>([&](auto) { return call("erf"); })
      .Case<math::ErfcOp>([&](auto) { return call("erfc"); })
      .Case<math::AbsFOp>([&](auto) { return call("fabs"); })
      .Case<math::PowFOp>([&](auto) { return call("pow"); })
      .Case<math::FmaOp>([&](auto) { return call("fma"); })
      .Case<math::AbsIOp>([&](auto) {
        return "(" + in[0] + " < 0 ? nautilus_sub(0, " + in[0] + ") : " +
               in[0] + ")";
      })
      .Default([](Operation *) { return std::string(); });
}

/// arith's arithmetic, logic, comparisons and select; "" for other ops.
std::string arithExpression(Operation *op, llvm::ArrayRef<std::string> in) {
  auto binary = [&](const char *symbol) {
    return "(" + in[0] + " " + symbol + " " + in[1] + ")";
  };
  auto call = [&](const char *name) {
    return std::string(name) + "(" + in[0] + ", " + in[1] + ")";
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<arith::AddFOp>([&](auto) { return binary("+"); })
      .Case<arith::SubFOp>([&](auto) { return binary("-"); })
      .Case<arith::MulFOp>([&](auto) { return binary("*"); })
      .Case<arith::DivFOp>([&](auto) { return binary("/"); })
      .Case<arith::NegFOp>([&](auto) { return "(-" + in[0] + ")"; })
      .Case<arith::MaximumFOp>([&](auto) { return call("nautilus_maximum"); })
      .Case<arith::MinimumFOp>([&](auto) { return call("nautilus_minimum"); })
      .Case<arith::AddIOp>([&](auto) { return call("nautilus_add"); })
      .Case<arith::SubIOp>([&](auto) { return call("nautilus_sub"); })
      .Case<arith::MulIOp>([&](auto) { return call("nautilus_mul"); })
      .Case<arith::FloorDivSIOp>([&](auto) { return call("nautilus_floordiv"); })
      .Case<arith::RemSIOp>([&](auto) { return call("nautilus_rem"); })
      .Case<arith::MaxSIOp>([&](auto) {
        return "(" + in[0] + " > " + in[1] + " ? " + in[0] + " : " + in[1] + ")";
      })
      .Case<arith::MinSIOp>([&](auto) {
        return "(" + in[0] + " < " + in[1] + " ? " + in[0] + " : " + in[1] + ")";
      })
      .Case<arith::AndIOp>([&](auto) { return binary("&"); })
      .Case<arith::OrIOp>([&](auto) { return binary("|"); })
      .Case<arith::XOrIOp>([&](auto) { return binary("^"); })
      .Case<arith::CmpFOp>([&](arith::CmpFOp c) {
        return "(long long)(" + compareF(c.getPredicate(), in[0], in[1]) + ")";
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        return "(long long)(" + compareI(c.getPredicate(), in[0], in[1]) + ")";
      })
      .Case<arith::SelectOp>([&](auto) {
        return "(" + in[0] + " ? " + in[1] + " : " + in[2] + ")";
      })
      .Default([](Operation *) { return std::string(); });
}

/// arith's conversions, as the interpreter makes them (its evalCast);
/// "" for other ops.
std::string castExpression(Operation *op, llvm::ArrayRef<std::string> in) {
  bool fromBool = op->getNumOperands() == 1 &&
                  op->getOperand(0).getType().isInteger(1);
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { return in[0]; })
      .Case<arith::SIToFPOp>([&](auto) { return "(double)" + in[0]; })
      .Case<arith::UIToFPOp>([&](auto) {
        return fromBool ? "(double)(" + in[0] + " & 1)" : "(double)" + in[0];
      })
      .Case<arith::FPToSIOp>([&](auto) {
        return "nautilus_fptosi((double)" + in[0] + ")";
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(
          [&](auto) { return in[0]; })
      .Case<arith::ExtUIOp>([&](auto) {
        return fromBool ? "(" + in[0] + " & 1)" : in[0];
      })
      .Default([](Operation *) { return std::string(); });
}

std::string unsupported(Operation *op) {
  return "the reference kernel does not support '" +
         op->getName().getStringRef().str() + "'";
}

} // namespace

std::string ReferenceBodyEmitter::name(Value value, std::string &error) {
  auto it = names.find(value);
  if (it != names.end())
    return it->second;
  // A constant or size a canonicalization hoisted out of the region.
  if (auto size = value.getDefiningOp<alg::SizeOp>())
    return sizeParam(size.getName());
  if (auto c = value.getDefiningOp<arith::ConstantOp>()) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return floatLiteral(f.getValueAsDouble(), c.getType());
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return intLiteral(c.getType().isInteger(1) ? i.getValue().getBoolValue()
                                                 : i.getValue().getSExtValue());
  }
  Operation *def = value.getDefiningOp();
  error = def ? unsupported(def) + " as a value from outside its region"
              : "the reference kernel does not support this region argument";
  return "";
}

std::string ReferenceBodyEmitter::affine(AffineExpr expr,
                                         llvm::ArrayRef<std::string> dims) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return intLiteral(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return sizeParam(sizeNames[cast<AffineSymbolExpr>(expr).getPosition()]);
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::string l = affine(bin.getLHS(), dims), r = affine(bin.getRHS(), dims);
  switch (expr.getKind()) {
  case AffineExprKind::Add: return "(" + l + " + " + r + ")";
  case AffineExprKind::Mul: return "(" + l + " * " + r + ")";
  case AffineExprKind::Mod: return "nautilus_floormod(" + l + ", " + r + ")";
  case AffineExprKind::FloorDiv:
    return "nautilus_floordiv(" + l + ", " + r + ")";
  case AffineExprKind::CeilDiv:
    return "nautilus_sub(0, nautilus_floordiv(nautilus_sub(0, " + l + "), " +
           r + "))";
  default: return "0";
  }
}

std::string ReferenceBodyEmitter::emitLoad(alg::LoadOp load, unsigned indent) {
  auto it = tensors.find(load.getTensor());
  if (it == tensors.end()) {
    Operation *def = load.getTensor().getDefiningOp();
    return "the reference kernel does not support reading the result of '" +
           (def ? def->getName().getStringRef().str() : "an argument") + "'";
  }
  const ReferenceTensor &tensor = it->second;
  std::string result = fresh("v");
  ArrayRef<int64_t> positions = load.getIndirectPositions();
  std::string inRange, flat;
  size_t mapped = 0, indirect = 0;
  for (size_t d = 0; d < tensor.extents.size(); ++d) {
    std::string index = result + "_" + std::to_string(d), value;
    if (indirect < positions.size() &&
        positions[indirect] == static_cast<int64_t>(d)) {
      std::string error;
      value = name(load.getIndirect()[indirect++], error);
      if (!error.empty())
        return error;
    } else {
      value = affine(load.getMap().getResult(mapped++), blockArgs);
    }
    line(indent, "long long " + index + " = " + value + ";");
    inRange += (inRange.empty() ? "" : " && ") + std::string("nautilus_in(") +
               index + ", " + tensor.extents[d] + ")";
    flat = flat.empty() ? index
                        : "(" + flat + " * " + tensor.extents[d] + " + " +
                              index + ")";
  }
  std::string type = referenceValueType(load.getType());
  std::string element =
      referenceDecode(tensor.dtype, tensor.param + "[" +
                                        (flat.empty() ? "0" : flat) + "]");
  // Out of range reads 0 (a guarded read's value is discarded).
  line(indent, type + " " + result + " = " +
                   (inRange.empty() ? element
                                    : "(" + inRange + ") ? (" + type + ")" +
                                          element + " : (" + type + ")0") +
                   ";");
  names[load.getResult()] = result;
  return "";
}

std::string ReferenceBodyEmitter::expression(Operation *op,
                                             std::string &error) {
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return name(c.getResult(), error);
  if (auto size = dyn_cast<alg::SizeOp>(op))
    return sizeParam(size.getName());
  if (auto apply = dyn_cast<alg::ApplyOp>(op))
    return affine(apply.getMap().getResult(0), blockArgs);
  std::vector<std::string> in;
  for (Value operand : op->getOperands()) {
    in.push_back(name(operand, error));
    if (!error.empty())
      return "";
  }
  std::string expr = arithExpression(op, in);
  if (expr.empty())
    expr = castExpression(op, in);
  if (expr.empty())
    expr = mathCall(op, in);
  if (expr.empty())
    error = unsupported(op);
  return expr;
}

std::string ReferenceBodyEmitter::emitOp(Operation *op, unsigned indent) {
  if (op->getNumResults() != 1)
    return unsupported(op);
  Type type = op->getResult(0).getType();
  std::string cType = referenceValueType(type);
  if (cType.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "the reference kernel does not support values of type " << type
       << " (from '" << op->getName() << "')";
    return text;
  }
  if (auto load = dyn_cast<alg::LoadOp>(op))
    return emitLoad(load, indent);
  if (auto reduce = dyn_cast<alg::ReduceOp>(op)) {
    std::vector<std::string> extents;
    for (Attribute d : reduce.getReduceDims())
      extents.push_back(extentOf(d));
    std::string result;
    if (std::string e = emitFold(reduce.getKind(), type, extents,
                                 reduce.getBody().front(), blockArgs, indent,
                                 result);
        !e.empty())
      return e;
    names[op->getResult(0)] = result;
    return "";
  }
  std::string error;
  std::string expr = expression(op, error);
  if (!error.empty())
    return error;
  std::string result = fresh("v");
  line(indent, cType + " " + result + " = " + referenceRoundTo(type, expr) + ";");
  names[op->getResult(0)] = result;
  return "";
}

std::string ReferenceBodyEmitter::emitBlock(Block &block,
                                            llvm::ArrayRef<std::string> args,
                                            unsigned indent,
                                            std::vector<std::string> &yielded) {
  std::vector<std::string> saved = std::move(blockArgs);
  blockArgs.assign(args.begin(), args.end());
  for (auto [arg, argName] : llvm::zip(block.getArguments(), args))
    names[arg] = argName;
  std::string error;
  for (Operation &op : block) {
    if (auto yield = dyn_cast<alg::YieldOp>(op)) {
      for (Value v : yield.getValues()) {
        yielded.push_back(name(v, error));
        if (!error.empty())
          break;
      }
      break;
    }
    if (!op.getRegions().empty() && !isa<alg::ReduceOp>(op)) {
      error = unsupported(&op);
      break;
    }
    error = emitOp(&op, indent);
    if (!error.empty())
      break;
  }
  blockArgs = std::move(saved);
  return error;
}

std::string ReferenceBodyEmitter::emitFold(alg::ReductionKind kind, Type type,
                                           llvm::ArrayRef<std::string> extents,
                                           Block &body,
                                           llvm::ArrayRef<std::string> outer,
                                           unsigned indent,
                                           std::string &result) {
  // Floats accumulate in double, integers in 64 bits (the interpreter's
  // Fold); the identity of max is -inf, of min +inf.
  bool isFloat = isa<FloatType>(type);
  std::string acc = fresh("acc");
  const char *identity = "";
  switch (kind) {
  case alg::ReductionKind::sum: identity = isFloat ? "0.0" : "0LL"; break;
  case alg::ReductionKind::prod: identity = isFloat ? "1.0" : "1LL"; break;
  case alg::ReductionKind::max:
    identity = isFloat ? "-NAUTILUS_INF" : "(-9223372036854775807LL - 1)";
    break;
  case alg::ReductionKind::min:
    identity = isFloat ? "NAUTILUS_INF" : "9223372036854775807LL";
    break;
  }
  line(indent, std::string(isFloat ? "double " : "long long ") + acc + " = " +
                   identity + ";");
  std::vector<std::string> args(outer.begin(), outer.end());
  unsigned inner = indent;
  for (const std::string &extent : extents) {
    std::string index = fresh("r");
    line(inner, "for (long long " + index + " = 0; " + index + " < " + extent +
                    "; ++" + index + ") {");
    args.push_back(index);
    inner += 2;
  }
  std::vector<std::string> yielded;
  if (std::string e = emitBlock(body, args, inner, yielded); !e.empty())
    return e;
  std::string term = isFloat ? "(double)" + yielded.front() : yielded.front();
  switch (kind) {
  case alg::ReductionKind::sum:
    line(inner, acc + " = " + (isFloat ? acc + " + " + term
                                       : "nautilus_add(" + acc + ", " + term + ")") + ";");
    break;
  case alg::ReductionKind::prod:
    line(inner, acc + " = " + (isFloat ? acc + " * " + term
                                       : "nautilus_mul(" + acc + ", " + term + ")") + ";");
    break;
  case alg::ReductionKind::max:
  case alg::ReductionKind::min: {
    bool max = kind == alg::ReductionKind::max;
    line(inner, acc + " = " +
                    (isFloat ? std::string(max ? "nautilus_maximum("
                                               : "nautilus_minimum(") +
                                   acc + ", " + term + ")"
                             : "(" + term + (max ? " > " : " < ") + acc +
                                   " ? " + term + " : " + acc + ")") +
                    ";");
    break;
  }
  }
  for (size_t i = 0; i < extents.size(); ++i) {
    inner -= 2;
    line(inner, "}");
  }
  result = fresh("v");
  line(indent, referenceValueType(type) + " " + result + " = " +
                   referenceRoundTo(type, acc) + ";");
  return "";
}
