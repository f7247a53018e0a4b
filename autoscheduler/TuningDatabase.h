//===- TuningDatabase.h - Measured schedules, kept in a JSON file -*- C++
//-*-===//
//
// What `nautc tune` measured, for `--db` to reuse. A record is keyed by
// the kernel's structural hash (its alg IR without locations, before any
// size is bound: see compiler/Schedule/KernelKey.h), the target, the
// sizes it was tuned at and the machine it was measured on (a host, a
// GPU: two GPUs of one target keep a record each); its value is a
// schedule file's JSON object ({"programs": {...}}, as `--schedule FILE`
// reads it) with what the measurement found. The file is meant to be
// checked into source control: records are written sorted, one a line of
// keys, so that the same records give the same bytes.
//
// Lookup takes the record of the same kernel and target at the same sizes;
// failing that, one at sizes in the same bucket (each size rounded up to a
// power of two), the nearest first; among records equally near, the
// machine asked for first (this host; for a GPU target the GPU measured
// most), else the first in the file.
//
// A record also keeps what the target's model predicted for each
// assignment measured (CpuRefit.h's or GpuRefit.h's samples, with the
// model's version): the records of one host (one GPU) refit the model's
// terms for every kernel compiled with `--schedule auto --db --refit`.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_TUNINGDATABASE_H
#define NAUTILUS_AUTOSCHEDULER_TUNINGDATABASE_H

#include "autoscheduler/CpuRefit.h"
#include "autoscheduler/GpuRefit.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

struct TuningRecord {
  std::string kernelHash; // KernelKey.h's structural hash
  std::string kernel;     // the kernel's name, for people reading the file
  std::string target;     // "cpu", "sm_90", ...
  /// The machine it was measured on ("x86_64, 512-bit vectors, 2
  /// threads"; "cuda:0: NVIDIA H200 (sm_90)"): part of the key, and
  /// preferred by lookups that name it.
  std::string machine;
  std::map<std::string, int64_t> sizes;
  /// The schedule file's JSON text: {"programs": {"NAME": "#tile..."}}.
  std::string schedule;
  int64_t measuredNs = 0; // the tuned schedules' median time
  int64_t baselineNs = 0; // the heuristics' median time, in the same run
  int64_t candidates = 0; // candidates measured
  /// The CPU model's terms and the measured time of each assignment
  /// measured whose programs the model could cost, under the model of
  /// `modelVersion` (kCpuModelVersion when written).
  int64_t modelVersion = 0;
  std::vector<CpuSample> samples;
  /// The same for a GPU target: the GPU models' terms (GpuTerms.h) of
  /// each assignment measured whose programs they could cost, under the
  /// models of `gpuModelVersion` (kGpuModelVersion when written).
  int64_t gpuModelVersion = 0;
  std::vector<GpuSample> gpuSamples;
  /// The record's keys this nautc does not read (a newer nautc's, a
  /// person's notes), as a JSON object's text: written back as they were.
  std::string otherKeys;
};

/// How a lookup matched.
enum class RecordMatch { Exact, Bucket };

class TuningDatabase {
public:
  /// Reads `path`; a missing file is an empty database. Returns "" or the
  /// error (a file that is not a database).
  std::string load(const std::string &path);
  /// Writes every record to `path`, whole or not at all (a new file
  /// renamed over it). Returns "" or the error.
  std::string save(const std::string &path) const;
  /// Adds `record` to the database file `path` as it is now: under a lock
  /// on its folder, reads the file again (what another process wrote
  /// since this one read it), inserts the record and saves. Two `nautc
  /// tune` writing one file then keep both records. This database becomes
  /// what was written. Returns "" or the error.
  std::string addToFile(const std::string &path, TuningRecord record);
  /// Why `path` could not be written ("" when it can): its folder is
  /// missing or not writable, or it is a file that is not.
  static std::string unwritable(const std::string &path);
  /// The database's JSON text (what save writes).
  std::string text() const;
  /// Parses a database's JSON text. Returns "" or the error.
  std::string parse(const std::string &text);

  /// Adds `record`, replacing one with the same kernel, target, sizes and
  /// machine (a record of another machine is kept beside it).
  void insert(TuningRecord record);

  /// The record for the kernel on the target at `sizes`, and how it
  /// matched; std::nullopt when none is exact or in the same bucket. Of
  /// records equally near, `machine`'s.
  std::optional<std::pair<const TuningRecord *, RecordMatch>>
  lookup(const std::string &kernelHash, const std::string &target,
         const std::map<std::string, int64_t> &sizes,
         const std::string &machine = "") const;

  const std::vector<TuningRecord> &records() const { return all; }

  /// The samples of every record measured on `machine` under the current
  /// CPU model (kCpuModelVersion): what refitCpuModel takes.
  std::vector<CpuSample> cpuSamples(const std::string &machine) const;
  /// The samples of every record of `target` measured on the GPU
  /// `machine` under the current GPU models (kGpuModelVersion): what
  /// refitGpuModel takes.
  std::vector<GpuSample> gpuSamples(const std::string &target,
                                    const std::string &machine) const;
  /// The GPU with the most such samples of `target` ("" where none): the
  /// one a compilation for `target`, which names no device, refits to.
  std::string mostMeasuredGpu(const std::string &target) const;

private:
  std::vector<TuningRecord> all; // kept sorted
  /// The file's top-level keys this nautc does not read, as a JSON
  /// object's text (TuningRecord::otherKeys).
  std::string otherKeys;
};

/// The bucket of a size: the least power of two at or above it.
int64_t sizeBucket(int64_t size);

} // namespace nautilus::autosched

#endif
