//===- EmulatorRacesTest.cpp - Races found in every fibre order -----------===//
//
// Hand-written kernels with the races the old barrier-interval check
// missed (a write after a read, a read by a lower thread than the writer,
// warps on disjoint named barriers, a barrier or an mbarrier phase the
// writer or the reader takes no part in, global memory within a block, two
// values written at once), each run in every fibre order: the race is
// reported in each, and the same kernel made right passes in each.
//
//===----------------------------------------------------------------------===//
#include "test/unit/EmulatorTestUtil.h"

#include <gtest/gtest.h>

using namespace nautilus::emu;
using namespace nautilus::emu::test;

namespace {

const FibreOrder kOrders[] = {{FibreOrder::Ascending, 0},
                              {FibreOrder::Descending, 0},
                              {FibreOrder::Random, 1},
                              {FibreOrder::Random, 2},
                              {FibreOrder::Random, 3}};

std::string orderName(FibreOrder order) {
  switch (order.kind) {
  case FibreOrder::Ascending:
    return "ascending";
  case FibreOrder::Descending:
    return "descending";
  default:
    return "random:" + std::to_string(order.seed);
  }
}

const char *kRaceHeader = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
@buf = internal addrspace(3) global [64 x i32] undef, align 4
)";

/// `body` with each `from` replaced by `to`, after kRaceHeader.
std::string kernel(std::string body,
                   const std::vector<std::pair<std::string, std::string>>
                       &replacements = {}) {
  for (const auto &[from, to] : replacements)
    for (size_t at; (at = body.find(from)) != std::string::npos;)
      body.replace(at, from.size(), to);
  return std::string(kRaceHeader) + body;
}

/// Launches kernel `name` of `ir` as one block of `threads` threads, with
/// `out` (128 i32, all -1) as its only buffer, once in each fibre order;
/// returns each launch's error.
std::vector<std::string> runInEveryOrder(const std::string &ir,
                                         const char *name, uint32_t threads) {
  std::string error;
  auto emu = load(ir.c_str(), error);
  if (!emu)
    return {"loading: " + error};
  std::vector<std::string> errors;
  for (FibreOrder order : kOrders) {
    std::vector<int32_t> out(128, -1);
    void *po = out.data();
    LaunchShape shape;
    shape.block = {threads, 1, 1};
    emu->setFibreOrder(order);
    errors.push_back(emu->launch(name, shape, {&po},
                                 {{out.data(), out.size() * 4}}));
  }
  return errors;
}

/// Every launch of `errors` reported a race that contains `what`.
::testing::AssertionResult raceInEveryOrder(
    const std::vector<std::string> &errors, const std::string &what) {
  if (errors.size() != std::size(kOrders))
    return ::testing::AssertionFailure() << errors.front();
  for (size_t i = 0; i < errors.size(); ++i)
    if (errors[i].find(what) == std::string::npos)
      return ::testing::AssertionFailure()
             << orderName(kOrders[i]) << ": '" << errors[i]
             << "' does not report " << what;
  return ::testing::AssertionSuccess();
}

/// Every launch of `errors` succeeded.
::testing::AssertionResult cleanInEveryOrder(
    const std::vector<std::string> &errors) {
  if (errors.size() != std::size(kOrders))
    return ::testing::AssertionFailure() << errors.front();
  for (size_t i = 0; i < errors.size(); ++i)
    if (!errors[i].empty())
      return ::testing::AssertionFailure()
             << orderName(kOrders[i]) << ": " << errors[i];
  return ::testing::AssertionSuccess();
}

using Replacements = std::vector<std::pair<std::string, std::string>>;

/// A kernel with a race (`broken`'s replacements) and without (`fixed`'s):
/// the race is reported in every fibre order (each report contains
/// `race`; the ascending order's is `ascending`), and the fixed kernel
/// passes in every order.
struct RaceCase {
  const char *source, *name;
  uint32_t threads;
  Replacements broken, fixed;
  std::string race, ascending;
};

void expectRace(const RaceCase &c) {
  std::vector<std::string> errors =
      runInEveryOrder(kernel(c.source, c.broken), c.name, c.threads);
  EXPECT_TRUE(raceInEveryOrder(errors, c.race));
  EXPECT_EQ(errors.front(), c.ascending);
  EXPECT_TRUE(cleanInEveryOrder(
      runInEveryOrder(kernel(c.source, c.fixed), c.name, c.threads)));
}

