//===- AlgEmitter.cpp - Checked .tensor kernels to the alg dialect --------===//
//
// Each tensor definition becomes one alg.define. Sema has normalised the
// definitions so that each holds at most one reduction at the top of its
// expression: the reduction's body becomes the op's body, and the expression
// around it (with the reduction standing for the folded value) the epilogue.
// Scalar definitions are expanded where they are used (once a region).
// Tensor index expressions become the affine maps of alg.load ops.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/AlgEmitter.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Parser.h"
#include "dialects/Alg/AlgOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include <cmath>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::frontend;

namespace {

/// Where the expression being emitted lives: which block, which index
/// variable is which block argument, and what a reduction stands for.
struct Scope {
  Block *block = nullptr;
  llvm::StringMap<unsigned> indexArgs;
  const Expr *reduction = nullptr; // the folded reduction, in an epilogue
  Value folded;
  /// In the body of a reduction that accumulates half-precision values in
  /// f32, arithmetic is done in f32 too (as tensor cores multiply exactly).
  bool widenHalf = false;
  /// Scalar definitions already expanded in this scope's block: each is
  /// emitted once a scope, not once a use (a chain of definitions each
  /// using the previous twice would grow exponentially).
  llvm::StringMap<Value> scalarDefs;
};

ScalarType effective(ScalarType t, const Scope &scope) {
  if (scope.widenHalf && (t == ScalarType::F16 || t == ScalarType::BF16))
    return ScalarType::F32;
  return t;
}

class Emitter {
public:
  Emitter(ModuleOp module, const CheckedKernel &kernel,
          llvm::SourceMgr &sourceMgr)
      : builder(module.getContext()), module(module), kernel(kernel),
        sourceMgr(sourceMgr) {}

  void run();

private:
  Location loc(llvm::SMLoc at);
  Type typeOf(ScalarType t);
  RankedTensorType tensorType(const TensorInfo &info);
  ArrayAttr dimsAttr(const std::vector<DimSpec> &dims);

  void emitDefine(const Statement &stmt);
  Value emit(const Expr &e, Scope &scope);
  Value emitAs(const Expr &e, ScalarType to, Scope &scope) {
    // A literal whose type is open is made directly in the type it takes,
    // so 0.1 in f64 arithmetic keeps f64 precision.
    if (e.untypedLiteral && isFloatType(to) &&
        (e.kind == Expr::Kind::FloatLit || e.kind == Expr::Kind::IntLit))
      return floatConstant(e.kind == Expr::Kind::FloatLit
                               ? e.floatValue
                               : static_cast<double>(e.intValue),
                           to, e.loc);
    // So is an expression of such literals that takes f64 (-0.1, 1.0 /
    // 3.0, a name defined as one): its arithmetic, in f64, is double's (it
    // was done in f32, then widened). In a narrower type its ops are
    // emitted in f32, each rounded as the type's arithmetic rounds.
    if (e.untypedLiteral && to == ScalarType::F64)
      if (std::optional<double> v = foldedLiteral(e))
        return floatConstant(*v, to, e.loc);
    return convert(emit(e, scope), to, e.loc);
  }
  /// The value of an expression of literals whose type is open, its float
  /// arithmetic in double (f64's); std::nullopt for what it does not fold
  /// (integer arithmetic, calls), which is emitted as written.
  std::optional<double> foldedLiteral(const Expr &e) const;
  Value convert(Value v, ScalarType to, llvm::SMLoc at);
  ScalarType scalarTypeOf(Type t);
  Value emitAccess(const Expr &e, Scope &scope);
  Value emitCall(const Expr &e, Scope &scope);
  Value emitBinary(const Expr &e, Scope &scope);
  AffineExpr affineIndex(const Expr &e, Scope &scope);
  Value floatConstant(double v, ScalarType t, llvm::SMLoc at);

  OpBuilder builder;
  ModuleOp module;
  const CheckedKernel &kernel;
  llvm::SourceMgr &sourceMgr;
  alg::KernelOp kernelOp;
  llvm::StringMap<Value> values; // inputs and defined tensors
};

} // namespace

