//===- SemaExpr.cpp - Typing of expressions and indices -------------------===//
//
// The checks of expressions in value position (names, tensor reads,
// reductions, calls and operators, typed by LANGUAGE.md's promotion
// rules), of tensor indices (affine in index variables and sizes, or
// indirect) and of `require` conditions.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/KernelChecker.h"
#include "runtime/DType.h"

#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

using namespace nautilus::frontend;
using namespace nautilus::frontend::detail;

/// The value of an integer expression of literals only, if it is one.
static std::optional<int64_t> constantValue(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return e.intValue;
  case Expr::Kind::Unary:
    if (e.unaryOp == UnaryOp::Neg)
      if (auto v = constantValue(*e.operands[0]))
        return -*v;
    return std::nullopt;
  case Expr::Kind::Binary: {
    auto a = constantValue(*e.operands[0]);
    auto b = constantValue(*e.operands[1]);
    if (!a || !b)
      return std::nullopt;
    switch (e.binaryOp) {
    case BinaryOp::Add: return *a + *b;
    case BinaryOp::Sub: return *a - *b;
    case BinaryOp::Mul: return *a * *b;
    case BinaryOp::Div:
      if (*b <= 0)
        return std::nullopt;
      return *a >= 0 ? *a / *b : -((-*a + *b - 1) / *b);
    case BinaryOp::Mod:
      if (*b <= 0)
        return std::nullopt;
      return ((*a % *b) + *b) % *b;
    default:
      return std::nullopt;
    }
  }
  default:
    return std::nullopt;
  }
}

static int floatRank(ScalarType t) {
  switch (t) {
  case ScalarType::F16:
  case ScalarType::BF16: return 1;
  case ScalarType::F32: return 2;
  case ScalarType::F64: return 3;
  default: return 0;
  }
}

static int intRank(ScalarType t) {
  switch (t) {
  case ScalarType::I8: return 1;
  case ScalarType::I32: return 2;
  case ScalarType::I64: return 3;
  default: return 0;
  }
}

/// The common type of two typed operands (LANGUAGE.md, "Types").
static ScalarType promoteTyped(ScalarType a, ScalarType b) {
  if (a == b)
    return a;
  bool af = isFloatType(a), bf = isFloatType(b);
  if (af && bf) {
    if (floatRank(a) == floatRank(b)) // f16 with bf16
      return ScalarType::F32;
    return floatRank(a) > floatRank(b) ? a : b;
  }
  if (af)
    return a;
  if (bf)
    return b;
  return intRank(a) >= intRank(b) ? a : b;
}

static const Expr *findKind(const Expr &e, Expr::Kind kind) {
  if (e.kind == kind)
    return &e;
  for (const ExprPtr &op : e.operands)
    if (const Expr *found = findKind(*op, kind))
      return found;
  return nullptr;
}

bool KernelChecker::requireNumeric(Expr &e, const char *what) {
  if (e.type == ScalarType::Bool)
    return error(e.loc, llvm::Twine(what) + " needs a number, not a bool; "
                                            "convert with i32(...) or "
                                            "where(...)");
  return true;
}

void KernelChecker::warnIfLiteralChanges(const Expr &literal, ScalarType type) {
  if (type == ScalarType::I8 || type == ScalarType::I32) {
    std::optional<int64_t> v = constantValue(literal);
    if (!v || literal.type != ScalarType::I64)
      return;
    int64_t wrapped =
        type == ScalarType::I8 ? int64_t(int8_t(*v)) : int64_t(int32_t(*v));
    if (wrapped != *v)
      diags.warning(literal.loc,
                    "integer literal " + llvm::Twine(*v) + " does not fit in " +
                        scalarTypeName(type) +
                        ", the other operand's type, and wraps to " +
                        llvm::Twine(wrapped) +
                        "; convert that operand (i64(...)) to use the number");
    return;
  }
  if ((type == ScalarType::F16 || type == ScalarType::BF16) &&
      literal.kind == Expr::Kind::FloatLit) {
    rt::DType dtype =
        type == ScalarType::F16 ? rt::DType::F16 : rt::DType::BF16;
    if (!std::isfinite(literal.floatValue) ||
        !std::isinf(rt::roundToDType(literal.floatValue, dtype)))
      return;
    char text[32];
    std::snprintf(text, sizeof text, "%g", literal.floatValue);
    diags.warning(literal.loc,
                  "float literal " + llvm::Twine(text) +
                      " is beyond the range of " + scalarTypeName(type) +
                      ", the other operand's type, and becomes infinite; "
                      "convert that operand (f32(...)) to use the number");
  }
}

