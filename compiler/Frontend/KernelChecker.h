//===- KernelChecker.h - The checker behind Sema ----------------*- C++ -*-===//
//
// Private to Sema: the checker of one kernel, which Sema.cpp (signature
// and statements), SemaExpr.cpp (expressions and indices) and
// SemaNormalise.cpp (normalisation of reductions) implement together.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_FRONTEND_KERNELCHECKER_H
#define NAUTILUS_FRONTEND_KERNELCHECKER_H

#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nautilus::frontend::detail {

/// Whether `e` or an expression nested in it is of `kind`.
bool containsKind(const Expr &e, Expr::Kind kind);

/// Checks one kernel against LANGUAGE.md and annotates it (see Sema.h).
class KernelChecker {
public:
  KernelChecker(Kernel &kernel, Diagnostics &diags)
      : kernel(kernel), diags(diags) {}

  std::optional<CheckedKernel> run();

private:
  bool error(llvm::SMLoc loc, const llvm::Twine &message) {
    diags.error(loc, message);
    return false;
  }

  // The signature and the statements (Sema.cpp).
  bool checkSignature();
  bool declareParam(const ParamDecl &p, bool isInput);
  bool checkStatement(unsigned index);
  bool checkFreshName(const std::string &name, llvm::SMLoc loc);

  // Expressions in value position (SemaExpr.cpp).
  bool checkValue(Expr &e);
  bool checkName(Expr &e);
  bool checkAccess(Expr &e);
  /// Whether `e` reads a rank-0 tensor by its name (a scalar computed from
  /// tensors), which makes an index that holds it indirect.
  bool mentionsRankZeroTensor(const Expr &e) const;
  bool checkIndex(Expr &index, const TensorInfo &tensor, unsigned dim);
  bool checkAffineIndex(Expr &e, bool &hasIndexVar);
  bool checkReduce(Expr &e);
  /// Errors for a read that no `where` guards and that is out of range at
  /// every point (SemaBounds.cpp); `extents` of the index variables in
  /// scope.
  bool checkReadsInRange(const Expr &e,
                         const std::map<std::string, DimSpec> &extents,
                         bool guarded);
  bool checkCall(Expr &e);
  bool checkBinary(Expr &e);
  /// The common type of two checked operands (LANGUAGE.md, "Types"), and
  /// whether it is still an untyped literal's.
  void promote(const Expr &a, const Expr &b, ScalarType &type, bool &untyped);
  /// A warning where a literal that takes `type` changes its value there
  /// (an integer that wraps in i8/i32, a float past f16's or bf16's range).
  void warnIfLiteralChanges(const Expr &literal, ScalarType type);
  bool requireNumeric(Expr &e, const char *what);
  bool checkSizeCondition(Expr &e);

  // Scopes and extents (Sema.cpp).
  bool recordExtent(const std::string &var, const DimSpec &dim,
                    llvm::SMLoc loc);
  bool isIndexVarInScope(const std::string &name) const {
    return llvm::is_contained(scope, name);
  }
  bool isDefinedLater(const std::string &name) const;
  /// That `v` may name an index variable: not a dtype, a size, a tensor or
  /// a scalar (`use` ends the message: "cannot be reduced over").
  bool checkIndexVariableName(const std::string &v, llvm::SMLoc loc,
                              const char *use);

  // Normalisation of reductions (SemaNormalise.cpp).
  void normalise();
  void normaliseStatement(Statement stmt, StatementInfo info,
                          std::vector<Statement> &outStmts,
                          std::vector<StatementInfo> &outInfos);
  void hoistNested(Expr &e, std::vector<std::string> &enclosing, bool hoistHere,
                   const Statement &stmt, StatementInfo &info,
                   std::vector<Statement> &outStmts,
                   std::vector<StatementInfo> &outInfos);
  std::string freshName(const std::string &base, ReductionKind kind);

  Kernel &kernel;
  Diagnostics &diags;
  CheckedKernel out;
  llvm::StringSet<> sizeNames;

  // State of the statement being checked.
  unsigned current = 0;
  std::vector<std::string> scope; // left-hand indices, then bound indices
  std::set<std::string> lhs;
  std::map<std::string, DimSpec> *extents = nullptr;
  unsigned hoisted = 0;
};

} // namespace nautilus::frontend::detail

#endif
