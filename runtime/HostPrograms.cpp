//===- HostPrograms.cpp - Running a plan's programs on the host -----------===//
#include "runtime/HostPrograms.h"
#include "runtime/HostWorkers.h"

#include <algorithm>
#include <thread>

namespace nautilus::rt {

std::string packedEntryName(const std::string &program) {
  return "_nautilus_packed_" + program;
}

void runHostPrograms(const LaunchPlan &plan, const SizeValues &sizes,
                     const std::vector<void *> &args,
                     const std::vector<PackedProgram> &programs,
                     unsigned threads) {
  unsigned workers =
      threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  for (size_t p = 0; p < plan.programs.size(); ++p) {
    if (!plan.programs[p].launchesAt(sizes))
      continue;
    int64_t count = plan.programs[p].numPrograms(sizes);
    unsigned n = static_cast<unsigned>(
        std::min<int64_t>(workers, std::max<int64_t>(count, 1)));
    // (Two pointers captured: std::function keeps them without allocating.)
    PackedProgram program = programs[p];
    HostWorkers::process().run(count, n,
                               [&args, program](int64_t first, int64_t last) {
                                 std::vector<void *> withRange = args;
                                 withRange.push_back(&first);
                                 withRange.push_back(&last);
                                 program(withRange.data());
                               });
  }
}

} // namespace nautilus::rt
