//===- StagingRows.cpp - How a layout conversion stages its rows ----------===//
#include "dialects/Tile/Utils/StagingRows.h"

using namespace nautilus;

int64_t nautilus::alignedRun(const layout::LinearLayout &l, int64_t maxRun) {
  int64_t run = std::min<int64_t>(layout::innermostRun(l), maxRun);
  size_t inner = l.getOutDims().size() - 1;
  auto aligned = [&](int64_t r) {
    for (const auto &in : l.getInDims())
      for (auto [bit, basis] : llvm::enumerate(in.bases))
        if (!(in.name == "register" && (int64_t(1) << bit) < r) &&
            basis[inner] % r != 0)
          return false;
    return true;
  };
  while (run > 1 && !aligned(run))
    run /= 2;
  return run;
}

StagingRuns
nautilus::stagingRuns(const std::optional<layout::LinearLayout> &from,
                      const layout::LinearLayout &to, mlir::Type element) {
  int64_t bits = element.getIntOrFloatBitWidth();
  int64_t elementBytes = std::max<int64_t>(1, bits / 8);
  int64_t maxRun = bits % 8 == 0 ? std::max<int64_t>(1, 16 / elementBytes) : 1;
  StagingRuns runs;
  runs.write = from ? alignedRun(*from, maxRun) : 1;
  runs.read = alignedRun(to, maxRun);
  runs.unit = std::max({runs.write, runs.read, int64_t(1)});
  return runs;
}

std::vector<int64_t> nautilus::stagingWidths(int64_t rows, int64_t columns,
                                             int64_t unit) {
  std::vector<int64_t> widths = {columns};
  for (int64_t bands = 2; bands <= rows && rows % bands == 0; bands *= 2)
    if (columns % bands == 0 && (columns / bands) % unit == 0)
      widths.push_back(columns / bands);
  return widths;
}
