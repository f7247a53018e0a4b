//===- HostWorkersTest.cpp - Tests for runtime/HostWorkers ----------------===//

#include "runtime/HostWorkers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace nautilus::rt;

namespace {

/// Runs `count` items in `parts` on `workers` and checks each item ran
/// once, in the range HostWorkers::run documents, the last on the caller.
void expectEachItemOnce(HostWorkers &workers, int64_t count, unsigned parts) {
  std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
  std::atomic<bool> lastOnCaller{count == 0};
  const auto caller = std::this_thread::get_id();
  workers.run(count, parts, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i)
      runs[static_cast<size_t>(i)].fetch_add(1);
    if (last == count && first < last)
      lastOnCaller.store(parts <= 1 || std::this_thread::get_id() == caller);
  });
  for (int64_t i = 0; i < count; ++i)
    ASSERT_EQ(runs[static_cast<size_t>(i)].load(), 1)
        << "item " << i << " of " << count << " in " << parts << " parts";
  EXPECT_TRUE(lastOnCaller.load()) << count << " items in " << parts;
}

/// Runs `child` in a forked process that then calls std::exit with what
/// it returns (static destructors and all); the child's exit status, or
/// -1 where it did not end within 10 s.
int exitStatusOfChild(const std::function<int()> &child) {
  pid_t pid = ::fork();
  if (pid == 0)
    std::exit(child());
  if (pid < 0)
    return -1;
  int status = 0;
  for (int waited = 0; waited < 1000; ++waited) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

} // namespace

TEST(HostWorkers, RunsEachItemOnce) {
  HostWorkers workers(3);
  for (unsigned parts = 1; parts <= 4; ++parts)
    for (int64_t count = 0; count <= 37; ++count)
      expectEachItemOnce(workers, count, parts);
}

TEST(HostWorkers, SplitsIntoEqualContiguousRanges) {
  HostWorkers workers(2);
  std::vector<std::pair<int64_t, int64_t>> ranges(3);
  std::atomic<int> next{0};
  workers.run(10, 3, [&](int64_t first, int64_t last) {
    ranges[static_cast<size_t>(next.fetch_add(1))] = {first, last};
  });
  std::sort(ranges.begin(), ranges.end());
  EXPECT_EQ(ranges, (std::vector<std::pair<int64_t, int64_t>>{
                        {0, 3}, {3, 6}, {6, 10}}));
}

TEST(HostWorkers, KeepsItsThreads) {
  HostWorkers workers(2);
  auto threadsOfAJob = [&] {
    std::mutex guard;
    std::set<std::thread::id> ids;
    workers.run(30, 3, [&](int64_t, int64_t) {
      std::lock_guard<std::mutex> lock(guard);
      ids.insert(std::this_thread::get_id());
    });
    return ids;
  };
  std::set<std::thread::id> first = threadsOfAJob();
  EXPECT_EQ(first.size(), 3u);
  EXPECT_EQ(threadsOfAJob(), first);
}

TEST(HostWorkers, WakesWorkersThatSlept) {
  HostWorkers workers(2);
  for (int round = 0; round < 4; ++round) {
    expectEachItemOnce(workers, 64, 3);
    // Longer than the workers poll: they sleep, and the next job wakes
    // them.
    for (int waited = 0; waited < 1000 && workers.sleeping() < 2; ++waited)
      std::this_thread::sleep_for(
          std::chrono::duration<double>(HostWorkers::kSpinSeconds * 5));
    EXPECT_EQ(workers.sleeping(), 2u);
  }
  // A job of fewer ranges than workers wakes the other for nothing.
  expectEachItemOnce(workers, 64, 2);
  expectEachItemOnce(workers, 64, 3);
}

TEST(HostWorkers, ARangeThatRunsAJob) {
  HostWorkers workers(2);
  std::vector<std::atomic<int>> runs(12 * 10);
  workers.run(12, 3, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row)
      workers.run(10, 3, [&](int64_t a, int64_t b) {
        for (int64_t i = a; i < b; ++i)
          runs[static_cast<size_t>(row * 10 + i)].fetch_add(1);
      });
  });
  for (const std::atomic<int> &r : runs)
    ASSERT_EQ(r.load(), 1);
  expectEachItemOnce(workers, 40, 3);
}

TEST(HostWorkers, RethrowsOnceTheWorkersAreDone) {
  HostWorkers workers(2);
  std::atomic<int> ranges{0};
  auto body = [&](int64_t, int64_t last) {
    if (last == 30)
      throw std::runtime_error("the caller's range");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ranges.fetch_add(1);
  };
  EXPECT_THROW(workers.run(30, 3, body), std::runtime_error);
  EXPECT_EQ(ranges.load(), 2);
  expectEachItemOnce(workers, 30, 3);
}

TEST(HostWorkers, MorePartsThanWorkersStartThreads) {
  HostWorkers workers(1);
  expectEachItemOnce(workers, 100, 5);
  HostWorkers none(0);
  expectEachItemOnce(none, 100, 2);
}

TEST(HostWorkers, CallersOnSeveralThreads) {
  HostWorkers workers(2);
  auto caller = [&] {
    for (int job = 0; job < 300; ++job)
      expectEachItemOnce(workers, 16 + job % 7, 1 + job % 3);
  };
  std::thread other(caller);
  caller();
  other.join();
}

TEST(HostWorkers, TheProcesssWorkers) {
  HostWorkers &workers = HostWorkers::process();
  EXPECT_EQ(&workers, &HostWorkers::process());
  EXPECT_EQ(workers.workers() + 1,
            std::max(1u, std::thread::hardware_concurrency()));
  expectEachItemOnce(workers, 50, workers.workers() + 1);
}

TEST(HostWorkers, AForkedChildGetsItsOwn) {
  HostWorkers &parents = HostWorkers::process();
  expectEachItemOnce(parents, 20, parents.workers() + 1);
  // The parent's workers are not in the child: a job on them would never
  // finish, nor would joining them at exit.
  EXPECT_EQ(exitStatusOfChild([&] {
              HostWorkers &own = HostWorkers::process();
              std::atomic<int64_t> sum{0};
              own.run(100, own.workers() + 1, [&](int64_t first, int64_t last) {
                for (int64_t i = first; i < last; ++i)
                  sum.fetch_add(i);
              });
              return &own != &parents && sum.load() == 4950 ? 0 : 1;
            }),
            0);
  EXPECT_EQ(exitStatusOfChild([] { return 0; }), 0); // launches nothing
}
