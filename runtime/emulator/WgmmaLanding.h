//===- WgmmaLanding.h - wgmma accumulators land at their wait ---*- C++ -*-===//
//
// A wgmma.mma_async writes its accumulator registers asynchronously: the
// PTX ISA makes them defined only once a wgmma.wait_group completes the
// group the wgmma was committed in. The emulator computes a wgmma when it
// is issued, so a kernel reading the accumulators too early would still
// see the right numbers; this makes that read a fault instead.
//
// Each wgmma translated from inline PTX is a *site* (numbered within its
// function); the loads of its results carry the site, and its
// accumulator slot is marked. guardWgmmaResults follows the results
// through the instructions that only carry them (bitcasts, phis, selects,
// aggregates) to the instructions that compute with or store them, other
// than the stores into a later wgmma's accumulator slot (accumulating in
// the same registers needs no wait). Before the first such use in each
// basic block it calls __nautilus_emu_wgmma_landed with the sites that
// reach it; the runtime fails the launch when the latest issue at one of
// them belongs to a group no wgmma.wait_group of the thread completed.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_WGMMALANDING_H
#define NAUTILUS_RUNTIME_EMULATOR_WGMMALANDING_H

#include <cstdint>

namespace llvm {
class AllocaInst;
class Function;
class LoadInst;
class Module;
} // namespace llvm

namespace nautilus::emu::detail {

/// The sites the runtime tells apart (a bit each); later sites share the
/// last.
constexpr unsigned kWgmmaSites = 64;

/// A new site number in `f` (below kWgmmaSites: the last is shared).
int32_t newWgmmaSite(llvm::Function &f);
/// Marks `load` as reading a result of the wgmma at `site`.
void markWgmmaResult(llvm::LoadInst *load, int32_t site);
/// Marks `slot` as a wgmma's accumulator (inputs stored, results loaded).
void markWgmmaAccumulator(llvm::AllocaInst *slot);

/// Inserts the landing checks described above into every function of `m`.
void guardWgmmaResults(llvm::Module &m);

} // namespace nautilus::emu::detail

#endif