void KernelChecker::promote(const Expr &a, const Expr &b, ScalarType &type,
                            bool &untyped) {
  untyped = a.untypedLiteral && b.untypedLiteral;
  if (a.untypedLiteral && !b.untypedLiteral) {
    type = isFloatType(a.type) && !isFloatType(b.type) ? ScalarType::F32
                                                       : b.type;
    warnIfLiteralChanges(a, type);
    return;
  }
  if (b.untypedLiteral && !a.untypedLiteral) {
    type = isFloatType(b.type) && !isFloatType(a.type) ? ScalarType::F32
                                                       : a.type;
    warnIfLiteralChanges(b, type);
    return;
  }
  type = promoteTyped(a.type, b.type);
}

bool KernelChecker::checkValue(Expr &e) {
  switch (e.kind) {
  case Expr::Kind::IntLit:
    e.type = ScalarType::I64;
    e.untypedLiteral = true;
    return true;
  case Expr::Kind::FloatLit:
    e.type = ScalarType::F32;
    e.untypedLiteral = true;
    return true;
  case Expr::Kind::BoolLit:
    e.type = ScalarType::Bool;
    return true;
  case Expr::Kind::Name:
    return checkName(e);
  case Expr::Kind::Access:
    return checkAccess(e);
  case Expr::Kind::Reduce:
    return checkReduce(e);
  case Expr::Kind::Call:
    return checkCall(e);
  case Expr::Kind::Binary:
    return checkBinary(e);
  case Expr::Kind::Unary: {
    Expr &op = *e.operands[0];
    if (!checkValue(op))
      return false;
    if (e.unaryOp == UnaryOp::Not) {
      if (op.type != ScalarType::Bool)
        return error(e.loc, llvm::Twine("'not' needs a bool operand, not ") +
                                scalarTypeName(op.type));
      e.type = ScalarType::Bool;
      return true;
    }
    if (!requireNumeric(op, "unary '-'"))
      return false;
    e.type = op.type;
    e.untypedLiteral = op.untypedLiteral;
    return true;
  }
  }
  return false;
}

bool KernelChecker::checkName(Expr &e) {
  const std::string &n = e.name;
  if (isIndexVarInScope(n)) {
    e.nameKind = NameKind::IndexVar;
    e.type = ScalarType::I64;
    return true;
  }
  if (sizeNames.count(n)) {
    e.nameKind = NameKind::Size;
    e.type = ScalarType::I64;
    return true;
  }
  if (auto it = out.scalarInputs.find(n); it != out.scalarInputs.end()) {
    e.nameKind = NameKind::ScalarInput;
    e.type = it->second;
    return true;
  }
  if (auto it = out.scalarDefs.find(n); it != out.scalarDefs.end()) {
    e.nameKind = NameKind::ScalarDef;
    e.type = out.statements[it->second].valueType;
    e.untypedLiteral =
        kernel.statements[it->second].value->untypedLiteral;
    return true;
  }
  if (auto it = out.tensors.find(n); it != out.tensors.end()) {
    const TensorInfo &t = it->second;
    bool available = t.isInput || t.definedBy >= 0;
    if (available && t.dims.empty()) {
      // A rank-0 tensor reads as a value.
      e.kind = Expr::Kind::Access;
      return checkAccess(e);
    }
    if (available || t.isOutput)
      return error(e.loc, "tensor '" + n + "' needs indices here: write " + n +
                              "[...]");
  }
  if (n == kernel.statements[current].name &&
      kernel.statements[current].kind != Statement::Kind::Require)
    return error(e.loc, "'" + n + "' is used in its own definition");
  if (isDefinedLater(n))
    return error(e.loc, "'" + n + "' is used before its definition; define "
                                  "it earlier in the kernel");
  if (parseScalarType(n) || isKnownFunction(n))
    return error(e.loc, "'" + n + "' is a function; call it as " + n + "(...)");
  return error(e.loc, "unknown name '" + n + "'");
}

