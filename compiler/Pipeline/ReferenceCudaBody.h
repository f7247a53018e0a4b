//===- ReferenceCudaBody.h - Alg regions as C++ statements -----*- C++ -*-===//
//
// The scalar half of the reference kernels (ReferenceCuda.h): the ops of an
// alg region (arith, math, alg.load, alg.apply, alg.size, a nested
// alg.reduce) as C++ statements, one variable a value, rounded to the
// value's IR type as the interpreter rounds it. The helpers the statements
// call (nautilus_round_bf16, nautilus_floordiv, ...) are the prelude's
// (referenceCudaPrelude).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_REFERENCECUDABODY_H
#define NAUTILUS_PIPELINE_REFERENCECUDABODY_H

#include "dialects/Alg/AlgOps.h"
#include "runtime/DType.h"

#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace nautilus {

/// The text every reference source starts with: what makes it compile both
/// with NVRTC and as host C++, and the helpers its statements call.
const char *referenceCudaPrelude();

/// How the statements read a tensor: the C name of its buffer parameter,
/// its dtype and the C expression of each of its extents.
struct ReferenceTensor {
  std::string param;
  rt::DType dtype = rt::DType::F32;
  std::vector<std::string> extents;
};

/// The C type of a value of IR type `type` in the statements ("float" for
/// f16, bf16 and f32), or "" when the reference has none.
std::string referenceValueType(mlir::Type type);

/// `expr` rounded (floats) or wrapped (integers) to `type`, as the
/// interpreter keeps a value of that type.
std::string referenceRoundTo(mlir::Type type, const std::string &expr);

/// The storage type of a dtype in a buffer ("unsigned short" for f16).
std::string referenceStorageType(rt::DType dtype);

/// `value` (of the IR type of dtype `dtype`) encoded for a buffer, and an
/// element of a buffer decoded to its value.
std::string referenceEncode(rt::DType dtype, const std::string &value);
std::string referenceDecode(rt::DType dtype, const std::string &element);

/// Emits the statements of regions of one kernel into `out`.
class ReferenceBodyEmitter {
public:
  ReferenceBodyEmitter(std::string &out,
                       const llvm::DenseMap<mlir::Value, ReferenceTensor> &tensors,
                       std::vector<std::string> sizeNames)
      : out(out), tensors(tensors), sizeNames(std::move(sizeNames)) {}

  /// Names `value` (a scalar defined outside the regions: a scalar input's
  /// local) for the statements that use it.
  void bind(mlir::Value value, std::string name) { names[value] = std::move(name); }

  /// Emits the ops of `block` at `indent` with its arguments named `args`;
  /// sets `yielded` to the C names of the values it yields. Returns "" or
  /// why it cannot (an unsupported op, named).
  std::string emitBlock(mlir::Block &block, llvm::ArrayRef<std::string> args,
                        unsigned indent, std::vector<std::string> &yielded);

  /// Emits a fold of `kind` over `extents` (C expressions) of the value
  /// `body` yields, its arguments being `outer` then one per extent; sets
  /// `result` to the C name of the fold rounded to `type`.
  std::string emitFold(alg::ReductionKind kind, mlir::Type type,
                       llvm::ArrayRef<std::string> extents, mlir::Block &body,
                       llvm::ArrayRef<std::string> outer, unsigned indent,
                       std::string &result);

  /// A dim as a C expression: a literal or the size's parameter.
  static std::string extentOf(mlir::Attribute dim);
  /// The C parameter of a size.
  static std::string sizeParam(llvm::StringRef size);

private:
  std::string emitOp(mlir::Operation *op, unsigned indent);
  std::string emitLoad(alg::LoadOp load, unsigned indent);
  std::string affine(mlir::AffineExpr expr, llvm::ArrayRef<std::string> dims);
  /// The C expression of `op`'s result before rounding, or "" (and
  /// `error`) when the reference does not support it.
  std::string expression(mlir::Operation *op, std::string &error);
  std::string name(mlir::Value value, std::string &error);
  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  void line(unsigned indent, const std::string &text) {
    out.append(indent, ' ').append(text).append("\n");
  }

  std::string &out;
  const llvm::DenseMap<mlir::Value, ReferenceTensor> &tensors;
  std::vector<std::string> sizeNames; // the kernel's sizes, the maps' symbols
  llvm::DenseMap<mlir::Value, std::string> names;
  /// The C names of the arguments of the block being emitted (the dims of
  /// its ops' index maps).
  std::vector<std::string> blockArgs;
  unsigned counter = 0;
};

} // namespace nautilus

#endif
