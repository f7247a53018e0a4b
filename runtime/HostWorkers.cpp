//===- HostWorkers.cpp - Threads kept for the host's grids ----------------===//
#include "runtime/HostWorkers.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <unistd.h>

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
  body(rangeStart(count, parts - 1, parts), count);
  for (std::thread &thread : started)
    thread.join();
}

} // namespace

HostWorkers &HostWorkers::process() {
  static std::mutex guard;
  static std::unique_ptr<HostWorkers> workers;
  static pid_t owner = 0;
  std::lock_guard<std::mutex> lock(guard);
  if (workers && owner != ::getpid())
    (void)workers.release(); // a forked child: those threads are not here
  if (!workers) {
    unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    workers = std::make_unique<HostWorkers>(hardware - 1);
    owner = ::getpid();
  }
  return *workers;
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

template <typename Ready> void HostWorkers::await(Ready ready) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (unsigned spins = 1; !ready(); ++spins) {
    pauseSpin();
    if (spins % 64 != 0 ||
        std::chrono::duration<double>(Clock::now() - start).count() <
            kSpinSeconds)
      continue;
    // Sleep. The count of sleepers rises before `ready` is checked under
    // the lock, and wakeSleepers() reads it after the state it waits on
    // changed (both sequentially consistent), so no wake-up is lost.
    std::unique_lock<std::mutex> lock(sleepMutex);
    sleepers.fetch_add(1);
    wake.wait(lock, ready);
    sleepers.fetch_sub(1);
    return;
  }
}

void HostWorkers::wakeSleepers() {
  if (sleepers.load() == 0)
    return;
  { std::lock_guard<std::mutex> lock(sleepMutex); }
  wake.notify_all();
}

void HostWorkers::work(unsigned index) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t job = seen;
    await([&] {
      job = posted.load();
      return job != seen || stopping.load();
    });
    if (stopping.load())
      return;
    seen = job;
    const unsigned parts = static_cast<unsigned>(job & 0xffffffffu);
    if (index + 1 >= parts)
      continue; // this job has fewer ranges than workers
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
  std::unique_lock<std::mutex> job(jobMutex, std::try_to_lock);
  if (!job.owns_lock() || parts - 1 > workers()) {
    runOnStartedThreads(count, parts, body);
    return;
  }
  this->body = &body;
  this->count = count;
  running.store(parts - 1);
  ++jobNumber;
  posted.store(jobNumber << 32 | parts);
  wakeSleepers();
  body(rangeStart(count, parts - 1, parts), count);
  await([&] { return running.load() == 0; });
}
