//===- HostWorkers.h - Threads kept for the host's grids --------*- C++ -*-===//
//
// A launch on the host splits each program's grid into contiguous ranges,
// one a thread (HostPrograms.h). Starting a thread for each range of each
// launch costs more than a small kernel's work: on virtual machines, whose
// idle CPUs halt, starting or waking a thread on another CPU takes 10 to
// 70 us, where the whole of a 64^3 GEMM takes 8. HostWorkers keeps one
// thread fewer than the hardware's for the process, and a worker that has
// run its range polls for the next job for kSpinSeconds before it sleeps,
// as OpenMP runtimes and OpenBLAS keep theirs: launches that follow one
// another (a model's layers, a timing loop) find it awake.
//
// The process's workers are never destroyed (a kernel launched from
// another static's destructor still finds them; the OS ends them at exit);
// a child after fork, which inherits none of their threads, starts its
// own. The runtime library (nautilus_runtime) and the JIT's
// (nautilus_jit) each hold a copy of this runtime, so a program that
// launches through both has two sets of workers.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_HOSTWORKERS_H
#define NAUTILUS_RUNTIME_HOSTWORKERS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nautilus::rt {

class HostWorkers {
public:
  /// How long a worker that has finished polls for the next job before it
  /// sleeps (libgomp's default spin is of the same order).
  static constexpr double kSpinSeconds = 200e-6;

  using RangeBody = std::function<void(int64_t first, int64_t last)>;

  /// The process's workers: hardware threads - 1, started on first use
  /// (and again in a child after fork).
  static HostWorkers &process();

  explicit HostWorkers(unsigned workers);
  ~HostWorkers();
  HostWorkers(const HostWorkers &) = delete;
  HostWorkers &operator=(const HostWorkers &) = delete;

  /// Runs `body` over [0, count) split into `parts` equal contiguous
  /// ranges, the last on the calling thread, and returns when all have
  /// run (and rethrows what the calling thread's range threw, once the
  /// workers' have run). Where `parts` exceeds the workers + 1, another
  /// thread's job holds them, or `body` itself calls run, the ranges run on
  /// threads started for this call.
  void run(int64_t count, unsigned parts, const RangeBody &body);

  unsigned workers() const { return static_cast<unsigned>(threads.size()); }
  /// How many threads (workers, or a caller waiting for them) sleep now.
  unsigned sleeping() const { return sleepers.load(); }

private:
  void work(unsigned index);
  void runOnWorkers(int64_t count, unsigned parts, const RangeBody &body);
  /// Returns once `ready()` holds: polls for kSpinSeconds first where
  /// `spin`, then sleeps until wakeSleepers(). Returns whether it slept.
  template <typename Ready> bool await(Ready ready, bool spin = true);
  void wakeSleepers();

  std::vector<std::thread> threads;
  std::mutex jobMutex; // one job at a time
  uint64_t jobNumber = 0;
  // The job posted last: its number in the high 32 bits, its parts in the
  // low. Posting it publishes `body` and `count`.
  std::atomic<uint64_t> posted{0};
  const RangeBody *body = nullptr;
  int64_t count = 0;
  std::atomic<unsigned> running{0}; // workers still on the job's ranges
  std::atomic<bool> stopping{false};
  std::mutex sleepMutex;
  std::condition_variable wake;
  std::atomic<unsigned> sleepers{0};
};

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_HOSTWORKERS_H