const std::string kShared = "shared-memory race (";
const std::string kUnordered =
    ", and nothing orders the two (no barrier both take part in, no "
    "mbarrier phase or wait between them)";

// Each thread writes its word, and after the barrier reads its
// neighbour's, then writes its own word again: without a second barrier
// the neighbour may read the new value (a write after a read; in
// ascending order every read comes before the write that races with it,
// which a check of reads alone never sees).
const char *kTrailing = R"(
define ptx_kernel void @trailing(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %last = icmp eq i32 %t, 63
  %t1 = add i32 %t, 1
  %j = select i1 %last, i32 %t, i32 %t1
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %j
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %v, ptr %o
  TRAILING
  %w = add i32 %t, 100
  store i32 %w, ptr addrspace(3) %p
  ret void
})";

TEST(EmulatorRaces, WriteAfterRead) {
  expectRace({kTrailing, "trailing", 64, {{"TRAILING", ""}},
              {{"TRAILING", "call void @llvm.nvvm.barrier0()"}}, kShared,
              "shared-memory race (write after read): a store by thread (1, "
              "0, 0) of block (0, 0, 0) writes byte offset 4, which thread 0 "
              "read" + kUnordered});
}

// The WRITERS threads store a word (V1 from thread 1, V0 from the
// others), the threads below LIMIT meet at BARRIER, and the READERS threads
// read the word and copy it to out[t + 1]. The word is in shared memory
// (SPACE addrspace(3), BASE @buf) or in the global buffer (SPACE empty,
// BASE %out). A kernel without a barrier runs each thread to its end in
// turn, not as fibres.
const char *kWriteThenRead = R"(
define ptx_kernel void @handover(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr SPACE BASE, i32 0
  %writer = icmp WRITERS
  br i1 %writer, label %write, label %sync
write:
  %one = icmp eq i32 %t, 1
  %v = select i1 %one, i32 V1, i32 V0
  store i32 %v, ptr SPACE %p
  br label %sync
sync:
  %in = icmp ult i32 %t, LIMIT
  br i1 %in, label %barrier, label %after
barrier:
  BARRIER
  br label %after
after:
  %reader = icmp READERS
  br i1 %reader, label %read, label %done
read:
  %w = load i32, ptr SPACE %p
  %t1 = add i32 %t, 1
  %o = getelementptr i32, ptr %out, i32 %t1
  store i32 %w, ptr %o
  br label %done
done:
  ret void
})";

Replacements operator+(Replacements a, const Replacements &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Thread 1 writes 42, thread 0 reads it: in shared or global memory.
const Replacements kShared0 = {{"SPACE", "addrspace(3)"}, {"BASE", "@buf"}};
const Replacements kGlobal0 = {{"SPACE", ""}, {"BASE", "%out"}};
const Replacements kOneToZero = {{"WRITERS", "eq i32 %t, 1"},
                                 {"V0", "42"},
                                 {"V1", "42"},
                                 {"LIMIT", "1024"},
                                 {"READERS", "eq i32 %t, 0"}};
const Replacements kNoBarrier = {{"BARRIER", ""}};
const Replacements kBarrier = {{"BARRIER", "call void @llvm.nvvm.barrier0()"}};

TEST(EmulatorRaces, ReadByALowerThreadThanTheWriter) {
  const Replacements broken = kShared0 + kOneToZero + kNoBarrier;
  expectRace({kWriteThenRead, "handover", 32, broken,
              kShared0 + kOneToZero + kBarrier, kShared,
              "shared-memory race (write after read): a store by thread (1, "
              "0, 0) of block (0, 0, 0) writes byte offset 0, which thread 0 "
              "read" + kUnordered});
  // From the last thread down, the read comes after the write.
  EXPECT_EQ(runInEveryOrder(kernel(kWriteThenRead, broken), "handover", 32)[1],
            "shared-memory race (read after write): a load by thread (0, 0, "
            "0) of block (0, 0, 0) reads byte offset 0, which thread 1 wrote" +
                kUnordered);
}

// Warp 0 writes, warp 1 reads, each after a named barrier of its own
// (ids 1 and 2, 32 threads each): neither orders the other warp. With one
// barrier of 64 threads for both, the read follows the write.
const char *kNamedBarriers = R"(
define ptx_kernel void @named(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = lshr i32 %t, 5
  %id = add i32 %w, 1
  %first = icmp eq i32 %w, 0
  %lane = and i32 %t, 31
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %lane
  br i1 %first, label %write, label %sync
write:
  store i32 %t, ptr addrspace(3) %p
  br label %sync
sync:
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 ID, i32 COUNT)
  br i1 %first, label %done, label %read
read:
  %v = load i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %v, ptr %o
  br label %done
done:
  ret void
})";