std::optional<double> Emitter::foldedLiteral(const Expr &e) const {
  switch (e.kind) {
  case Expr::Kind::FloatLit:
    return e.floatValue;
  case Expr::Kind::IntLit:
    return static_cast<double>(e.intValue);
  case Expr::Kind::Unary:
    if (e.unaryOp == UnaryOp::Neg && isFloatType(e.type))
      if (std::optional<double> v = foldedLiteral(*e.operands[0]))
        return -*v;
    return std::nullopt;
  case Expr::Kind::Binary: {
    if (!isFloatType(e.type))
      return std::nullopt; // (integer division floors: not folded here)
    std::optional<double> a = foldedLiteral(*e.operands[0]);
    std::optional<double> b = foldedLiteral(*e.operands[1]);
    if (!a || !b)
      return std::nullopt;
    switch (e.binaryOp) {
    case BinaryOp::Add:
      return *a + *b;
    case BinaryOp::Sub:
      return *a - *b;
    case BinaryOp::Mul:
      return *a * *b;
    case BinaryOp::Div:
      return *a / *b;
    default:
      return std::nullopt;
    }
  }
  case Expr::Kind::Name:
    if (e.nameKind == NameKind::ScalarDef && e.untypedLiteral)
      if (auto it = kernel.scalarDefs.find(e.name);
          it != kernel.scalarDefs.end())
        return foldedLiteral(*kernel.ast->statements[it->second].value);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

Location Emitter::loc(llvm::SMLoc at) {
  if (!at.isValid())
    return builder.getUnknownLoc();
  unsigned buffer = sourceMgr.FindBufferContainingLoc(at);
  if (!buffer)
    return builder.getUnknownLoc();
  auto [line, col] = sourceMgr.getLineAndColumn(at, buffer);
  StringRef file = sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier();
  return FileLineColLoc::get(builder.getContext(), file, line, col);
}

Type Emitter::typeOf(ScalarType t) {
  switch (t) {
  case ScalarType::F16: return builder.getF16Type();
  case ScalarType::BF16: return builder.getBF16Type();
  case ScalarType::F32: return builder.getF32Type();
  case ScalarType::F64: return builder.getF64Type();
  case ScalarType::I8: return builder.getI8Type();
  case ScalarType::I32: return builder.getI32Type();
  case ScalarType::I64: return builder.getI64Type();
  case ScalarType::Bool: return builder.getI1Type();
  }
  return {};
}

RankedTensorType Emitter::tensorType(const TensorInfo &info) {
  SmallVector<int64_t> shape;
  for (const DimSpec &d : info.dims)
    shape.push_back(d.isLiteral() ? d.literal : ShapedType::kDynamic);
  return RankedTensorType::get(shape, typeOf(info.type));
}

ArrayAttr Emitter::dimsAttr(const std::vector<DimSpec> &dims) {
  SmallVector<Attribute> attrs;
  for (const DimSpec &d : dims)
    attrs.push_back(d.isLiteral()
                        ? static_cast<Attribute>(builder.getI64IntegerAttr(
                              d.literal))
                        : builder.getStringAttr(d.sizeName));
  return builder.getArrayAttr(attrs);
}

Value Emitter::floatConstant(double v, ScalarType t, llvm::SMLoc at) {
  auto type = cast<FloatType>(typeOf(t));
  return arith::ConstantOp::create(builder, loc(at), type,
                                   builder.getFloatAttr(type, v));
}

ScalarType Emitter::scalarTypeOf(Type t) {
  if (t.isF16()) return ScalarType::F16;
  if (t.isBF16()) return ScalarType::BF16;
  if (t.isF32()) return ScalarType::F32;
  if (t.isF64()) return ScalarType::F64;
  if (t.isInteger(1)) return ScalarType::Bool;
  if (t.isInteger(8)) return ScalarType::I8;
  if (t.isInteger(32)) return ScalarType::I32;
  return ScalarType::I64;
}

Value Emitter::convert(Value v, ScalarType to, llvm::SMLoc at) {
  ScalarType from = scalarTypeOf(v.getType());
  if (from == to)
    return v;
  Location l = loc(at);
  Type target = typeOf(to);
  if (to == ScalarType::Bool) {
    if (isFloatType(from))
      return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, v,
                                   floatConstant(0.0, from, at));
    Value zero = arith::ConstantOp::create(
        builder, l, v.getType(), builder.getIntegerAttr(v.getType(), 0));
    return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, v,
                                 zero);
  }
  if (from == ScalarType::Bool)
    return isFloatType(to)
               ? arith::UIToFPOp::create(builder, l, target, v).getResult()
               : arith::ExtUIOp::create(builder, l, target, v).getResult();
  if (isFloatType(from) && isFloatType(to)) {
    unsigned fw = v.getType().getIntOrFloatBitWidth();
    unsigned tw = target.getIntOrFloatBitWidth();
    if (fw == tw) // f16 <-> bf16 goes through f32
      return convert(convert(v, ScalarType::F32, at), to, at);
    if (fw < tw)
      return arith::ExtFOp::create(builder, l, target, v);
    return arith::TruncFOp::create(builder, l, target, v);
  }
  if (isFloatType(to))
    return arith::SIToFPOp::create(builder, l, target, v);
  if (isFloatType(from))
    return arith::FPToSIOp::create(builder, l, target, v);
  unsigned fw = v.getType().getIntOrFloatBitWidth();
  unsigned tw = target.getIntOrFloatBitWidth();
  if (fw < tw)
    return arith::ExtSIOp::create(builder, l, target, v);
  return arith::TruncIOp::create(builder, l, target, v);
}

