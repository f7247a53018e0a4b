//===- Bundle.h - A compiled kernel program as one file --------*- C++ -*-===//
//
// `nautc compile --emit bundle` (NVIDIA targets) writes everything needed to
// launch a compiled kernel without the compiler: its launch plan, its target
// and its PTX, as one versioned, checksummed JSON document. The format, its
// writer and its reader are the runtime's (runtime/Bundle.h: the fields, the
// checksum, the kernels' parameters); this builds the rt::Bundle of a
// compilation and writes it with rt::writeBundle.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_BUNDLE_H
#define NAUTILUS_PIPELINE_BUNDLE_H

#include "runtime/Bundle.h"

#include <string>

namespace nautilus {

/// The bundle of a kernel compiled for an NVIDIA target: `plan`, the
/// target's name and chip, and the module's PTX.
rt::Bundle makeBundle(const rt::LaunchPlan &plan, const std::string &target,
                      const std::string &chip, std::string ptx);

} // namespace nautilus

#endif
