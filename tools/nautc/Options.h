//===- Options.h - What nautc was asked to do ------------------*- C++ -*-===//
//
// The parsed command line of nautc (README, "The command line"); nautc.cpp
// parses it, and the subcommands hand the pipeline what it needs of it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TOOLS_NAUTC_OPTIONS_H
#define NAUTILUS_TOOLS_NAUTC_OPTIONS_H

#include "autoscheduler/SpaceSearch.h"
#include "compiler/Pipeline/ExitCode.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "dialects/Alg/KernelSignature.h"
#include <cstdint>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nautilus {

class ScheduleProvider;
struct TargetInfo;

struct Options {
  std::string command; // compile, run, verify, tune
  std::string file;
  std::string kernel;  // -k
  std::string target = "cpu";
  std::string emit = "obj";
  std::string output;  // -o
  std::string device = "cpu";
  /// --schedule: default (the target's: auto on the CPU, the heuristics on
  /// GPUs), heuristics, auto, or a schedule file (JSON).
  std::string schedule = "default";
  std::map<std::string, int64_t> shape; // --shape N=4096,D=128
  std::map<std::string, std::string> inputs; // --input NAME=PATH.npy
  uint64_t seed = 0;
  int64_t multiprocessors = 0; // --multiprocessors (0: the target's)
  std::string saveDir;
  bool check = false;
  bool time = false;
  bool profile = false; // run --device emu: shared-memory traffic
  std::string fibreOrder; // run --device emu: "" (NAUTILUS_EMU_FIBRE_ORDER's)
  std::string kernelIR;   // run --device emu: kernels' LLVM IR to run instead
  bool explain = false;
  bool noVerify = false;   // compile, run: skip the verifier
  std::string mutation;    // verify --mutate
  std::string db;          // compile, run, tune: a tuning database (JSON)
  /// compile, run, tune with --db on the CPU: rank with the CPU model
  /// refit to the database's measurements of this host.
  bool refit = false;
  double budgetSeconds = 60; // tune: the seconds of measuring
  size_t budgetCandidates = 0; // tune: the measurements (0: no limit)
  size_t perProgram = 8;   // tune: the model's best few of each program
  /// tune --plan: where to list the assignments the search would measure
  /// (for a device nautc does not run on), measuring nothing.
  std::string plan;
  /// tune --measured: a file of their times (RecordedMeasurer.h), measured
  /// on that device, searched instead of measuring.
  std::string measured;
  /// compile, run with --schedule auto: the candidates each search keeps
  /// for --explain (0: the default; AutoSchedules::kAllCandidates: all).
  size_t explainCandidates = 0;
  /// compile, run with --schedule auto: how spaces are searched.
  autosched::SearchOptions search;

  /// The kernel to load: the file, -k and --shape.
  KernelSource source() const { return {file, kernel, shape}; }

  /// The schedule file --schedule names ("" for the heuristics' or the
  /// auto-scheduler's schedules).
  std::string schedulePath() const;
};

/// After a lowering failed with a diagnostic: whether the schedule file
/// or the tuning database (a user's) is to blame rather than a default
/// schedule (a bug in nautilus); if so, says so on stderr.
bool blameScheduleFile(const Options &opts);

/// The schedule provider --schedule names, under --db's records for the
/// kernel of structural hash `kernelHash` on `target` at `sizes`. Null
/// after printing the error when the database cannot be read.
std::shared_ptr<ScheduleProvider>
scheduleProviderOf(const Options &opts, const std::string &kernelHash,
                   const TargetInfo &target,
                   const std::map<std::string, int64_t> &sizes);

} // namespace nautilus

#endif
