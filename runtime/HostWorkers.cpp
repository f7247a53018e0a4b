//===- HostWorkers.cpp - Threads kept for the host's grids ----------------===//
#include "runtime/HostWorkers.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <pthread.h>

using namespace nautilus::rt;

namespace {

/// One step of a polling loop: tells the core (and a hypervisor) that
/// this thread spins.
void pauseSpin() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

int64_t rangeStart(int64_t count, unsigned part, unsigned parts) {
  return count * part / parts;
}

void runOnStartedThreads(int64_t count, unsigned parts,
                         const HostWorkers::RangeBody &body) {
  std::vector<std::thread> started;
  for (unsigned p = 0; p + 1 < parts; ++p)
    started.emplace_back(body, rangeStart(count, p, parts),
                         rangeStart(count, p + 1, parts));
  std::exception_ptr thrown;
  try {
    body(rangeStart(count, parts - 1, parts), count);
  } catch (...) {
    thrown = std::current_exception();
  }
  for (std::thread &thread : started)
    thread.join();
  if (thrown)
    std::rethrow_exception(thrown);
}

/// Whether this thread runs a range of a job on kept workers (a worker
/// always does): a job it starts runs on threads of its own.
thread_local bool inWorkersJob = false;

// The process's workers, never destroyed; `processGuard` is held across a
// fork, so the child sees either none or all of them, and forgets them.
std::mutex processGuard;
HostWorkers *processWorkers = nullptr;

void lockBeforeFork() { processGuard.lock(); }
void unlockInParent() { processGuard.unlock(); }
void forgetInChild() {
  processWorkers = nullptr; // their threads are not in this process
  processGuard.unlock();
}

} // namespace

HostWorkers &HostWorkers::process() {
  static const int registered =
      ::pthread_atfork(lockBeforeFork, unlockInParent, forgetInChild);
  (void)registered;
  std::lock_guard<std::mutex> lock(processGuard);
  if (!processWorkers) {
    unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    processWorkers = new HostWorkers(hardware - 1);
  }
  return *processWorkers;
}

HostWorkers::HostWorkers(unsigned workers) {
  threads.reserve(workers);
  for (unsigned i = 0; i < workers; ++i)
    threads.emplace_back([this, i] { work(i); });
}

HostWorkers::~HostWorkers() {
  stopping.store(true);
  { std::lock_guard<std::mutex> lock(sleepMutex); }
  wake.notify_all();
  for (std::thread &thread : threads)
    thread.join();
}

template <typename Ready> bool HostWorkers::await(Ready ready, bool spin) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (unsigned spins = 1; !ready(); ++spins) {
    pauseSpin();
    if (spin && (spins % 64 != 0 ||
                 std::chrono::duration<double>(Clock::now() - start).count() <
                     kSpinSeconds))
      continue;
    // Sleep. The count of sleepers rises before `ready` is checked under
    // the lock, and wakeSleepers() reads it after the state it waits on
    // changed (both sequentially consistent), so no wake-up is lost.
    std::unique_lock<std::mutex> lock(sleepMutex);
    sleepers.fetch_add(1);
    wake.wait(lock, ready);
    sleepers.fetch_sub(1);
    return true;
  }
  return false;
}

void HostWorkers::wakeSleepers() {
  if (sleepers.load() == 0)
    return;
  { std::lock_guard<std::mutex> lock(sleepMutex); }
  wake.notify_all();
}

void HostWorkers::work(unsigned index) {
  inWorkersJob = true;
  uint64_t seen = 0;
  bool spin = true;
  for (;;) {
    uint64_t job = seen;
    bool slept = await(
        [&] {
          job = posted.load();
          return job != seen || stopping.load();
        },
        spin);
    if (stopping.load())
      return;
    seen = job;
    const unsigned parts = static_cast<unsigned>(job & 0xffffffffu);
    // A job of fewer ranges than workers woke this one for nothing: it
    // sleeps again at once rather than poll.
    spin = index + 1 < parts || !slept;
    if (index + 1 >= parts)
      continue;
    (*body)(rangeStart(count, index, parts),
            rangeStart(count, index + 1, parts));
    if (running.fetch_sub(1) == 1)
      wakeSleepers();
  }
}

void HostWorkers::run(int64_t count, unsigned parts, const RangeBody &body) {
  if (parts <= 1) {
    body(0, count);
    return;
  }
  if (inWorkersJob || parts - 1 > workers()) {
    runOnStartedThreads(count, parts, body);
    return;
  }
  std::unique_lock<std::mutex> job(jobMutex, std::try_to_lock);
  if (!job.owns_lock()) {
    runOnStartedThreads(count, parts, body);
    return;
  }
  runOnWorkers(count, parts, body);
}

void HostWorkers::runOnWorkers(int64_t count, unsigned parts,
                               const RangeBody &body) {
  this->body = &body;
  this->count = count;
  running.store(parts - 1);
  ++jobNumber;
  posted.store(jobNumber << 32 | parts);
  wakeSleepers();
  std::exception_ptr thrown;
  inWorkersJob = true;
  try {
    body(rangeStart(count, parts - 1, parts), count);
  } catch (...) {
    thrown = std::current_exception();
  }
  inWorkersJob = false;
  // The workers run `body` until they are done, whatever this range threw.
  await([&] { return running.load() == 0; });
  if (thrown)
    std::rethrow_exception(thrown);
}