AffineExpr Emitter::affineIndex(const Expr &e, Scope &scope) {
  MLIRContext *ctx = builder.getContext();
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return getAffineConstantExpr(e.intValue, ctx);
  case Expr::Kind::Name:
    if (e.nameKind == NameKind::IndexVar)
      return getAffineDimExpr(scope.indexArgs.lookup(e.name), ctx);
    return getAffineSymbolExpr(kernelOp.getSizeIndex(e.name), ctx);
  case Expr::Kind::Unary:
    return -affineIndex(*e.operands[0], scope);
  case Expr::Kind::Binary: {
    AffineExpr a = affineIndex(*e.operands[0], scope);
    AffineExpr b = affineIndex(*e.operands[1], scope);
    switch (e.binaryOp) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::Div: return a.floorDiv(b);
    case BinaryOp::Mod: return a % b;
    default: break;
    }
    break;
  }
  default:
    break;
  }
  llvm_unreachable("sema admits only affine index expressions here");
}

Value Emitter::emitAccess(const Expr &e, Scope &scope) {
  Value tensor = values.lookup(e.name);
  SmallVector<AffineExpr> results;
  SmallVector<Value> indirect;
  SmallVector<int64_t> positions;
  for (auto [i, index] : llvm::enumerate(e.operands)) {
    if (index->kind == Expr::Kind::Name &&
        index->nameKind == NameKind::IndexVar) {
      results.push_back(affineIndex(*index, scope));
      continue;
    }
    bool isIndirect = false;
    std::function<void(const Expr &)> scan = [&](const Expr &x) {
      isIndirect |= x.kind == Expr::Kind::Access;
      for (const ExprPtr &op : x.operands)
        scan(*op);
    };
    scan(*index);
    if (!isIndirect) {
      results.push_back(affineIndex(*index, scope));
      continue;
    }
    Value v = emitAs(*index, ScalarType::I64, scope);
    indirect.push_back(arith::IndexCastOp::create(
        builder, loc(index->loc), builder.getIndexType(), v));
    positions.push_back(i);
  }
  unsigned numDims = 0;
  for (BlockArgument arg : scope.block->getArguments())
    numDims += arg.getType().isIndex();
  AffineMap map = AffineMap::get(numDims, kernelOp.getSizes().size(), results,
                                 builder.getContext());
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  return alg::LoadOp::create(builder, loc(e.loc), tensorType.getElementType(),
                             tensor, indirect, AffineMapAttr::get(map),
                             builder.getDenseI64ArrayAttr(positions));
}

