//===- RecordedMeasurer.h - Times measured elsewhere, read back -*- C++ -*-===//
//
// The tuner's measurements (Tuner.h's Measurer) read from a file, for a
// device nautc does not run on: `nautc tune --plan` lists the assignments
// the search would measure (plannedAssignments), bench/gpu's tuning mode
// compiles each into a bundle and times it on the GPU (each checked
// against its reference first), and `nautc tune --measured FILE` searches
// again with these times, writing the record (with the models' samples)
// a tune on the device would have written. The file:
//
//   {"machine": "cuda:0: NVIDIA H200 (sm_90)",
//    "measurements": [
//      {"schedule": {"programs": {}}, "us": [184.4, 184.6]},
//      {"schedule": {"programs": {"gemm_C": "#tile.schedule<...>"},
//                    "fuse_reductions": true, ...}, "us": [189.7]}]}
//
// `machine` names the device as a record's machine does (a GPU: the
// runtime's description of it, Device.h); each measurement is an
// assignment as a schedule file states it (the heuristics' schedules: no
// program named) and its times in microseconds (each a timed batch's time
// a run, as bench/gpu/run_gemms.py measures them): the median of them is
// its time. An assignment measured twice has the times of both. An
// assignment the file does not hold is not measured (the search goes on
// without it). The file may also state the "kernel", "target" and "sizes"
// (an object of integers) it measured, as the plan does: a tune of
// another kernel, target or sizes refuses it (`mismatch`).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_RECORDEDMEASURER_H
#define NAUTILUS_AUTOSCHEDULER_RECORDEDMEASURER_H

#include "autoscheduler/Tuner.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

class RecordedMeasurer final : public Measurer {
public:
  /// A schedule's text as the tuner's candidates print it, or std::nullopt
  /// and why it is not a schedule (`nautc tune` parses and prints it
  /// again: the file's spacing does not matter).
  using Normalize = std::function<std::optional<std::string>(
      const std::string &schedule, std::string &why)>;

  /// Parses a measurements file's JSON text, each schedule through
  /// `normalize` when given. Returns "" or the error.
  std::string parse(const std::string &text, const Normalize &normalize = {});
  /// Reads and parses the file at `path`. Returns "" or the error.
  std::string load(const std::string &path, const Normalize &normalize = {});

  const std::string &machine() const { return device; }
  /// Why the file's measurements are not of `kernel` on `target` at
  /// `sizes` (what it states of them differs), or "".
  std::string mismatch(const std::string &kernel, const std::string &target,
                       const std::map<std::string, int64_t> &sizes) const;
  /// The assignments the file holds times of.
  size_t size() const { return recorded.size(); }
  /// How many of them the search asked for.
  size_t used() const;

  std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                     std::string &why) override;

private:
  struct Recorded {
    ScheduleAssignment assignment;
    std::vector<double> us;
    bool used = false;
  };
  std::string device;
  /// What the file states it measured ("" and none: not stated).
  std::string kernel, target;
  std::optional<std::map<std::string, int64_t>> sizes;
  std::vector<Recorded> recorded;
};

} // namespace nautilus::autosched

#endif