bool KernelChecker::checkAccess(Expr &e) {
  const std::string &n = e.name;
  auto it = out.tensors.find(n);
  const Statement &stmt = kernel.statements[current];
  if (it == out.tensors.end() ||
      (!it->second.isInput && it->second.definedBy < 0)) {
    if (n == stmt.name && stmt.kind != Statement::Kind::Require)
      return error(e.loc, "'" + n + "' is used in its own definition");
    if (isDefinedLater(n))
      return error(e.loc, "'" + n + "' is used before its definition; define "
                                    "it earlier in the kernel");
    if (it != out.tensors.end())
      return error(e.loc, "output '" + n + "' is read before it is defined");
    if (sizeNames.count(n) || out.scalarInputs.count(n) ||
        out.scalarDefs.count(n))
      return error(e.loc, "'" + n + "' is not a tensor and cannot be indexed");
    return error(e.loc, "unknown tensor '" + n + "'");
  }
  const TensorInfo &t = it->second;
  if (e.operands.size() != t.dims.size())
    return error(e.loc, "tensor '" + n + "' has rank " +
                            llvm::Twine(t.dims.size()) +
                            " but is indexed with " +
                            llvm::Twine(e.operands.size()) + " indices");
  for (unsigned i = 0; i < e.operands.size(); ++i)
    if (!checkIndex(*e.operands[i], t, i))
      return false;
  e.nameKind = NameKind::Tensor;
  e.type = t.type;
  return true;
}

bool KernelChecker::mentionsRankZeroTensor(const Expr &e) const {
  if (e.kind == Expr::Kind::Name && !isIndexVarInScope(e.name)) {
    auto it = out.tensors.find(e.name);
    if (it != out.tensors.end() && it->second.dims.empty() &&
        (it->second.isInput || it->second.definedBy >= 0))
      return true;
  }
  return llvm::any_of(e.operands, [&](const ExprPtr &op) {
    return mentionsRankZeroTensor(*op);
  });
}

bool KernelChecker::checkIndex(Expr &index, const TensorInfo &tensor,
                               unsigned dim) {
  if (index.kind == Expr::Kind::Name && isIndexVarInScope(index.name)) {
    index.nameKind = NameKind::IndexVar;
    index.type = ScalarType::I64;
    return recordExtent(index.name, tensor.dims[dim], index.loc);
  }
  if (const Expr *r = findKind(index, Expr::Kind::Reduce))
    return error(r->loc, "a reduction cannot appear inside an index; define "
                         "it as a tensor first");
  // An indirect index: a value read from an integer tensor, or a scalar
  // computed from tensors (a rank-0 tensor, read as a value).
  bool indirect =
      findKind(index, Expr::Kind::Access) || mentionsRankZeroTensor(index);
  if (indirect) {
    if (!checkValue(index))
      return false;
    const Expr *access = findKind(index, Expr::Kind::Access);
    if (!isIntegerType(access->type))
      return error(access->loc,
                   "an indirect index must be an integer, but '" +
                       access->name + "' has dtype " +
                       scalarTypeName(access->type) +
                       "; an index must come from an integer tensor");
    if (!isIntegerType(index.type))
      return error(index.loc, llvm::Twine("an indirect index must be an "
                                          "integer, but this one is ") +
                                  scalarTypeName(index.type));
    return true;
  }
  bool hasIndexVar = false;
  return checkAffineIndex(index, hasIndexVar);
}

bool KernelChecker::checkAffineIndex(Expr &e, bool &hasIndexVar) {
  hasIndexVar = false;
  e.type = ScalarType::I64;
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return true;
  case Expr::Kind::FloatLit:
  case Expr::Kind::BoolLit:
    return error(e.loc, "an index must be an integer expression");
  case Expr::Kind::Name:
    if (isIndexVarInScope(e.name)) {
      e.nameKind = NameKind::IndexVar;
      hasIndexVar = true;
      return true;
    }
    if (sizeNames.count(e.name)) {
      e.nameKind = NameKind::Size;
      return true;
    }
    if (out.scalarInputs.count(e.name) || out.scalarDefs.count(e.name))
      return error(e.loc, "scalar '" + e.name +
                              "' cannot be used in an index: an index is "
                              "affine in index variables and sizes");
    if (out.tensors.count(e.name))
      return error(e.loc, "tensor '" + e.name + "' needs indices here");
    return error(e.loc, "index '" + e.name +
                            "' is not bound: there is no implicit summation; "
                            "put it on the left-hand side or reduce over it, "
                            "e.g. sum[" + e.name + "](...)");
  case Expr::Kind::Unary:
    if (e.unaryOp != UnaryOp::Neg)
      return error(e.loc, "an index must be an integer expression");
    return checkAffineIndex(*e.operands[0], hasIndexVar);
  case Expr::Kind::Binary: {
    bool lv = false, rv = false;
    if (!checkAffineIndex(*e.operands[0], lv) ||
        !checkAffineIndex(*e.operands[1], rv))
      return false;
    hasIndexVar = lv || rv;
    switch (e.binaryOp) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
      return true;
    case BinaryOp::Mul:
      if (lv && rv)
        return error(e.loc, "index is not affine: it multiplies two index "
                            "variables");
      return true;
    case BinaryOp::Div:
    case BinaryOp::Mod:
      if (rv)
        return error(e.loc, llvm::Twine("index is not affine: '") +
                                binaryOpSpelling(e.binaryOp) +
                                "' by an expression of index variables");
      if (std::optional<int64_t> divisor = constantValue(*e.operands[1])) {
        if (*divisor <= 0)
          return error(e.operands[1]->loc,
                       llvm::Twine("'") + binaryOpSpelling(e.binaryOp) +
                           "' in an index needs a positive divisor, but "
                           "this one is " + llvm::Twine(*divisor));
        return true;
      }
      if (containsKind(*e.operands[1], Expr::Kind::Binary) ||
          e.operands[1]->kind == Expr::Kind::Name ||
          e.operands[1]->kind == Expr::Kind::Unary) {
        // A size expression: positive at run time, an implicit require.
        std::string text = exprText(*e.operands[1]);
        if (llvm::none_of(out.positiveDivisors,
                          [&](auto &d) { return d.second == text; }))
          out.positiveDivisors.push_back({e.operands[1].get(), text});
      }
      return true;
    default:
      return error(e.loc, "an index must be an integer expression, not a "
                          "comparison or logic");
    }
  }
  case Expr::Kind::Call:
    return error(e.loc, "index is not affine: it calls '" + e.name + "'");
  case Expr::Kind::Access:
  case Expr::Kind::Reduce:
    break;
  }
  return error(e.loc, "unsupported index expression");
}

