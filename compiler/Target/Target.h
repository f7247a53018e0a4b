//===- Target.h - The targets and what each can do -------------*- C++ -*-===//
//
// The one list of the targets Nautilus compiles for, and their capabilities
// and limits as queries. Nothing outside this folder compares target names:
// a pass asks what its target can do (tensor cores of which generation,
// TMA, lanes a warp, shared memory a block) and reads the target from the
// module it runs on (`tile.target`, see getModuleTarget).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TARGET_TARGET_H
#define NAUTILUS_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace nautilus {

enum class TargetFamily { CPU, NVIDIA, AMD };

/// Which tensor-core instructions a target has (NVIDIA's generations; the
/// AMD targets' MFMA is not used yet).
enum class TensorCores {
  None,
  MmaSync, // sm_80: warp-wide mma.sync, fed by ldmatrix from shared memory
  Wgmma,   // sm_90: warpgroup-wide wgmma reading shared memory (and mma.sync)
};

/// What a refit from measurements on one GPU (autoscheduler/GpuRefit.h)
/// multiplies each term of the GPU models by: a wave's compute (tensor
/// cores, SIMT lanes, special functions, the shared memory and L1 that
/// feed them), its DRAM traffic, and the latencies (launches, round trips,
/// pipeline fills, split sums). 1 each unless `--refit` asks for them.
struct GpuModelScales {
  double compute = 1, memory = 1, latency = 1;
};

struct TargetInfo {
  std::string name;          // "cpu", "sm_80", ...
  TargetFamily family;
  std::string chip;          // "sm_90a", "gfx942", "" for the host
  std::string ptxFeatures;   // "+ptx80"
  /// Threads that run in lockstep on the hardware (1 on the host).
  int64_t warpSize = 1;
  /// The lanes of a warp that the generated GPU kernels assume (shuffles,
  /// the tensor-core fragments, warp indices): 32 on every GPU target.
  /// gfx90a and gfx942 run waves of 64, and today's kernels still count
  /// warps of 32 there (the one place this is stated; the AMD issue
  /// settles wave64).
  int64_t kernelLanes = 1;
  /// Warps that issue one wgmma together (sm_90), as threads.
  int64_t warpgroupThreads = 0;
  int64_t maxThreadsPerProgram = 1;
  int64_t defaultThreads = 1;
  int64_t vectorBits = 0;    // host SIMD width (cpu): 512 with AVX-512
  /// The host's L1 data cache a core (cpu): its bytes and ways (of 64-byte
  /// lines), read from the machine (Linux's sysfs), else Skylake-SP's and
  /// Zen 4's 32 KiB of 8 ways. Its L2 a core is `l2Bytes` (else 1 MiB).
  int64_t l1DataBytes = 0;
  int64_t l1Ways = 0;
  /// Whether the host's integer operations issue on the ports of its
  /// vector FMAs (Intel's cores: 2 of the 4 or 5 integer ALU ports are
  /// the FMA ports), so that a loop's scalar work takes FMA slots; AMD's
  /// Zen has separate integer and floating-point pipes.
  bool scalarOpsShareFmaPorts = false;
  /// The widest access one thread makes to global memory (GPU), bytes.
  int64_t maxVectorBytes = 16;
  // Multiprocessors (SMs, CUs) of the target's largest usual part (A100:
  // 108, H100 SXM and H200: 132); what a default schedule fills.
  int64_t multiprocessors = 1;
  /// Shared memory a block may take in all, opted into at launch (A100:
  /// 163 KiB; H100, H200: 227 KiB), and statically, without opting in.
  int64_t maxSharedBytes = 0;
  int64_t maxStaticSharedBytes = 0;
  /// 32-bit registers of a multiprocessor, and the most one thread
  /// addresses.
  int64_t registerFile = 0;
  int64_t maxRegistersPerThread = 0;
  /// Hardware named barriers of a block (`bar.sync id, threads`).
  int64_t namedBarriers = 0;
  TensorCores tensorCores = TensorCores::None;
  // Throughputs, for the auto-scheduler's cost model (docs/autoscheduler.md
  // gives their sources): 16-bit dense tensor-core FLOPs a multiprocessor
  // retires a cycle, the clock (GHz), DRAM bandwidth (bytes a second), the
  // L2 cache, shared memory a multiprocessor and the bytes a cycle it
  // serves.
  int64_t tensorFlopsPerCycle = 0;
  double clockGHz = 0;
  double dramBytesPerSecond = 0;
  int64_t l2Bytes = 0; // the GPU's, or a host core's

  int64_t sharedBytesPerMultiprocessor = 0;
  int64_t sharedBytesPerCycle = 0;
  /// Threads a multiprocessor holds at once.
  int64_t maxThreadsPerMultiprocessor = 0;
  /// f32 operations (lanes) a multiprocessor's SIMT units retire a cycle,
  /// and special functions (exp2, log2, rsqrt, ...) a cycle: the
  /// element-wise and reduction programs' compute.
  int64_t simtLanesPerCycle = 0;
  int64_t specialFunctionsPerCycle = 0;
  /// Tensor memory access: bulk copies of boxes described by tensor maps,
  /// completing on mbarriers.
  bool hasTma = false;
  /// An instruction for 2^x in f32, which LLVM's exp2 intrinsic selects:
  /// NVIDIA's ex2.approx.f32 (MUFU.EX2, about 2 units in the last place),
  /// AMD's v_exp_f32. Elsewhere exp2 is a polynomial.
  bool hasExp2Instruction = false;
  /// The GPU models' terms as refit to one GPU's measurements: not a
  /// target's constant but a machine's (never written on a module: the
  /// schedule provider that ranks with them sets them on its own copy).
  GpuModelScales gpuModelScales;

  bool isCPU() const { return family == TargetFamily::CPU; }
  bool isGPU() const { return family != TargetFamily::CPU; }
  bool isNVIDIA() const { return family == TargetFamily::NVIDIA; }
  bool isAMD() const { return family == TargetFamily::AMD; }
  bool hasMmaSync() const { return tensorCores != TensorCores::None; }
  bool hasWgmma() const { return tensorCores == TensorCores::Wgmma; }
};

/// The names of every target, in the order usage messages list them.
llvm::ArrayRef<llvm::StringRef> targetNames();
/// "cpu, sm_80, sm_90, gfx90a or gfx942", for messages.
std::string targetNameList();

/// The host, as a tuning record names the machine it was measured on:
/// "x86_64 znver4, 512-bit vectors, 32 KiB L1d of 8 ways, 1024 KiB L2,
/// 2 threads" (the threads the machine has, whatever `--multiprocessors`
/// gives a compilation).
std::string hostDescription();

/// The target named `name`, or std::nullopt. `multiprocessors` > 0
/// replaces the target's own count.
std::optional<TargetInfo> getTarget(llvm::StringRef name,
                                    int64_t multiprocessors = 0);

/// The first target of `family` in the list (the emulator's default when
/// no NVIDIA target is named).
TargetInfo firstTargetOf(TargetFamily family);

/// Sets the module's `tile.target` attribute.
void setModuleTarget(mlir::ModuleOp module, const TargetInfo &target);

/// The target of the module that holds `op` (its `tile.target`); when the
/// module has none or names an unknown target, reports it on `op` and
/// returns std::nullopt (the pass then fails).
std::optional<TargetInfo> getModuleTarget(mlir::Operation *op);

} // namespace nautilus

#endif