Value Emitter::emitCall(const Expr &e, Scope &scope) {
  Location l = loc(e.loc);
  const std::string &f = e.name;
  ScalarType type = effective(e.type, scope);
  if (parseScalarType(f)) // an explicit cast rounds even where we widen
    return convert(emitAs(*e.operands[0], e.type, scope), type, e.loc);
  if (f == "where") {
    Value c = emit(*e.operands[0], scope);
    Value a = emitAs(*e.operands[1], type, scope);
    Value b = emitAs(*e.operands[2], type, scope);
    return arith::SelectOp::create(builder, l, c, a, b);
  }
  bool isFloat = isFloatType(type);
  if (f == "max" || f == "min" || f == "pow") {
    Value a = emitAs(*e.operands[0], type, scope);
    Value b = emitAs(*e.operands[1], type, scope);
    if (f == "pow")
      return math::PowFOp::create(builder, l, a, b);
    if (f == "max")
      return isFloat ? arith::MaximumFOp::create(builder, l, a, b).getResult()
                     : arith::MaxSIOp::create(builder, l, a, b).getResult();
    return isFloat ? arith::MinimumFOp::create(builder, l, a, b).getResult()
                   : arith::MinSIOp::create(builder, l, a, b).getResult();
  }
  Value x = emitAs(*e.operands[0], type, scope);
  if (f == "abs") {
    if (isFloat)
      return math::AbsFOp::create(builder, l, x);
    // max(x, 0 - x), which every lowering has (math.absi has no CPU
    // lowering for vectors of rank 2 and up, and none on NVIDIA but a
    // device-library call); abs of the most negative value wraps to
    // itself, as math.absi's.
    Value zero = arith::ConstantOp::create(builder, l, x.getType(),
                                           builder.getZeroAttr(x.getType()));
    return arith::MaxSIOp::create(builder, l, x,
                                  arith::SubIOp::create(builder, l, zero, x));
  }
  if (f == "exp") return math::ExpOp::create(builder, l, x);
  if (f == "exp2") return math::Exp2Op::create(builder, l, x);
  if (f == "log") return math::LogOp::create(builder, l, x);
  if (f == "log2") return math::Log2Op::create(builder, l, x);
  if (f == "sqrt") return math::SqrtOp::create(builder, l, x);
  if (f == "rsqrt") return math::RsqrtOp::create(builder, l, x);
  if (f == "tanh") return math::TanhOp::create(builder, l, x);
  if (f == "erf") return math::ErfOp::create(builder, l, x);
  Value one = floatConstant(1.0, type, e.loc);
  if (f == "sigmoid" || f == "silu") {
    // sigmoid(x) = 1 / (1 + exp(-x)); silu(x) = x * sigmoid(x).
    Value ex = math::ExpOp::create(builder, l,
                                   arith::NegFOp::create(builder, l, x));
    Value denom = arith::AddFOp::create(builder, l, one, ex);
    if (f == "sigmoid")
      return arith::DivFOp::create(builder, l, one, denom);
    return arith::DivFOp::create(builder, l, x, denom);
  }
  if (f == "gelu") {
    // The exact GELU: x/2 * (1 + erf(x / sqrt(2))), as x/2 * erfc(-x /
    // sqrt(2)): for negative x, 1 + erf cancels (in f32 it is 0 below
    // about -5.4, where GELU is -1.6e-7), and erfc keeps the tail.
    Value half = floatConstant(0.5, type, e.loc);
    Value minusInvSqrt2 = floatConstant(-M_SQRT1_2, type, e.loc);
    Value erfc = math::ErfcOp::create(
        builder, l, arith::MulFOp::create(builder, l, x, minusInvSqrt2));
    Value halfX = arith::MulFOp::create(builder, l, half, x);
    return arith::MulFOp::create(builder, l, halfX, erfc);
  }
  llvm_unreachable("sema admits only known functions");
}