bool KernelChecker::checkReduce(Expr &e) {
  std::set<std::string> seen;
  for (unsigned i = 0; i < e.boundIndices.size(); ++i) {
    const std::string &v = e.boundIndices[i];
    llvm::SMLoc loc = e.boundLocs[i];
    if (lhs.count(v))
      return error(loc, "index '" + v + "' is bound by " +
                            reductionKindName(e.reduction) +
                            "[...] and must not appear on the left-hand side");
    if (isIndexVarInScope(v) || seen.count(v))
      return error(loc, "index '" + v + "' is already bound");
    if (!checkIndexVariableName(v, loc, "cannot be reduced over"))
      return false;
    seen.insert(v);
  }
  // A name bound by an earlier reduction of the statement (not an
  // enclosing one) is a new variable here, with an extent of its own.
  for (const std::string &v : e.boundIndices) {
    extents->erase(v);
    scope.push_back(v);
  }
  bool ok = checkValue(*e.operands[0]);
  scope.resize(scope.size() - e.boundIndices.size());
  if (!ok)
    return false;
  for (unsigned i = 0; i < e.boundIndices.size(); ++i)
    if (!extents->count(e.boundIndices[i]))
      return error(e.boundLocs[i],
                   "cannot infer the extent of index '" + e.boundIndices[i] +
                       "': it never indexes a tensor dimension directly");
  e.boundExtents.clear();
  for (const std::string &v : e.boundIndices)
    e.boundExtents.push_back(extents->at(v));
  Expr &body = *e.operands[0];
  if (body.type == ScalarType::Bool)
    return error(e.loc, llvm::Twine("cannot ") +
                            reductionKindName(e.reduction) +
                            " booleans; convert with i32(...)");
  ScalarType t = body.type;
  if (body.untypedLiteral && isIntegerType(t))
    t = ScalarType::I64;
  if (t == ScalarType::F16 || t == ScalarType::BF16)
    t = ScalarType::F32; // LANGUAGE.md: half-precision sums accumulate in f32
  e.type = t;
  return true;
}

