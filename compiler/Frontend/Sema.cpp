//===- Sema.cpp - Name resolution, typing and extent inference ------------===//
//
// The checker's driver and its checks of the signature and of each
// statement (names, left-hand indices, extents), and the entry points.
// SemaExpr.cpp checks expressions and indices; SemaNormalise.cpp
// normalises reductions.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Sema.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/KernelChecker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace nautilus::frontend;
using namespace nautilus::frontend::detail;

//===----------------------------------------------------------------------===//
// Small helpers shared with the emitter.
//===----------------------------------------------------------------------===//

const char *nautilus::frontend::scalarTypeName(ScalarType type) {
  switch (type) {
  case ScalarType::F16: return "f16";
  case ScalarType::BF16: return "bf16";
  case ScalarType::F32: return "f32";
  case ScalarType::F64: return "f64";
  case ScalarType::I8: return "i8";
  case ScalarType::I32: return "i32";
  case ScalarType::I64: return "i64";
  case ScalarType::Bool: return "bool";
  }
  return "?";
}

std::optional<ScalarType>
nautilus::frontend::parseScalarType(const std::string &name) {
  return llvm::StringSwitch<std::optional<ScalarType>>(name)
      .Case("f16", ScalarType::F16)
      .Case("bf16", ScalarType::BF16)
      .Case("f32", ScalarType::F32)
      .Case("f64", ScalarType::F64)
      .Case("i8", ScalarType::I8)
      .Case("i32", ScalarType::I32)
      .Case("i64", ScalarType::I64)
      .Case("bool", ScalarType::Bool)
      .Default(std::nullopt);
}

const char *nautilus::frontend::reductionKindName(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum: return "sum";
  case ReductionKind::Max: return "max";
  case ReductionKind::Min: return "min";
  case ReductionKind::Prod: return "prod";
  }
  return "?";
}

const char *nautilus::frontend::binaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Ge: return ">=";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::And: return "and";
  case BinaryOp::Or: return "or";
  }
  return "?";
}

static const char *const kUnaryFunctions[] = {
    "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh",
    "sigmoid", "erf", "abs", "silu", "gelu"};

bool nautilus::frontend::isKnownFunction(llvm::StringRef name) {
  if (llvm::is_contained(kUnaryFunctions, name))
    return true;
  if (name == "max" || name == "min" || name == "pow" || name == "where")
    return true;
  return parseScalarType(name.str()).has_value();
}

std::string nautilus::frontend::exprText(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return std::to_string(e.intValue);
  case Expr::Kind::Name:
    return e.name;
  case Expr::Kind::Unary:
    return (e.unaryOp == UnaryOp::Neg ? "-" : "not ") +
           exprText(*e.operands[0]);
  case Expr::Kind::Binary: {
    auto side = [](const Expr &x) {
      std::string t = exprText(x);
      return x.kind == Expr::Kind::Binary ? "(" + t + ")" : t;
    };
    return side(*e.operands[0]) + " " + binaryOpSpelling(e.binaryOp) + " " +
           side(*e.operands[1]);
  }
  default:
    return "...";
  }
}

static std::string dimText(const DimSpec &d) {
  return d.isLiteral() ? std::to_string(d.literal) : d.sizeName;
}

static bool sameDim(const DimSpec &a, const DimSpec &b) {
  return a.isLiteral() == b.isLiteral() &&
         (a.isLiteral() ? a.literal == b.literal : a.sizeName == b.sizeName);
}

//===----------------------------------------------------------------------===//
// The checker.
//===----------------------------------------------------------------------===//

std::optional<CheckedKernel> KernelChecker::run() {
  out.ast = &kernel;
  if (!checkSignature())
    return std::nullopt;
  out.statements.resize(kernel.statements.size());
  bool ok = true;
  for (unsigned i = 0; i < kernel.statements.size(); ++i)
    ok &= checkStatement(i);
  if (!ok)
    return std::nullopt;
  for (const ParamDecl &o : kernel.outputs) {
    if (out.tensors[o.name].definedBy < 0)
      ok &= error(o.loc, "output '" + o.name +
                             "' is never defined; add a statement '" + o.name +
                             "[...] = ...' to the kernel body");
  }
  if (!ok)
    return std::nullopt;
  normalise();
  return std::move(out);
}

