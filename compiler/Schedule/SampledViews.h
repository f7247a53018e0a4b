//===- SampledViews.h - A program seen at sample shapes ---------*- C++ -*-===//
//
// The models rank schedules at bound extents. A program compiled without
// some of its sizes (a bundle an application launches at many shapes) is
// seen at sample shapes instead (autoscheduler/SampleShapes.h): each
// model's view of a program (CpuPrograms.h, GpuPrograms.h) is read with a
// function that gives every unbound size an extent, and viewsAtSamples
// asks it which sizes it needs, then views the program at each sample
// shape.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_SAMPLEDVIEWS_H
#define NAUTILUS_SCHEDULE_SAMPLEDVIEWS_H

#include "autoscheduler/SampleShapes.h"
#include "dialects/Tile/TileOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace nautilus {

/// The extent a model's view assumes for an unbound size (by name), or
/// std::nullopt.
using UnboundExtent =
    llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>;

/// The extent of `program`'s dimension `dim` (a size's name or a literal):
/// bound by the plan, else the extent `unbound` gives its size; none for
/// an extent that is no size's (a null `dim`).
inline std::optional<int64_t>
extentAt(tile::ProgramOp program, mlir::Attribute dim, UnboundExtent unbound) {
  if (!dim)
    return std::nullopt;
  if (std::optional<int64_t> known = program.getKnownExtent(dim))
    return known;
  auto name = mlir::dyn_cast<mlir::StringAttr>(dim);
  return name ? unbound(name.getValue()) : std::nullopt;
}

/// The extent of size `name` among the sizes `unbound` at `extents` (in
/// order), or std::nullopt where it is not one of them.
inline std::optional<int64_t>
extentAmong(llvm::StringRef name, const std::vector<std::string> &unbound,
            const std::vector<int64_t> &extents) {
  auto size = llvm::find(unbound, name);
  size_t index = size - unbound.begin();
  if (size == unbound.end() || index >= extents.size())
    return std::nullopt;
  return extents[index];
}

/// A program seen at sample shapes.
template <typename View> struct SampledViews {
  std::vector<std::string> unbound; // the sizes sampled, in order
  /// Each unbound size at each of kUnboundSizeSamples, every combination,
  /// the last size varying fastest (the first view at the smallest, the
  /// last at the largest).
  std::vector<View> views;
};

/// The views `viewAt` gives of one program at every sample shape of the
/// sizes it asks for; std::nullopt where it asks for none (every size is
/// bound), for more than kMostUnboundSizesSampled, or gives no view at
/// some shape.
template <typename View>
std::optional<SampledViews<View>>
viewsAtSamples(llvm::function_ref<std::optional<View>(UnboundExtent)> viewAt) {
  SampledViews<View> sampled;
  // Which sizes are unbound: those a view at any extent asks for.
  std::optional<View> first = viewAt([&](llvm::StringRef name) {
    if (!llvm::is_contained(sampled.unbound, name))
      sampled.unbound.push_back(name.str());
    return std::optional<int64_t>(autosched::kUnboundSizeSamples.front());
  });
  const size_t sizes = sampled.unbound.size();
  if (!first || sizes == 0 || sizes > autosched::kMostUnboundSizesSampled)
    return std::nullopt;
  for (size_t shape = 0; shape < autosched::sampleShapesOf(sizes); ++shape) {
    std::optional<View> view =
        viewAt([&](llvm::StringRef name) -> std::optional<int64_t> {
          auto size = llvm::find(sampled.unbound, name);
          if (size == sampled.unbound.end())
            return std::nullopt; // (a size the first view did not ask for)
          return autosched::sampleExtentOf(
              shape, size_t(size - sampled.unbound.begin()), sizes);
        });
    if (!view)
      return std::nullopt;
    sampled.views.push_back(std::move(*view));
  }
  return sampled;
}

} // namespace nautilus

#endif