bool KernelChecker::checkCall(Expr &e) {
  const std::string &f = e.name;
  auto arity = [&](unsigned n) {
    if (e.operands.size() == n)
      return true;
    return error(e.loc, "'" + f + "' takes " + llvm::Twine(n) + " argument" +
                            (n == 1 ? "" : "s") + ", but " +
                            llvm::Twine(e.operands.size()) + " given");
  };
  if (!isKnownFunction(f)) {
    if (out.tensors.count(f))
      return error(e.loc, "'" + f + "' is a tensor: index it with [...], "
                                    "not (...)");
    return error(e.loc, "unknown function '" + f +
                            "'; known: exp, exp2, log, log2, sqrt, rsqrt, "
                            "tanh, sigmoid, erf, abs, silu, gelu, max, min, "
                            "pow, where, and casts such as f32(...)");
  }
  for (ExprPtr &op : e.operands)
    if (!checkValue(*op))
      return false;

  if (auto cast = parseScalarType(f)) {
    if (!arity(1))
      return false;
    e.type = *cast;
    return true;
  }
  if (f == "where") {
    if (!arity(3))
      return false;
    if (e.operands[0]->type != ScalarType::Bool)
      return error(e.operands[0]->loc,
                   llvm::Twine("the condition of 'where' must be a bool, not ") +
                       scalarTypeName(e.operands[0]->type));
    Expr &a = *e.operands[1], &b = *e.operands[2];
    if ((a.type == ScalarType::Bool) != (b.type == ScalarType::Bool))
      return error(e.loc, "the two branches of 'where' must both be numbers "
                          "or both be bools");
    promote(a, b, e.type, e.untypedLiteral);
    return true;
  }
  if (f == "max" || f == "min" || f == "pow") {
    if (!arity(2))
      return false;
    Expr &a = *e.operands[0], &b = *e.operands[1];
    if (!requireNumeric(a, f.c_str()) || !requireNumeric(b, f.c_str()))
      return false;
    promote(a, b, e.type, e.untypedLiteral);
    if (f == "pow" && !isFloatType(e.type)) {
      e.type = ScalarType::F32;
      e.untypedLiteral = false;
    }
    return true;
  }
  // Unary math functions.
  if (!arity(1))
    return false;
  Expr &a = *e.operands[0];
  if (!requireNumeric(a, f.c_str()))
    return false;
  e.type = a.type;
  e.untypedLiteral = a.untypedLiteral;
  if (f != "abs" && !isFloatType(a.type)) {
    e.type = ScalarType::F32;
    e.untypedLiteral = false;
  }
  return true;
}

bool KernelChecker::checkBinary(Expr &e) {
  Expr &a = *e.operands[0], &b = *e.operands[1];
  if (!checkValue(a) || !checkValue(b))
    return false;
  const char *spelling = binaryOpSpelling(e.binaryOp);
  std::string what = std::string("'") + spelling + "'";
  switch (e.binaryOp) {
  case BinaryOp::And:
  case BinaryOp::Or:
    if (a.type != ScalarType::Bool || b.type != ScalarType::Bool)
      return error(e.loc, what + " needs bool operands; compare numbers first");
    e.type = ScalarType::Bool;
    return true;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    if ((a.type == ScalarType::Bool) != (b.type == ScalarType::Bool))
      return error(e.loc, "cannot compare a bool with a number");
    promote(a, b, e.operandType, e.untypedLiteral);
    if (a.untypedLiteral && b.untypedLiteral && isIntegerType(e.operandType))
      e.operandType = ScalarType::I64;
    e.untypedLiteral = false;
    e.type = ScalarType::Bool;
    return true;
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
    if (!requireNumeric(a, what.c_str()) || !requireNumeric(b, what.c_str()))
      return false;
    promote(a, b, e.operandType, e.untypedLiteral);
    e.untypedLiteral = false;
    e.type = ScalarType::Bool;
    return true;
  case BinaryOp::Mod:
    if (!requireNumeric(a, what.c_str()) || !requireNumeric(b, what.c_str()))
      return false;
    promote(a, b, e.type, e.untypedLiteral);
    if (!isIntegerType(e.type))
      return error(e.loc, "'%' needs integer operands");
    return true;
  default:
    if (!requireNumeric(a, what.c_str()) || !requireNumeric(b, what.c_str()))
      return false;
    promote(a, b, e.type, e.untypedLiteral);
    return true;
  }
}

bool KernelChecker::checkSizeCondition(Expr &e) {
  // A require condition speaks of sizes and integer literals only.
  std::function<bool(const Expr &)> onlySizes = [&](const Expr &x) -> bool {
    switch (x.kind) {
    case Expr::Kind::IntLit:
    case Expr::Kind::BoolLit:
      return true;
    case Expr::Kind::Name:
      if (sizeNames.count(x.name))
        return true;
      return error(x.loc, "'require' may only use sizes and integer "
                          "constants; '" + x.name + "' is not a size");
    case Expr::Kind::Unary:
    case Expr::Kind::Binary:
      return llvm::all_of(x.operands,
                          [&](const ExprPtr &op) { return onlySizes(*op); });
    default:
      return error(x.loc, "'require' may only use sizes and integer "
                          "constants with + - * / % and comparisons");
    }
  };
  if (!onlySizes(e) || !checkValue(e))
    return false;
  if (e.type != ScalarType::Bool)
    return error(e.loc, "'require' needs a condition, such as 'H % G == 0'");
  return true;
}