bool KernelChecker::declareParam(const ParamDecl &p, bool isInput) {
  if (parseScalarType(p.name))
    return error(p.loc, "'" + p.name + "' is a dtype name and cannot name " +
                            (isInput ? "an input" : "an output"));
  if (out.tensors.count(p.name) || out.scalarInputs.count(p.name))
    return error(p.loc, "'" + p.name + "' is declared twice in the signature");
  if (!p.isTensor) {
    out.scalarInputs[p.name] = p.type;
    return true;
  }
  TensorInfo info;
  info.name = p.name;
  info.type = p.type;
  info.dims = p.dims;
  info.isInput = isInput;
  info.isOutput = !isInput;
  out.tensors[p.name] = info;
  for (const DimSpec &d : p.dims) {
    if (d.isLiteral() || sizeNames.count(d.sizeName))
      continue;
    sizeNames.insert(d.sizeName);
    out.sizes.push_back(d.sizeName);
  }
  return true;
}

bool KernelChecker::checkSignature() {
  for (const ParamDecl &p : kernel.inputs)
    if (!declareParam(p, /*isInput=*/true))
      return false;
  for (const ParamDecl &p : kernel.outputs)
    if (!declareParam(p, /*isInput=*/false))
      return false;
  // A size name may not double as a tensor or scalar name.
  for (const ParamDecl &p : llvm::concat<const ParamDecl>(kernel.inputs,
                                                          kernel.outputs))
    if (sizeNames.count(p.name))
      return error(p.loc, "'" + p.name +
                              "' names both a size and a parameter; rename "
                              "one of them");
  return true;
}

bool KernelChecker::checkIndexVariableName(const std::string &v,
                                           llvm::SMLoc loc, const char *use) {
  if (parseScalarType(v))
    return error(loc, "'" + v + "' is a dtype name and cannot be an index "
                                "variable");
  if (sizeNames.count(v) || out.tensors.count(v) ||
      out.scalarInputs.count(v) || out.scalarDefs.count(v))
    return error(loc, "'" + v + "' names a " +
                          (sizeNames.count(v) ? "size" : "tensor or scalar") +
                          " and " + use);
  return true;
}

bool KernelChecker::isDefinedLater(const std::string &name) const {
  for (unsigned i = current + 1; i < kernel.statements.size(); ++i)
    if (kernel.statements[i].kind != Statement::Kind::Require &&
        kernel.statements[i].name == name)
      return true;
  return false;
}

bool KernelChecker::checkFreshName(const std::string &name, llvm::SMLoc loc) {
  if (parseScalarType(name))
    return error(loc, "'" + name + "' is a dtype name and cannot be defined");
  if (sizeNames.count(name))
    return error(loc, "'" + name + "' is a size of the kernel and cannot be "
                                   "defined");
  if (out.scalarInputs.count(name))
    return error(loc, "'" + name + "' is a scalar input and cannot be "
                                   "redefined");
  auto it = out.tensors.find(name);
  if (it != out.tensors.end()) {
    if (it->second.isInput)
      return error(loc, "'" + name + "' is an input and cannot be redefined");
    if (it->second.definedBy >= 0) {
      error(loc, "'" + name + "' is already defined");
      diags.note(kernel.statements[it->second.definedBy].nameLoc,
                 "previous definition is here");
      return false;
    }
  }
  auto sit = out.scalarDefs.find(name);
  if (sit != out.scalarDefs.end()) {
    error(loc, "'" + name + "' is already defined");
    diags.note(kernel.statements[sit->second].nameLoc,
               "previous definition is here");
    return false;
  }
  return true;
}

bool KernelChecker::recordExtent(const std::string &var, const DimSpec &dim,
                                 llvm::SMLoc loc) {
  auto [it, inserted] = extents->emplace(var, dim);
  if (inserted || sameDim(it->second, dim))
    return true;
  return error(loc, "conflicting extents for index '" + var + "': " +
                        dimText(it->second) + " and " + dimText(dim));
}

bool nautilus::frontend::detail::containsKind(const Expr &e,
                                              Expr::Kind kind) {
  if (e.kind == kind)
    return true;
  for (const ExprPtr &op : e.operands)
    if (containsKind(*op, kind))
      return true;
  return false;
}