TEST(EmulatorRaces, WarpsOnDisjointNamedBarriers) {
  expectRace({kNamedBarriers, "named", 64, {{"ID", "%id"}, {"COUNT", "32"}},
              {{"ID", "1"}, {"COUNT", "64"}}, kShared,
              "shared-memory race (read after write): a load by thread (32, "
              "0, 0) of block (0, 0, 0) reads byte offset 0, which thread 0 "
              "wrote" + kUnordered});
}

// Threads below LIMIT meet at named barrier 1 and then read what thread
// 64 wrote: a barrier of the first 64 threads does not order thread 64's
// write; one of all 96 does.
TEST(EmulatorRaces, BarrierWithoutTheWriter) {
  const Replacements outsider = {
      {"BARRIER", "call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, "
                  "i32 LIMIT)"},
      {"WRITERS", "eq i32 %t, 64"},
      {"V0", "7"},
      {"V1", "7"},
      {"READERS", "ult i32 %t, 64"}};
  expectRace({kWriteThenRead, "handover", 96,
              kShared0 + outsider + Replacements{{"LIMIT", "64"}},
              kShared0 + outsider + Replacements{{"LIMIT", "96"}}, kShared,
              "shared-memory race (read after write): a load by thread (0, "
              "0, 0) of block (0, 0, 0) reads byte offset 0, which thread 64 "
              "wrote" + kUnordered});
}

// Thread 0 fills a buffer and arrives on an mbarrier; the other threads
// wait for the phase and read their word, but thread 31 reads without
// waiting (kHandoffKernel).
TEST(EmulatorRaces, MBarrierPhaseTheReaderDoesNotWaitFor) {
  // (Byte offset 396 is thread 31's word of @data, after @buf and @bar.)
  expectRace({kHandoffKernel, "handoff", 32,
              {{"ARRIVALS", "1"}, {"SKIPPER", "31"}},
              {{"ARRIVALS", "1"}, {"SKIPPER", "-1"}}, kShared,
              "shared-memory race (read after write): a load by thread (31, "
              "0, 0) of block (0, 0, 0) reads byte offset 396, which thread 0 "
              "wrote" + kUnordered});
}

// The same in global memory: thread 0 copies out[0] to out[1] while
// thread 1 writes out[0].
TEST(EmulatorRaces, GlobalMemoryWithinABlock) {
  expectRace({kWriteThenRead, "handover", 64, kGlobal0 + kOneToZero + kNoBarrier,
              kGlobal0 + kOneToZero + kBarrier, "global race (",
              "global race (write after read): a store by thread (1, 0, 0) of "
              "block (0, 0, 0) writes byte offset 0 of buffer #0, which thread "
              "0 read" + kUnordered});
}

// Threads 0 and 1 store V0 and V1 into one word at once; after a barrier
// thread 2 reads it. Different values race; the same value (a replicated
// store) does not.
TEST(EmulatorRaces, WritesOfDifferentValues) {
  const Replacements twoWriters = {{"WRITERS", "ult i32 %t, 2"},
                                   {"LIMIT", "1024"},
                                   {"READERS", "eq i32 %t, 2"}};
  // Bytes 1 to 3 of 3 and 259 agree; byte 0 does not.
  expectRace({kWriteThenRead, "handover", 32,
              kShared0 + twoWriters + kBarrier +
                  Replacements{{"V0", "3"}, {"V1", "259"}},
              kShared0 + twoWriters + kBarrier +
                  Replacements{{"V0", "77"}, {"V1", "77"}},
              "shared-memory race (write after write)",
              "shared-memory race (write after write): a store by thread (1, "
              "0, 0) of block (0, 0, 0) writes byte offset 1, which thread 0 "
              "wrote a different value" + kUnordered});
}

