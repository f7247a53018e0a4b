//===- PtxMerge.h - Several PTX modules as one -------------------*- C++ -*-===//
//
// nautc compiles the kernels of a program to PTX one module per kernel, in
// parallel, and hands out one PTX text: this joins them.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_PTXMERGE_H
#define NAUTILUS_PIPELINE_PTXMERGE_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace nautilus {

/// The PTX modules `modules` (of one target) as one module: the first
/// whole; of each other, its module-scope declarations that are not
/// already there (its `.version`, `.target` and `.address_size` header
/// dropped) and then its functions, in order. A declaration is everything
/// before the module's first function (`.entry` or `.func`, visible or
/// not); identical declarations (a shared `.extern`) appear once.
std::string mergePtxModules(llvm::ArrayRef<std::string> modules);

} // namespace nautilus

#endif