bool KernelChecker::checkStatement(unsigned index) {
  current = index;
  Statement &stmt = kernel.statements[index];
  StatementInfo &info = out.statements[index];
  scope.clear();
  lhs.clear();
  extents = &info.extents;

  if (stmt.kind == Statement::Kind::Require)
    return checkSizeCondition(*stmt.value);

  if (!checkFreshName(stmt.name, stmt.nameLoc))
    return false;

  auto outIt = out.tensors.find(stmt.name);
  TensorInfo *output = outIt != out.tensors.end() ? &outIt->second : nullptr;

  if (stmt.kind == Statement::Kind::ScalarDef) {
    if (output)
      return error(stmt.nameLoc, "output '" + stmt.name +
                                     "' is a tensor: define it with indices, "
                                     "'" + stmt.name + "[...] = ...'");
    if (!checkValue(*stmt.value))
      return false;
    if (containsKind(*stmt.value, Expr::Kind::Access) ||
        containsKind(*stmt.value, Expr::Kind::Reduce)) {
      // A scalar computed from tensors is a rank-0 tensor definition.
      stmt.kind = Statement::Kind::TensorDef;
      TensorInfo t;
      t.name = stmt.name;
      t.type = stmt.value->untypedLiteral && isIntegerType(stmt.value->type)
                   ? ScalarType::I64
                   : stmt.value->type;
      t.definedBy = index;
      out.tensors[stmt.name] = t;
    } else {
      out.scalarDefs[stmt.name] = index;
    }
    info.valueType = stmt.value->type;
    return checkReadsInRange(*stmt.value, {}, /*guarded=*/false);
  }

  // A tensor definition.
  if (output && output->dims.size() != stmt.lhsIndices.size())
    return error(stmt.nameLoc,
                 "output '" + stmt.name + "' has rank " +
                     llvm::Twine(output->dims.size()) + " but is defined with " +
                     llvm::Twine(stmt.lhsIndices.size()) + " indices");
  for (unsigned i = 0; i < stmt.lhsIndices.size(); ++i) {
    const std::string &v = stmt.lhsIndices[i];
    llvm::SMLoc loc = stmt.lhsIndexLocs[i];
    if (lhs.count(v))
      return error(loc, "index '" + v +
                            "' appears twice on the left-hand side");
    if (!checkIndexVariableName(v, loc, "cannot be an index variable"))
      return false;
    lhs.insert(v);
    scope.push_back(v);
    if (output && !recordExtent(v, output->dims[i], loc))
      return false;
  }
  if (!checkValue(*stmt.value))
    return false;
  for (unsigned i = 0; i < stmt.lhsIndices.size(); ++i)
    if (!info.extents.count(stmt.lhsIndices[i]))
      return error(stmt.lhsIndexLocs[i],
                   "cannot infer the extent of index '" + stmt.lhsIndices[i] +
                       "': it never indexes a tensor dimension directly");
  if (!checkReadsInRange(*stmt.value, info.extents, /*guarded=*/false))
    return false;
  ScalarType valueType = stmt.value->type;
  if (stmt.value->untypedLiteral && isIntegerType(valueType))
    valueType = ScalarType::I64;
  info.valueType = valueType;

  TensorInfo t;
  t.name = stmt.name;
  t.type = output ? output->type : valueType;
  for (const std::string &v : stmt.lhsIndices)
    t.dims.push_back(info.extents[v]);
  t.isOutput = output != nullptr;
  t.definedBy = index;
  out.tensors[stmt.name] = t;
  return true;
}

std::optional<CheckedKernel>
nautilus::frontend::checkKernel(Kernel &kernel, Diagnostics &diags) {
  return KernelChecker(kernel, diags).run();
}

bool nautilus::frontend::checkModule(Module &module, Diagnostics &diags) {
  std::map<std::string, llvm::SMLoc> seen;
  for (const Kernel &k : module.kernels) {
    if (parseScalarType(k.name)) {
      diags.error(k.loc, "'" + k.name + "' is a dtype name and cannot name "
                                        "a kernel");
      return false;
    }
    auto [it, inserted] = seen.emplace(k.name, k.loc);
    if (!inserted) {
      diags.error(k.loc, "kernel '" + k.name + "' is defined twice");
      diags.note(it->second, "previous definition is here");
      return false;
    }
  }
  return true;
}