// Kernels that Triton compiled, right on hardware, pass in every order:
// no race is made up.
TEST(EmulatorRaces, TritonKernelsAreCleanInEveryOrder) {
  std::string error;
  auto mma = loadFile("triton_matmul_sm80.ll", error);
  // (With the init fence Triton leaves out: EmulatorSm90Test.)
  auto tma = loadFileWithInitFence("triton_tma_matmul_sm90.ll", error);
  auto attention80 = loadFile("triton_attention_sm80.ll", error);
  auto attention90 = loadFile("triton_attention_sm90.ll", error);
  ASSERT_TRUE(mma && tma && attention80 && attention90) << error;
  HalfMatrix a(50 * 70, 1), b(70 * 40, 2);
  // (TMA's rows are multiples of 16 bytes.)
  HalfMatrix ta(100 * 88, 3), tb(88 * 72, 4);
  for (FibreOrder order : kOrders) {
    for (SimtEmulator *emu :
         {mma.get(), tma.get(), attention80.get(), attention90.get()})
      emu->setFibreOrder(order);
    std::vector<float> c(50 * 40, -1);
    EXPECT_EQ(launchTritonMatmul(*mma, a.bits.data(), a.bits.size() * 2,
                                 b.bits.data(), b.bits.size() * 2, c, 50, 40,
                                 70, /*tile=*/32, /*sharedBytes=*/4096),
              "")
        << orderName(order);
    EXPECT_TRUE(isExactProduct(c, a.values, b.values, 50, 40, 70));
    c.assign(100 * 72, -1);
    EXPECT_EQ(launchTritonTmaMatmul(*tma, ta, tb, c, 100, 72, 88), "")
        << orderName(order);
    EXPECT_TRUE(isExactProduct(c, ta.values, tb.values, 100, 72, 88));
    double worst = 0;
    EXPECT_EQ(runTritonAttention(*attention80, 32, 4096, worst), "")
        << orderName(order);
    EXPECT_LT(worst, 2e-3);
    EXPECT_EQ(runTritonAttention(*attention90, 64, 8192, worst), "")
        << orderName(order);
    EXPECT_LT(worst, 2e-3);
  }
}

// A launch whose buffers pass 64 MiB is not checked for races between
// blocks, and a block that touches more than 4 MiB of writable buffers
// not within itself past them; each says so.
TEST(EmulatorRaces, UncheckedLaunchesSaySo) {
  std::string error;
  auto emu = load(
      kernel(kWriteThenRead, kShared0 + kOneToZero + kNoBarrier).c_str(),
      error);
  ASSERT_TRUE(emu) << error;
  std::vector<char> large((size_t(64) << 20) + 4);
  void *po = large.data();
  LaunchShape shape;
  shape.block = {1, 1, 1};
  ASSERT_EQ(emu->launch("handover", shape, {&po}, {{po, large.size()}}), "");
  EXPECT_EQ(emu->takeNotes(),
            std::vector<std::string>{
                "races between blocks are not checked in launches of "
                "'handover': their buffers pass 64 MiB"});
  EXPECT_TRUE(emu->takeNotes().empty());
  // One block that touches more than 4 MiB of a writable buffer: the rest
  // is not checked within the block.
  auto sparse = load(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @sparse(ptr %out) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr i8, ptr %out, i64 %i
  store i8 1, ptr %p
  %i1 = add i64 %i, 4096
  %more = icmp ult i64 %i1, 5242880
  br i1 %more, label %loop, label %done
done:
  ret void
})",
                     error);
  ASSERT_TRUE(sparse) << error;
  std::vector<char> pages(size_t(5) << 20);
  po = pages.data();
  ASSERT_EQ(sparse->launch("sparse", shape, {&po}, {{po, pages.size()}}), "");
  EXPECT_EQ(sparse->takeNotes(),
            std::vector<std::string>{
                "races on global memory within a block are not checked past "
                "the first 4 MiB of writable buffers a block touches"});
}

TEST(EmulatorRaces, FibreOrdersParse) {
  FibreOrder order;
  EXPECT_EQ(parseFibreOrder("descending", order), "");
  EXPECT_EQ(order.kind, FibreOrder::Descending);
  EXPECT_EQ(parseFibreOrder("random:17", order), "");
  EXPECT_EQ(order.kind, FibreOrder::Random);
  EXPECT_EQ(order.seed, 17u);
  EXPECT_EQ(parseFibreOrder("random", order), "");
  EXPECT_EQ(order.seed, 0u);
  EXPECT_EQ(parseFibreOrder("ascending", order), "");
  EXPECT_EQ(order.kind, FibreOrder::Ascending);
  for (const char *bad : {"", "up", "random:", "random:x", "random7"})
    EXPECT_EQ(parseFibreOrder(bad, order),
              "'" + std::string(bad) +
                  "' is not a fibre order (ascending, descending, random or "
                  "random:SEED)");
}

} // namespace
