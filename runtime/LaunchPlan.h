//===- LaunchPlan.h - How a compiled kernel is launched ---------*- C++ -*-===//
//
// The launch plan of one compiled kernel, independent of any device: the
// buffers its programs take (inputs, outputs, workspaces, scalars), its sizes,
// and the programs to launch in order, each with its grid (one program per
// output tile). Built by the compiler from a tile.plan; read by every device.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_LAUNCHPLAN_H
#define NAUTILUS_RUNTIME_LAUNCHPLAN_H

#include "runtime/DType.h"
#include "runtime/SizeExpr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::rt {

/// A dimension: a size name or a literal extent.
struct Dim {
  std::string size; // empty for a literal
  int64_t literal = 0;
  bool isLiteral() const { return size.empty(); }
};

using SizeValues = std::map<std::string, int64_t>;

inline int64_t extentOf(const Dim &d, const SizeValues &sizes) {
  return d.isLiteral() ? d.literal : sizes.at(d.size);
}

enum class BufferRole { Input, Output, Workspace, Scalar };

struct BufferDesc {
  std::string name;
  BufferRole role = BufferRole::Input;
  DType dtype = DType::F32;
  std::vector<Dim> dims; // empty for a scalar
  /// A workspace only copies of a program for ranges of sizes use (a
  /// split copy's partial results): the condition those copies launch
  /// under; elsewhere it is not allocated (its extents are all 0, and no
  /// memory is set aside for it). Absent, it is always allocated.
  std::optional<Requirement> allocateWhen;
};

/// A TMA tensor map a program takes (after its sizes, a pointer to each,
/// in order): over buffer `buffer`, boxes of `box` elements (innermost
/// dimension first), `swizzleBytes`-byte swizzle, zeros outside the tensor.
struct TensorMapDesc {
  std::string buffer;
  std::vector<int64_t> box;
  int64_t swizzleBytes = 128;
};

struct ProgramDesc {
  std::string name;
  std::vector<Dim> outputDims;
  std::vector<int64_t> tile; // tile extent per output dimension
  int64_t threads = 1;       // threads of one program on a GPU
  std::vector<TensorMapDesc> tensorMaps;
  int64_t dynamicSharedBytes = 0; // on a GPU, requested at launch
  /// Launched on min(numPrograms, the device's multiprocessors) blocks,
  /// each looping over the programs (tiles) of its block id plus multiples
  /// of the grid size.
  bool persistent = false;
  /// When the sizes choose among copies of one program, each compiled with
  /// its own schedule for ranges of one or two sizes (the auto-scheduler's
  /// choice at launch of a kernel compiled without its sizes), the
  /// condition this copy runs under ("M < 128", ["lt", "M", 128]; "N >= 2
  /// and M < 8"); absent, it always runs.
  std::optional<Requirement> launchWhen;

  /// Whether the program runs at `sizes`: its launchWhen holds (a
  /// condition that cannot be evaluated, over a size not given, does not).
  bool launchesAt(const SizeValues &sizes) const {
    int64_t holds = 1;
    return !launchWhen ||
           (evaluate(launchWhen->condition, sizes, holds).empty() && holds);
  }

  /// Programs in the grid: the product over dims of ceil(extent / tile),
  /// INT64_MAX where it overflows (checkExtents refuses such a launch).
  int64_t numPrograms(const SizeValues &sizes) const {
    int64_t n = 1;
    for (size_t d = 0; d < outputDims.size(); ++d) {
      int64_t e = extentOf(outputDims[d], sizes);
      int64_t tiles = e / tile[d] + (e % tile[d] != 0); // (no e + tile - 1)
      if (__builtin_mul_overflow(n, tiles, &n))
        return INT64_MAX;
    }
    return n;
  }
};

/// A size the compiler derives from the kernel's own (the capacity of a
/// grouped GEMM's bucketed rows, say): the sum over `terms` of the
/// coefficient times the product of the named sizes.
struct DerivedSize {
  struct Term {
    int64_t coefficient = 1;
    std::vector<std::string> factors;
  };
  std::string name;
  std::vector<Term> terms;

  int64_t valueFor(const SizeValues &sizes) const {
    int64_t value = 0;
    for (const Term &t : terms) {
      int64_t product = t.coefficient;
      for (const std::string &f : t.factors)
        product *= sizes.at(f);
      value += product;
    }
    return value;
  }
};

struct LaunchPlan {
  std::string kernel;
  std::vector<std::string> sizes; // the size arguments, in order
  SizeValues bindings;            // sizes fixed at compile time
  /// Sizes among `sizes` computed from the others, in order (each may use
  /// those before it).
  std::vector<DerivedSize> derivedSizes;

  /// `sizes` (the kernel's) with the derived sizes added.
  SizeValues withDerivedSizes(SizeValues sizes) const {
    for (const DerivedSize &d : derivedSizes)
      sizes[d.name] = d.valueFor(sizes);
    return sizes;
  }
  std::vector<BufferDesc> buffers;
  std::vector<ProgramDesc> programs;
  /// The kernel's `require` lines (SizeExpr.h), checked before a launch.
  std::vector<Requirement> requirements;
};

} // namespace nautilus::rt

#endif