Value Emitter::emitBinary(const Expr &e, Scope &scope) {
  Location l = loc(e.loc);
  const Expr &lhs = *e.operands[0], &rhs = *e.operands[1];
  switch (e.binaryOp) {
  case BinaryOp::And:
    return arith::AndIOp::create(builder, l, emit(lhs, scope),
                                 emit(rhs, scope));
  case BinaryOp::Or:
    return arith::OrIOp::create(builder, l, emit(lhs, scope),
                                emit(rhs, scope));
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
  case BinaryOp::Eq:
  case BinaryOp::Ne: {
    ScalarType operandType = effective(e.operandType, scope);
    Value a = emitAs(lhs, operandType, scope);
    Value b = emitAs(rhs, operandType, scope);
    if (isFloatType(operandType)) {
      arith::CmpFPredicate p;
      switch (e.binaryOp) {
      case BinaryOp::Lt: p = arith::CmpFPredicate::OLT; break;
      case BinaryOp::Le: p = arith::CmpFPredicate::OLE; break;
      case BinaryOp::Gt: p = arith::CmpFPredicate::OGT; break;
      case BinaryOp::Ge: p = arith::CmpFPredicate::OGE; break;
      case BinaryOp::Eq: p = arith::CmpFPredicate::OEQ; break;
      default: p = arith::CmpFPredicate::UNE; break;
      }
      return arith::CmpFOp::create(builder, l, p, a, b);
    }
    arith::CmpIPredicate p;
    switch (e.binaryOp) {
    case BinaryOp::Lt: p = arith::CmpIPredicate::slt; break;
    case BinaryOp::Le: p = arith::CmpIPredicate::sle; break;
    case BinaryOp::Gt: p = arith::CmpIPredicate::sgt; break;
    case BinaryOp::Ge: p = arith::CmpIPredicate::sge; break;
    case BinaryOp::Eq: p = arith::CmpIPredicate::eq; break;
    default: p = arith::CmpIPredicate::ne; break;
    }
    return arith::CmpIOp::create(builder, l, p, a, b);
  }
  default:
    break;
  }
  ScalarType type = effective(e.type, scope);
  Value a = emitAs(lhs, type, scope);
  Value b = emitAs(rhs, type, scope);
  if (isFloatType(type)) {
    switch (e.binaryOp) {
    case BinaryOp::Add: return arith::AddFOp::create(builder, l, a, b);
    case BinaryOp::Sub: return arith::SubFOp::create(builder, l, a, b);
    case BinaryOp::Mul: return arith::MulFOp::create(builder, l, a, b);
    case BinaryOp::Div: return arith::DivFOp::create(builder, l, a, b);
    default: break;
    }
    llvm_unreachable("sema rejects '%' on floats");
  }
  switch (e.binaryOp) {
  case BinaryOp::Add: return arith::AddIOp::create(builder, l, a, b);
  case BinaryOp::Sub: return arith::SubIOp::create(builder, l, a, b);
  case BinaryOp::Mul: return arith::MulIOp::create(builder, l, a, b);
  case BinaryOp::Div:
  case BinaryOp::Mod: {
    // Floor division and modulo, as in index expressions. Division by zero
    // gives 0 and division by -1 negates, so that no value traps (x86
    // raises SIGFPE on both).
    Type t = a.getType();
    auto constant = [&](int64_t v) {
      return arith::ConstantOp::create(builder, l, t,
                                       builder.getIntegerAttr(t, v));
    };
    Value zero = constant(0), minusOne = constant(-1);
    Value isZero = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq,
                                         b, zero);
    Value isMinusOne = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::eq, b, minusOne);
    Value safe = arith::SelectOp::create(
        builder, l, arith::OrIOp::create(builder, l, isZero, isMinusOne),
        constant(1), b);
    Value result;
    if (e.binaryOp == BinaryOp::Div) {
      Value q = arith::FloorDivSIOp::create(builder, l, a, safe);
      Value negated = arith::SubIOp::create(builder, l, zero, a);
      result = arith::SelectOp::create(builder, l, isMinusOne, negated, q);
    } else {
      // ((a rem b) + b) rem b; anything modulo -1 is 0.
      Value r = arith::RemSIOp::create(builder, l, a, safe);
      Value shifted = arith::AddIOp::create(builder, l, r, safe);
      result = arith::RemSIOp::create(builder, l, shifted, safe);
      result = arith::SelectOp::create(builder, l, isMinusOne, zero, result);
    }
    return arith::SelectOp::create(builder, l, isZero, zero, result);
  }
  default: break;
  }
  llvm_unreachable("unhandled binary operator");
}

