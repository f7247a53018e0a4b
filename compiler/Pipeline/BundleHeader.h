//===- BundleHeader.h - A bundle as a C++ header ---------------*- C++ -*-===//
//
// `nautc compile --emit header`: the bundle's bytes as an array, and a
// class named after the kernel that loads them and launches with one
// typed parameter a tensor of the kernel, in order. An application that
// includes it builds against Nautilus::runtime alone (no LLVM, no MLIR):
//
//   #include "attention.h"          // nautc compile ... --emit header
//   auto device = nautilus::Device::open("cpu");
//   nautilus_kernels::attention kernel;
//   kernel(device, Q, K, V, O);     // nautilus::Tensor each
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_BUNDLEHEADER_H
#define NAUTILUS_PIPELINE_BUNDLEHEADER_H

#include "runtime/LaunchPlan.h"

#include <string>

namespace nautilus {

/// The header for `bundleBytes` (rt::writeBundle's) whose plan is `plan`,
/// compiled for `target`.
std::string bundleHeader(const rt::LaunchPlan &plan, const std::string &target,
                         const std::string &bundleBytes);

} // namespace nautilus

#endif
