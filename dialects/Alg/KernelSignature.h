//===- KernelSignature.h - A kernel's parameters and sizes -----*- C++ -*-===//
//
// What a caller must know to run a kernel: its inputs and outputs (name,
// dtype, dims as size names or literals) and how the sizes get their values
// (bound at compile time, or read off the input shapes at launch). Built from
// an alg.kernel; it has no MLIR types so the runtime side can use it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_ALG_KERNELSIGNATURE_H
#define NAUTILUS_ALG_KERNELSIGNATURE_H

#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace mlir {
class Type;
}
namespace nautilus::alg {
class KernelOp;
}

namespace nautilus {

using rt::Dim;

struct Param {
  std::string name;
  rt::DType dtype = rt::DType::F32;
  bool isScalar = false;
  std::vector<Dim> dims;
};

/// An integer tensor used as an indirect index: its values must lie in
/// [0, extent), where extent is a dim of the gathered tensor.
struct IndexUse {
  std::string indexTensor;
  Dim extent;
};

struct KernelSignature {
  std::string name;
  std::vector<std::string> sizes;
  std::vector<Param> inputs;
  std::vector<Param> outputs;
  std::vector<IndexUse> indexUses;
  std::map<std::string, int64_t> bindings; // sizes fixed at compile time
};

using rt::SizeValues;

std::optional<rt::DType> dtypeOf(mlir::Type type);
KernelSignature getSignature(alg::KernelOp kernel);

/// The shape of `param` under `sizes` (every size must have a value).
std::vector<int64_t> shapeOf(const Param &param, const SizeValues &sizes);

/// Gives every size a value: from `requested` (--shape), the kernel's
/// bindings, and the shapes of `inputs` (those given; missing ones may be
/// null). Checks that they agree, that every size is known and positive, and
/// that no tensor's byte size overflows. Returns "" or an error message.
std::string resolveSizes(const KernelSignature &sig,
                         const std::map<std::string, int64_t> &requested,
                         const std::vector<const rt::HostTensor *> &inputs,
                         SizeValues &sizes);

/// Parses "N=4096,D=128" into `shape`; returns an error message or "".
std::string parseShapeList(const std::string &text,
                           std::map<std::string, int64_t> &shape);
/// `shape` as parseShapeList reads it: "D=128,N=4096" (names in order).
std::string formatShapeList(const std::map<std::string, int64_t> &shape);

} // namespace nautilus

#endif