Value Emitter::emit(const Expr &e, Scope &scope) {
  Location l = loc(e.loc);
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return arith::ConstantOp::create(builder, l, builder.getI64Type(),
                                     builder.getI64IntegerAttr(e.intValue));
  case Expr::Kind::FloatLit:
    return floatConstant(e.floatValue, effective(e.type, scope), e.loc);
  case Expr::Kind::BoolLit:
    return arith::ConstantOp::create(builder, l, builder.getI1Type(),
                                     builder.getBoolAttr(e.boolValue));
  case Expr::Kind::Name:
    switch (e.nameKind) {
    case NameKind::IndexVar:
      return arith::IndexCastOp::create(
          builder, l, builder.getI64Type(),
          scope.block->getArgument(scope.indexArgs.lookup(e.name)));
    case NameKind::Size:
      return arith::IndexCastOp::create(
          builder, l, builder.getI64Type(),
          alg::SizeOp::create(builder, l, builder.getIndexType(),
                              builder.getStringAttr(e.name))
              .getResult());
    case NameKind::ScalarInput:
      return values.lookup(e.name);
    case NameKind::ScalarDef: {
      if (Value emitted = scope.scalarDefs.lookup(e.name))
        return emitted;
      const Statement &def =
          kernel.ast->statements[kernel.scalarDefs.lookup(e.name)];
      Value value = emit(*def.value, scope);
      scope.scalarDefs[e.name] = value;
      return value;
    }
    default:
      llvm_unreachable("unresolved name after sema");
    }
  case Expr::Kind::Access:
    return emitAccess(e, scope);
  case Expr::Kind::Unary: {
    if (e.unaryOp == UnaryOp::Not) {
      Value t = arith::ConstantOp::create(builder, l, builder.getI1Type(),
                                          builder.getBoolAttr(true));
      return arith::XOrIOp::create(builder, l, emit(*e.operands[0], scope), t);
    }
    ScalarType type = effective(e.type, scope);
    Value x = emitAs(*e.operands[0], type, scope);
    if (isFloatType(type))
      return arith::NegFOp::create(builder, l, x);
    Value zero = arith::ConstantOp::create(
        builder, l, x.getType(), builder.getIntegerAttr(x.getType(), 0));
    return arith::SubIOp::create(builder, l, zero, x);
  }
  case Expr::Kind::Binary:
    return emitBinary(e, scope);
  case Expr::Kind::Call:
    return emitCall(e, scope);
  case Expr::Kind::Reduce:
    assert(&e == scope.reduction && "sema leaves one reduction per definition");
    return scope.folded;
  }
  llvm_unreachable("unknown expression kind");
}

static const Expr *findTopReduction(const Expr &e) {
  if (e.kind == Expr::Kind::Reduce)
    return &e;
  for (const ExprPtr &op : e.operands)
    if (const Expr *r = findTopReduction(*op))
      return r;
  return nullptr;
}

/// The condition of the `require` at `start` as written, for messages: up
/// to the end of its statement (a newline, `;` or comment outside
/// parentheses), comments left out and each run of blanks one space.
static std::string requirementText(const char *start) {
  StringRef rest = StringRef(start).drop_front(strlen("require"));
  std::string text;
  int depth = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '#') {
      i = std::min(rest.find('\n', i), rest.size()) - 1;
      c = ' ';
    } else if ((c == '\n' || c == ';') && depth <= 0) {
      break;
    }
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!blank)
      text += c;
    else if (!text.empty() && text.back() != ' ')
      text += ' ';
  }
  return StringRef(text).rtrim().str();
}

void Emitter::emitDefine(const Statement &stmt) {
  const TensorInfo &tensor = kernel.tensors.lookup(stmt.name);
  const Expr *reduction = findTopReduction(*stmt.value);
  RankedTensorType type = tensorType(tensor);
  ScalarType storeType = tensor.type;

  alg::ReductionKindAttr kindAttr;
  ArrayAttr reduceDims;
  if (reduction) {
    reduceDims = dimsAttr(reduction->boundExtents);
    kindAttr = alg::ReductionKindAttr::get(
        builder.getContext(),
        static_cast<alg::ReductionKind>(static_cast<int>(reduction->reduction)));
  }
  auto define = alg::DefineOp::create(
      builder, loc(stmt.nameLoc), type, builder.getStringAttr(stmt.name),
      dimsAttr(tensor.dims), kindAttr, reduceDims);
  values[stmt.name] = define.getResult();

  OpBuilder::InsertionGuard guard(builder);
  Location l = loc(stmt.loc);
  // The body: one index argument per left-hand, then per reduced index.
  Scope body;
  body.block = builder.createBlock(&define.getBody());
  for (const std::string &v : stmt.lhsIndices) {
    body.indexArgs[v] = body.block->getNumArguments();
    body.block->addArgument(builder.getIndexType(), l);
  }
  if (reduction) {
    for (const std::string &v : reduction->boundIndices) {
      body.indexArgs[v] = body.block->getNumArguments();
      body.block->addArgument(builder.getIndexType(), l);
    }
    const Expr &inner = *reduction->operands[0];
    body.widenHalf = reduction->type == ScalarType::F32 &&
                     (inner.type == ScalarType::F16 ||
                      inner.type == ScalarType::BF16);
    alg::YieldOp::create(builder, l, emitAs(inner, reduction->type, body));
  } else {
    alg::YieldOp::create(builder, l, emitAs(*stmt.value, storeType, body));
    return;
  }
  if (stmt.value.get() == reduction && reduction->type == storeType)
    return; // the folded value is stored as it is: no epilogue

  Scope epilogue;
  epilogue.block = builder.createBlock(&define.getEpilogue());
  for (const std::string &v : stmt.lhsIndices) {
    epilogue.indexArgs[v] = epilogue.block->getNumArguments();
    epilogue.block->addArgument(builder.getIndexType(), l);
  }
  epilogue.reduction = reduction;
  epilogue.folded =
      epilogue.block->addArgument(typeOf(reduction->type), l);
  alg::YieldOp::create(builder, l, emitAs(*stmt.value, storeType, epilogue));
}

