//===- AST.h - Syntax tree of a .tensor file --------------------*- C++ -*-===//
//
// The parser's output: what the user wrote, with source locations, before any
// name resolution or typing. Sema (Sema.h) checks it and annotates it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_FRONTEND_AST_H
#define NAUTILUS_FRONTEND_AST_H

#include "llvm/Support/SMLoc.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::frontend {

/// Element types of the language (LANGUAGE.md, "Kernels").
enum class ScalarType { F16, BF16, F32, F64, I8, I32, I64, Bool };

const char *scalarTypeName(ScalarType type);
std::optional<ScalarType> parseScalarType(const std::string &name);
inline bool isFloatType(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::BF16 ||
         t == ScalarType::F32 || t == ScalarType::F64;
}
inline bool isIntegerType(ScalarType t) {
  return t == ScalarType::I8 || t == ScalarType::I32 || t == ScalarType::I64;
}

/// A dimension in a signature: a size name or an integer literal.
struct DimSpec {
  std::string sizeName; // empty for a literal
  int64_t literal = 0;
  llvm::SMLoc loc;
  bool isLiteral() const { return sizeName.empty(); }
};

struct ParamDecl {
  std::string name;
  llvm::SMLoc loc;
  ScalarType type = ScalarType::F32;
  bool isTensor = false; // `x: f32` is a scalar; `x: f32[N]` a tensor
  std::vector<DimSpec> dims;
};

enum class ReductionKind { Sum, Max, Min, Prod };
const char *reductionKindName(ReductionKind kind);

enum class BinaryOp {
  Add, Sub, Mul, Div, Mod,
  Lt, Le, Gt, Ge, Eq, Ne,
  And, Or,
};
const char *binaryOpSpelling(BinaryOp op);

enum class UnaryOp { Neg, Not };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// How sema resolved an identifier.
enum class NameKind {
  Unresolved,
  IndexVar,    // an index variable of the enclosing statement
  Size,        // a size name (i64 value)
  ScalarInput, // a scalar kernel input
  ScalarDef,   // a scalar defined by `x = EXPR`
  Tensor,      // a tensor input or definition (only in Access)
};

struct Expr {
  enum class Kind {
    IntLit, FloatLit, BoolLit,
    Name,   // identifier used as a value
    Access, // T[e, ...]
    Unary, Binary,
    Call,   // f(args): functions, casts, binary max/min, where
    Reduce, // sum[i, ...](body)
  };

  Kind kind;
  llvm::SMLoc loc;

  // Literals.
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;

  // Name, Access (tensor name), Call (callee).
  std::string name;

  // Unary / Binary.
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;

  // Reduce.
  ReductionKind reduction = ReductionKind::Sum;
  std::vector<std::string> boundIndices;
  std::vector<llvm::SMLoc> boundLocs;
  /// Filled by sema: the extent of each bound index. Each reduction binds
  /// its own variables: `sum[k](A[k]) + sum[k](B[k])` may sum over two
  /// extents.
  std::vector<DimSpec> boundExtents;

  // Operands: Access indices, Unary/Binary operands, Call arguments, the
  // Reduce body (one operand).
  std::vector<ExprPtr> operands;

  // Filled by sema.
  NameKind nameKind = NameKind::Unresolved;
  ScalarType type = ScalarType::F32;
  /// For comparisons: the type both operands are promoted to.
  ScalarType operandType = ScalarType::F32;
  /// A literal whose type is still open (takes the other operand's type).
  bool untypedLiteral = false;

  Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
};

struct Statement {
  enum class Kind { TensorDef, ScalarDef, Require };
  Kind kind;
  llvm::SMLoc loc;
  std::string name; // defined name (not for Require)
  llvm::SMLoc nameLoc;
  std::vector<std::string> lhsIndices;
  std::vector<llvm::SMLoc> lhsIndexLocs;
  ExprPtr value; // the right-hand side, or the require condition
};

struct Kernel {
  std::string name;
  llvm::SMLoc loc;
  std::vector<ParamDecl> inputs;
  std::vector<ParamDecl> outputs;
  std::vector<Statement> statements;
  llvm::SMLoc endLoc; // the closing brace
};

struct Module {
  std::vector<Kernel> kernels;
};

} // namespace nautilus::frontend

#endif
