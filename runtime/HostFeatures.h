//===- HostFeatures.h - The x86 features a host library needs --*- C++ -*-===//
//
// A cpu bundle's library is compiled for the CPU of the machine that
// compiled it and may use every vector extension it has. The bundle lists
// those the runtime can test (kCheckedHostFeatures, LLVM's and GCC's
// names alike), and the cpu device refuses a bundle whose list names one
// this machine lacks: a clear error instead of an illegal instruction.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_HOSTFEATURES_H
#define NAUTILUS_RUNTIME_HOSTFEATURES_H

#include <string>
#include <vector>

namespace nautilus::rt {

/// The features a bundle may list.
extern const char *const kCheckedHostFeatures[];
extern const size_t kNumCheckedHostFeatures;

/// Those of `required` this machine lacks (an unknown name counts as
/// lacking: it cannot be checked), comma-separated; "" when none.
std::string missingHostFeatures(const std::vector<std::string> &required);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_HOSTFEATURES_H
