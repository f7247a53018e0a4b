//===- PlanLaunch.h - A launch plan's programs on the emulator -*- C++ -*-===//
//
// Runs every program of a launch plan on the SIMT emulator, as the cuda
// device runs them on a GPU: one block per tile (persistent programs on
// min(tiles, the emulated multiprocessors)), the plan's threads a block,
// the parameters packed as PackedArgs.h packs them, then a pointer to each
// TMA tensor map, encoded here in the emulator's own encoding. Used by
// `nautc run --device emu` and by the emu device of the C API.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_PLANLAUNCH_H
#define NAUTILUS_RUNTIME_EMULATOR_PLANLAUNCH_H

#include "runtime/PackedArgs.h"
#include "runtime/emulator/MemoryProfile.h"
#include "runtime/emulator/SimtEmulator.h"

#include <string>
#include <utility>
#include <vector>

namespace nautilus::emu {

/// The multiprocessors a persistent program's grid covers: the host's
/// cores, or NAUTILUS_EMU_MULTIPROCESSORS when set (a warning, and the
/// cores, when it is not a positive number).
int64_t emulatedMultiprocessors();

struct PlanLaunchResult {
  std::string error;              // "" on success
  bool kernelFault = false;       // the error is the generated code's
  std::vector<std::string> notes; // what the emulator did not check
};

/// Runs `plan`'s programs on `emulator` over `buffers` (in plan order, in
/// host memory; inputs are read-only), with every size in `sizes`. With
/// `profiles`, each program's memory profile is appended.
PlanLaunchResult launchPlan(
    SimtEmulator &emulator, const rt::LaunchPlan &plan,
    const std::vector<rt::BufferView> &buffers, const rt::SizeValues &sizes,
    std::vector<std::pair<std::string, MemoryProfile>> *profiles = nullptr);

} // namespace nautilus::emu

#endif