void Emitter::run() {
  Kernel &ast = *kernel.ast;
  builder.setInsertionPointToEnd(module.getBody());
  SmallVector<StringRef> sizes(kernel.sizes.begin(), kernel.sizes.end());
  kernelOp = alg::KernelOp::create(builder, loc(ast.loc),
                                   builder.getStringAttr(ast.name),
                                   builder.getStrArrayAttr(sizes), nullptr);
  Block *block = builder.createBlock(&kernelOp.getBody());
  builder.setInsertionPointToEnd(block);

  for (const ParamDecl &p : ast.inputs) {
    Type type = p.isTensor ? static_cast<Type>(tensorType(
                                 kernel.tensors.lookup(p.name)))
                           : typeOf(p.type);
    values[p.name] = alg::InputOp::create(builder, loc(p.loc), type,
                                          builder.getStringAttr(p.name),
                                          dimsAttr(p.dims));
  }
  Scope kernelScope;
  kernelScope.block = block;
  for (const Statement &stmt : ast.statements) {
    switch (stmt.kind) {
    case Statement::Kind::Require: {
      Value cond = emit(*stmt.value, kernelScope);
      alg::RequireOp::create(
          builder, loc(stmt.loc), cond,
          builder.getStringAttr(requirementText(stmt.loc.getPointer())));
      break;
    }
    case Statement::Kind::ScalarDef:
      break; // expanded at each use
    case Statement::Kind::TensorDef:
      emitDefine(stmt);
      break;
    }
  }
  // Divisors in index expressions must be positive: implicit requires.
  for (const auto &[divisor, text] : kernel.positiveDivisors) {
    Location l = loc(divisor->loc);
    Value v = emitAs(*divisor, ScalarType::I64, kernelScope);
    Value zero = arith::ConstantOp::create(builder, l, builder.getI64Type(),
                                           builder.getI64IntegerAttr(0));
    Value positive =
        arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sgt, v, zero);
    alg::RequireOp::create(builder, l, positive,
                           builder.getStringAttr(text + " > 0"));
  }
  SmallVector<Value> outputs;
  for (const ParamDecl &p : ast.outputs)
    outputs.push_back(values.lookup(p.name));
  alg::ReturnOp::create(builder, loc(ast.endLoc), outputs);
}

void nautilus::frontend::emitAlgKernel(ModuleOp module,
                                       const CheckedKernel &kernel,
                                       llvm::SourceMgr &sourceMgr) {
  Emitter(module, kernel, sourceMgr).run();
}

OwningOpRef<ModuleOp>
nautilus::frontend::importTensorFile(llvm::SourceMgr &sourceMgr,
                                     MLIRContext &context,
                                     llvm::raw_ostream &diagOS) {
  context.loadDialect<alg::AlgDialect, arith::ArithDialect,
                      math::MathDialect>();
  Diagnostics diags(sourceMgr, diagOS);
  StringRef buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  std::optional<Module> ast = parseModule(buffer, diags);
  if (!ast || !checkModule(*ast, diags))
    return nullptr;
  std::vector<CheckedKernel> checked;
  for (Kernel &k : ast->kernels) {
    std::optional<CheckedKernel> c = checkKernel(k, diags);
    if (!c)
      return nullptr;
    checked.push_back(std::move(*c));
  }
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(
          &context,
          sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
              ->getBufferIdentifier(),
          1, 1));
  for (const CheckedKernel &k : checked)
    emitAlgKernel(*module, k, sourceMgr);
  if (failed(verify(*module))) {
    diagOS << "internal error: the frontend emitted invalid alg IR\n";
    return nullptr;
  }
  return module;
}
