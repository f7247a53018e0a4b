//===- Sema.h - Name resolution, typing and extent inference ----*- C++ -*-===//
//
// Checks a parsed kernel against LANGUAGE.md and annotates it: every name is
// resolved, every expression typed, every index variable given an extent.
// Sema also normalises reductions so that each tensor definition holds at most
// one reduction, at the top of its expression tree modulo an elementwise
// epilogue: a reduction nested inside another, or a second reduction in the
// same definition, is hoisted into a fresh intermediate definition. The alg
// dialect (one op per definition) is built from that normal form.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_FRONTEND_SEMA_H
#define NAUTILUS_FRONTEND_SEMA_H

#include "compiler/Frontend/AST.h"
#include "llvm/ADT/StringMap.h"
#include <map>

namespace nautilus::frontend {

class Diagnostics;

struct TensorInfo {
  std::string name;
  ScalarType type = ScalarType::F32;
  std::vector<DimSpec> dims;
  bool isInput = false;
  bool isOutput = false;
  int definedBy = -1; // statement index, -1 for inputs
};

/// Per-statement facts sema derives.
struct StatementInfo {
  /// Extent of every index variable of the statement (left-hand and bound).
  std::map<std::string, DimSpec> extents;
  ScalarType valueType = ScalarType::F32;
};

struct CheckedKernel {
  Kernel *ast = nullptr;
  /// Size names in order of first appearance in the signature.
  std::vector<std::string> sizes;
  llvm::StringMap<TensorInfo> tensors;
  llvm::StringMap<ScalarType> scalarInputs;
  /// Scalar definitions by name: index of the defining statement.
  llvm::StringMap<unsigned> scalarDefs;
  /// Parallel to ast->statements (after normalisation).
  std::vector<StatementInfo> statements;
  /// Size expressions that divide in an index (`h / (H / G)`): each must be
  /// positive, an implicit `require`. With their source text.
  std::vector<std::pair<const Expr *, std::string>> positiveDivisors;
};

/// The source form of an expression (fully parenthesised where nested).
std::string exprText(const Expr &e);

/// Checks `kernel` in place (annotating its expressions and adding hoisted
/// intermediate definitions). Returns std::nullopt after reporting errors.
std::optional<CheckedKernel> checkKernel(Kernel &kernel, Diagnostics &diags);

/// Checks kernel names across a file (duplicates).
bool checkModule(Module &module, Diagnostics &diags);

/// The result type of a function call `name(args)`, for sema and tests.
bool isKnownFunction(llvm::StringRef name);

} // namespace nautilus::frontend

#endif
