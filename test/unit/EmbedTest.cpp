//===- EmbedTest.cpp - The runtime's launch path, the caches, the C API ---===//
//
// Size expressions, base64, the checks before a launch, the disk cache, and
// the C API end to end: nt_compile through the caches, nt_launch on the
// cpu device against the reference interpreter, the errors a user sees.
//
//===----------------------------------------------------------------------===//
#include "nautilus.h"
#include "runtime/Base64.h"
#include "runtime/Bundle.h"
#include "runtime/DType.h"
#include "runtime/Hash.h"
#include "runtime/Json.h"
#include "runtime/KernelCache.h"
#include "runtime/LaunchChecks.h"
#include "runtime/SizeExpr.h"
#include "test/unit/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace nautilus::rt;

namespace {

//===----------------------------------------------------------------------===//
// Size expressions and base64.
//===----------------------------------------------------------------------===//

SizeExpr op(const char *name, std::vector<SizeExpr> operands) {
  return SizeExpr::op(name, std::move(operands));
}

TEST(SizeExpr, EvaluatesEveryOperation) {
  SizeValues sizes = {{"H", 16}, {"G", 3}, {"N", -7}};
  auto value = [&](const SizeExpr &e) {
    int64_t v = 0;
    std::string error = evaluate(e, sizes, v);
    EXPECT_EQ(error, "");
    return v;
  };
  SizeExpr H = SizeExpr::size("H"), G = SizeExpr::size("G"),
           N = SizeExpr::size("N");
  EXPECT_EQ(value(op("rem", {H, G})), 1);
  EXPECT_EQ(value(op("div", {N, SizeExpr::of(2)})), -3);
  EXPECT_EQ(value(op("floordiv", {N, SizeExpr::of(2)})), -4);
  EXPECT_EQ(value(op("rem", {N, SizeExpr::of(2)})), -1);
  EXPECT_EQ(value(op("sub", {G, H})), -13);
  EXPECT_EQ(value(op("min", {H, N})), -7);
  EXPECT_EQ(value(op("max", {H, N})), 16);
  EXPECT_EQ(value(op("neg", {G})), -3);
  EXPECT_EQ(value(op("lt", {N, G})), 1);
  EXPECT_EQ(value(op("ult", {N, G})), 0); // -7 is huge unsigned
  EXPECT_EQ(value(op("and", {SizeExpr::of(6), SizeExpr::of(3)})), 2);
  EXPECT_EQ(value(op("not", {op("eq", {H, G})})), 1);
  EXPECT_EQ(value(op("select", {op("ge", {H, G}), H, G})), 16);
}

TEST(SizeExpr, FailsInsteadOfOverflowing) {
  SizeValues sizes = {{"Z", 0}, {"B", int64_t(1) << 62}};
  int64_t v = 0;
  EXPECT_EQ(
      evaluate(op("rem", {SizeExpr::of(5), SizeExpr::size("Z")}), sizes, v),
      "division by zero in (rem 5 Z)");
  EXPECT_EQ(
      evaluate(op("mul", {SizeExpr::size("B"), SizeExpr::of(4)}), sizes, v),
      "overflow in (mul B 4)");
  EXPECT_EQ(evaluate(SizeExpr::size("Q"), sizes, v), "size 'Q' is not known");
}

TEST(SizeExpr, NamesTheRequirementThatFails) {
  std::vector<Requirement> requirements = {
      {"H % G == 0",
       op("eq", {op("rem", {SizeExpr::size("H"), SizeExpr::size("G")}),
                 SizeExpr::of(0)})}};
  EXPECT_EQ(checkRequirements(requirements, {{"H", 16}, {"G", 4}}), "");
  EXPECT_EQ(checkRequirements(requirements, {{"H", 16}, {"G", 3}}),
            "requirement 'H % G == 0' does not hold (G=3, H=16)");
}

TEST(Base64, RoundTripsEveryLength) {
  std::string bytes;
  for (int n = 0; n < 300; ++n) {
    std::string text = base64Encode(bytes);
    EXPECT_EQ(text.size() % 4, 0u);
    std::string back;
    ASSERT_TRUE(base64Decode(text, back)) << n;
    EXPECT_EQ(back, bytes);
    bytes += static_cast<char>(n * 37);
  }
  EXPECT_EQ(base64Encode("Man"), "TWFu");
  EXPECT_EQ(base64Encode("Ma"), "TWE=");
  std::string out;
  EXPECT_FALSE(base64Decode("TWE", out));
  EXPECT_FALSE(base64Decode("TW=u", out));
  EXPECT_FALSE(base64Decode("TWE=TWFu", out));
  EXPECT_FALSE(base64Decode("T*Fu", out));
}

//===----------------------------------------------------------------------===//
// Launch checks.
//===----------------------------------------------------------------------===//

LaunchPlan gqaPlan() {
  LaunchPlan plan;
  plan.kernel = "gqa";
  plan.sizes = {"H", "G", "N"};
  plan.buffers = {{"Q", BufferRole::Input, DType::F32, {{"H", 0}, {"N", 0}}},
                  {"K", BufferRole::Input, DType::F32, {{"G", 0}, {"N", 0}}},
                  {"W", BufferRole::Workspace, DType::F32, {{"N", 0}}},
                  {"O", BufferRole::Output, DType::F32, {{"H", 0}, {"", 4}}}};
  plan.requirements = {
      {"H % G == 0",
       op("eq", {op("rem", {SizeExpr::size("H"), SizeExpr::size("G")}),
                 SizeExpr::of(0)})}};
  ProgramDesc p;
  p.name = "gqa_O";
  p.outputDims = {{"H", 0}, {"", 4}};
  p.tile = {1, 4};
  p.threads = 128;
  p.dynamicSharedBytes = 200000;
  plan.programs = {p};
  return plan;
}

std::string check(const LaunchPlan &plan, std::vector<TensorArg> args,
                  DeviceLimits limits = {1, 1024, 1 << 20, 16}) {
  SizeValues sizes;
  return checkLaunch(plan, args, limits, sizes);
}

TEST(LaunchChecks, NamesWhatIsWrong) {
  alignas(16) static float data[64];
  LaunchPlan plan = gqaPlan();
  TensorArg q{data, DType::F32, {8, 5}, {}}, k{data, DType::F32, {2, 5}, {}},
      o{data, DType::F32, {8, 4}, {}};
  EXPECT_EQ(check(plan, {q, k, o}), "");
  EXPECT_EQ(check(plan, {q, k}),
            "kernel 'gqa' takes 3 tensors (Q, K, O), not 2");
  TensorArg k3 = k;
  k3.shape = {3, 5};
  EXPECT_EQ(check(plan, {q, k3, o}),
            "requirement 'H % G == 0' does not hold (G=3, H=8)");
  // A launch condition that cannot be evaluated is named, not skipped.
  LaunchPlan divided = plan;
  divided.programs.front().launchWhen = Requirement{
      "8 / (H - 8) > 0",
      SizeExpr::op(
          "gt", {SizeExpr::op("div", {SizeExpr::of(8),
                                      SizeExpr::op("sub", {SizeExpr::size("H"),
                                                           SizeExpr::of(8)})}),
                 SizeExpr::of(0)})};
  EXPECT_EQ(
      check(divided, {q, k, o})
          .rfind("program '" + divided.programs.front().name +
                     "' is launched under '8 / (H - 8) > 0', which cannot be "
                     "evaluated: division by zero",
                 0),
      0u)
      << check(divided, {q, k, o});
  // A workspace only a copy uses: allocated where its condition holds,
  // no elements elsewhere; a condition that cannot be evaluated is named.
  LaunchPlan copied = plan;
  copied.buffers[2].allocateWhen = Requirement{
      "N < 8", SizeExpr::op("lt", {SizeExpr::size("N"), SizeExpr::of(8)})};
  EXPECT_EQ(extentsOf(copied.buffers[2], {{"N", 5}}), std::vector<int64_t>{5});
  EXPECT_EQ(extentsOf(copied.buffers[2], {{"N", 9}}), std::vector<int64_t>{0});
  EXPECT_EQ(bytesOf(copied.buffers[2], {{"N", 9}}), 0u);
  EXPECT_EQ(check(copied, {q, k, o}), "");
  copied.buffers[2].allocateWhen->condition =
      divided.programs.front().launchWhen->condition;
  copied.buffers[2].allocateWhen->text = "8 / (H - 8) > 0";
  EXPECT_EQ(check(copied, {q, k, o}),
            "workspace 'W' is allocated under '8 / (H - 8) > 0', which "
            "cannot be evaluated: division by zero in (div 8 (sub H 8))");
  TensorArg k6 = k;
  k6.shape = {2, 6};
  EXPECT_EQ(check(plan, {q, k6, o}),
            "dimension 1 of 'K' is 6, but N is 5 (from dimension 1 of 'Q')");
  TensorArg o5 = o;
  o5.shape = {8, 5};
  EXPECT_EQ(check(plan, {q, k, o5}),
            "dimension 1 of 'O' is 5; the kernel needs 4");
  TensorArg half = q;
  half.dtype = DType::F16;
  EXPECT_EQ(check(plan, {half, k, o}),
            "input 'Q' is f16; the kernel takes f32");
  TensorArg strided = q;
  strided.strides = {1, 8};
  EXPECT_EQ(check(plan, {strided, k, o}),
            "input 'Q' is not contiguous (strides [1, 8] for shape [8, 5]); "
            "pass a row-major copy");
  TensorArg misaligned = q;
  misaligned.data = data + 1;
  EXPECT_EQ(check(plan, {misaligned, k, o}),
            "input 'Q' is at an address not aligned to 16 bytes");
  TensorArg anyStride = k;
  anyStride.shape = {1, 5};
  anyStride.strides = {999, 1}; // extent 1: its stride does not matter
  LaunchPlan one = plan;
  one.requirements.clear();
  EXPECT_EQ(check(one, {q, anyStride, o}), "");
  EXPECT_EQ(check(plan, {q, k, o}, {1, 1024, 1 << 20, 16, /*maxBlocks=*/4}),
            "program 'gqa_O' needs 8 blocks; this device launches at most 4");
  EXPECT_EQ(check(plan, {q, k, o}, {1, 1024, 101376, 16}),
            "program 'gqa_O' needs 200000 bytes of shared memory; this device "
            "allows 101376 a block (compile for this device's target)");
  EXPECT_EQ(check(plan, {q, k, o}, {1, 64, 1 << 20, 16}),
            "program 'gqa_O' needs blocks of 128 threads; this device allows "
            "64");
}

//===----------------------------------------------------------------------===//
// The disk cache.
//===----------------------------------------------------------------------===//

TEST(KernelCache, StoresLoadsAndRemoves) {
  ScratchDirectory scratch("cache");
  KernelCache cache(scratch.path + "/a/b/");
  EXPECT_FALSE(cache.load(42));
  EXPECT_EQ(cache.store(42, std::string("x\0y", 3)), "");
  EXPECT_EQ(cache.load(42), std::string("x\0y", 3));
  EXPECT_EQ(cache.store(42, "second"), "");
  EXPECT_EQ(cache.load(42), "second");
  cache.remove(42);
  EXPECT_FALSE(cache.load(42));
}

TEST(KernelCache, IgnoresADirectoryOthersMayWrite) {
  ScratchDirectory scratch("shared");
  std::string dir = scratch.path;
  KernelCache cache(dir);
  ASSERT_EQ(cache.store(7, "code"), "");
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  EXPECT_FALSE(cache.load(7));
  EXPECT_NE(cache.store(7, "code").find("is not private to this user"),
            std::string::npos);
  ::chmod(dir.c_str(), 0700);
  EXPECT_EQ(cache.load(7), "code");
}

//===----------------------------------------------------------------------===//
// The C API.
//===----------------------------------------------------------------------===//

const char *kSoftmax = R"(
# Row softmax, with a requirement to check at launch.
kernel softmax(X: f32[R, C]) -> (Y: f32[R, C]) {
  require C % 2 == 0
  Mx[r] = max[c](X[r, c])
  E[r, c] = exp(X[r, c] - Mx[r])
  L[r] = sum[c](E[r, c])
  Y[r, c] = E[r, c] / L[r]
}
)";

/// Compiles `source` for the cpu into `cacheDir`; the status's message
/// (empty on success).
std::string compile(const char *source, const std::string &cacheDir,
                    nt_program *out, uint32_t flags = 0,
                    nt_code *code = nullptr) {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.source = source;
  options.cache_dir = cacheDir.c_str();
  options.flags = flags;
  nt_status s = nt_compile(&options, out);
  std::string message = nt_status_message(s);
  if (code)
    *code = nt_status_code(s);
  nt_status_free(s);
  return message;
}

std::string launch(nt_program program, std::vector<float> &x,
                   std::vector<float> &y, int64_t rows, int64_t cols) {
  nt_device device = nullptr;
  nt_status s = nt_device_open("cpu", 0, &device);
  EXPECT_EQ(s, nullptr);
  int64_t shape[2] = {rows, cols};
  nt_tensor params[2] = {{x.data(), NT_F32, 2, shape, nullptr},
                         {y.data(), NT_F32, 2, shape, nullptr}};
  s = nt_launch(device, program, params, 2, nullptr);
  std::string message = nt_status_message(s);
  nt_status_free(s);
  nt_device_free(device);
  return message;
}

TEST(CApi, CompilesCachesAndLaunches) {
  ScratchDirectory scratch("capi");
  std::string dir = scratch.path;
  nt_program first = nullptr, second = nullptr, third = nullptr;
  ASSERT_EQ(compile(kSoftmax, dir, &first, NT_COMPILE_NO_CACHE), "");
  EXPECT_EQ(nt_program_cache_hit(first), 0);
  ASSERT_EQ(compile(kSoftmax, dir, &second), "");
  EXPECT_EQ(nt_program_cache_hit(second), 0); // the memory cache was skipped
  // Comments and spacing do not change the key.
  std::string respaced = std::string("# another comment\n") + kSoftmax;
  ASSERT_EQ(compile(respaced.c_str(), dir, &third), "");
  EXPECT_EQ(nt_program_cache_hit(third), 1);
  EXPECT_STREQ(nt_program_kernel(third), "softmax");
  EXPECT_STREQ(nt_program_target(third), "cpu");
  ASSERT_EQ(nt_program_num_params(third), 2u);
  nt_param_info info;
  ASSERT_EQ(nt_program_param(third, 1, &info), nullptr);
  EXPECT_STREQ(info.name, "Y");
  EXPECT_EQ(info.role, NT_OUTPUT);

  const int64_t rows = 37, cols = 50;
  std::vector<float> x(rows * cols), y(rows * cols, -1);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(float(i)) * 10;
  ASSERT_EQ(launch(third, x, y, rows, cols), "");
  for (int64_t r = 0; r < rows; ++r) {
    double top = -INFINITY, total = 0;
    for (int64_t c = 0; c < cols; ++c)
      top = std::max(top, double(x[r * cols + c]));
    for (int64_t c = 0; c < cols; ++c)
      total += std::exp(x[r * cols + c] - top);
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_NEAR(y[r * cols + c], std::exp(x[r * cols + c] - top) / total,
                  1e-6)
          << r << ", " << c;
  }
  // The kernel's require line, checked at launch.
  std::vector<float> odd(rows * 7);
  EXPECT_EQ(launch(third, odd, odd, rows, 7),
            "requirement 'C % 2 == 0' does not hold (C=7)");
  nt_program_free(first);
  nt_program_free(second);
  nt_program_free(third);
}

/// Whether `body` returns true in a child process: one with its own memory
/// cache, empty of what the test compiled.
template <typename F> bool inChildProcess(F body) {
  pid_t child = ::fork();
  if (child == 0)
    ::_exit(body() ? 0 : 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// How a fresh process got the kernel (nt_program_cache_hit), or -1.
int cacheHitInChild(const std::string &source, const std::string &dir) {
  for (int hit = 0; hit <= 2; ++hit)
    if (inChildProcess([&] {
          nt_program q = nullptr;
          return compile(source.c_str(), dir, &q).empty() &&
                 nt_program_cache_hit(q) == hit;
        }))
      return hit;
  return -1;
}

TEST(CApi, DiskCacheHitsAndRebuildsCorruptEntries) {
  ScratchDirectory scratch("disk");
  std::string dir = scratch.path;
  std::string source = kSoftmax;
  source.replace(source.find("softmax("), 8, "softmax_disk(");
  // Compiled once per set of three children: the first compiles and
  // stores; the next two find it on disk.
  EXPECT_EQ(cacheHitInChild(source, dir), 0);
  EXPECT_EQ(cacheHitInChild(source, dir), 2);
  // Truncate the entry: the next compile rebuilds it, whole.
  std::string entry;
  FILE *ls = ::popen(("ls " + dir + "/*.bundle").c_str(), "r");
  char path[4096] = {0};
  if (std::fgets(path, sizeof path, ls))
    entry = std::string(path, std::strlen(path) - 1);
  ::pclose(ls);
  ASSERT_FALSE(entry.empty());
  std::ifstream whole(entry, std::ios::binary | std::ios::ate);
  std::streamoff size = whole.tellg();
  ASSERT_EQ(::truncate(entry.c_str(), 100), 0);
  EXPECT_EQ(cacheHitInChild(source, dir), 0);
  std::ifstream rebuilt(entry, std::ios::binary | std::ios::ate);
  EXPECT_EQ(rebuilt.tellg(), size);
  EXPECT_EQ(cacheHitInChild(source, dir), 2);
}

TEST(CApi, EightProcessesShareOneEmptyCache) {
  ScratchDirectory scratch("eight");
  std::string dir = scratch.path;
  std::string source = kSoftmax;
  source.replace(source.find("softmax("), 8, "softmax_eight(");
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    pid_t child = ::fork();
    if (child == 0) {
      nt_program q = nullptr;
      ::_exit(compile(source.c_str(), dir, &q).empty() ? 0 : 1);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  // One valid entry, no temporary file left.
  FILE *ls = ::popen(("ls -A " + dir).c_str(), "r");
  std::vector<std::string> files;
  char line[4096];
  while (std::fgets(line, sizeof line, ls))
    files.emplace_back(line);
  ::pclose(ls);
  EXPECT_EQ(files.size(), 1u);
  EXPECT_EQ(cacheHitInChild(source, dir), 2);
}

TEST(CApi, EightThreadsCompileOneKernelOnce) {
  ScratchDirectory scratch("threads");
  std::string dir = scratch.path;
  std::string source = kSoftmax;
  source.replace(source.find("softmax("), 8, "softmax_threads(");
  std::vector<int> hits(8, -1);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      nt_program p = nullptr;
      if (compile(source.c_str(), dir, &p).empty())
        hits[i] = nt_program_cache_hit(p);
      nt_program_free(p);
    });
  for (std::thread &t : threads)
    t.join();
  // Every thread got the program; one compiled it, the rest found it.
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 0), 1);
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 7);
}

/// examples/gemm.tensor's gemm (f16 x f16 -> f32) compiled for `target`
/// with its kernel IR, run on the emu device at M x N x K and compared with
/// a plain product: the launch a GPU would get (grid, packed parameters,
/// tensor maps), checked by the emulator.
void expectGemmOnEmulator(const char *target, int64_t M, int64_t N, int64_t K,
                          const char *shapes = nullptr) {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.target = target;
  options.shapes = shapes;
  options.flags = NT_COMPILE_NO_CACHE | NT_COMPILE_KERNEL_IR;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  EXPECT_NE(nt_program_code(program, "nvvm_ir"), nullptr);
  nt_device device = nullptr;
  s = nt_device_open("emu", 0, &device);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  std::vector<uint16_t> a(M * K), b(K * N);
  std::vector<float> af(M * K), bf(K * N), c(M * N, -1);
  for (int64_t i = 0; i < M * K; ++i)
    a[i] = floatToF16Bits(af[i] = float((i * 7) % 13 - 6) / 8);
  for (int64_t i = 0; i < K * N; ++i)
    b[i] = floatToF16Bits(bf[i] = float((i * 5) % 11 - 5) / 8);
  // Device memory: the emulator's buffers are 64-byte aligned.
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(nt_device_alloc(device, a.size() * 2, &da), nullptr);
  ASSERT_EQ(nt_device_alloc(device, b.size() * 2, &db), nullptr);
  ASSERT_EQ(nt_device_alloc(device, c.size() * 4, &dc), nullptr);
  ASSERT_EQ(nt_device_copy_to_device(device, da, a.data(), a.size() * 2),
            nullptr);
  ASSERT_EQ(nt_device_copy_to_device(device, db, b.data(), b.size() * 2),
            nullptr);
  int64_t as[2] = {M, K}, bs[2] = {K, N}, cs[2] = {M, N};
  nt_tensor params[3] = {{da, NT_F16, 2, as, nullptr},
                         {db, NT_F16, 2, bs, nullptr},
                         {dc, NT_F32, 2, cs, nullptr}};
  s = nt_launch(device, program, params, 3, nullptr);
  EXPECT_EQ(s, nullptr) << nt_status_message(s);
  nt_status_free(s);
  ASSERT_EQ(nt_device_copy_to_host(device, c.data(), dc, c.size() * 4),
            nullptr);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += double(af[i * K + k]) * bf[k * N + j];
      ASSERT_NEAR(c[i * N + j], want, 1e-4) << target << " " << i << ", " << j;
    }
  for (void *m : {da, db, dc})
    nt_device_free_memory(device, m);
  nt_device_free(device);
  nt_program_free(program);
}

TEST(CApi, RunsNvidiaBundlesOnTheEmulator) {
  expectGemmOnEmulator("sm_80", 40, 24, 32);
  expectGemmOnEmulator("sm_90", 64, 48, 64);
  expectGemmOnEmulator("sm_90", 128, 64, 64, "M=128,N=64,K=64");
}

/// Attention for sm_90 on the emu device through nt_launch: four programs,
/// workspaces the runtime allocates (S, its row maximum and sum), a TMA
/// tensor map; checked against a plain softmax(Q K^T / sqrt(D)) V.
TEST(CApi, RunsAttentionWithWorkspacesOnTheEmulator) {
  const int64_t B = 1, H = 2, N = 24, M = 40, D = 64;
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/attention.tensor";
  options.kernel = "attention";
  options.target = "sm_90";
  options.flags = NT_COMPILE_NO_CACHE | NT_COMPILE_KERNEL_IR;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("emu", 0, &device), nullptr);
  auto fill = [](int64_t count, unsigned seed, std::vector<float> &values) {
    std::vector<uint16_t> bits(count);
    values.resize(count);
    for (int64_t i = 0; i < count; ++i) {
      seed = seed * 1103515245u + 12345u;
      bits[i] = floatToBF16Bits(float(int((seed >> 16) % 65) - 32) / 32);
      values[i] = bf16BitsToFloat(bits[i]);
    }
    return bits;
  };
  std::vector<float> q, k, v;
  std::vector<uint16_t> qb = fill(B * H * N * D, 1, q),
                        kb = fill(B * H * M * D, 2, k),
                        vb = fill(B * H * M * D, 3, v), ob(B * H * N * D);
  std::vector<void *> memory;
  auto place = [&](std::vector<uint16_t> &host) {
    void *at = nullptr;
    EXPECT_EQ(nt_device_alloc(device, host.size() * 2, &at), nullptr);
    EXPECT_EQ(
        nt_device_copy_to_device(device, at, host.data(), host.size() * 2),
        nullptr);
    memory.push_back(at);
    return at;
  };
  int64_t qs[4] = {B, H, N, D}, ks[4] = {B, H, M, D};
  nt_tensor params[4] = {{place(qb), NT_BF16, 4, qs, nullptr},
                         {place(kb), NT_BF16, 4, ks, nullptr},
                         {place(vb), NT_BF16, 4, ks, nullptr},
                         {place(ob), NT_BF16, 4, qs, nullptr}};
  s = nt_launch(device, program, params, 4, nullptr);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  ASSERT_EQ(nt_device_copy_to_host(device, ob.data(), memory[3], ob.size() * 2),
            nullptr);
  double worst = 0;
  std::vector<double> p(M);
  for (int64_t bh = 0; bh < B * H; ++bh)
    for (int64_t n = 0; n < N; ++n) {
      double top = -INFINITY, total = 0;
      for (int64_t m = 0; m < M; ++m) {
        double dot = 0;
        for (int64_t d = 0; d < D; ++d)
          dot += double(q[(bh * N + n) * D + d]) * k[(bh * M + m) * D + d];
        p[m] = dot / std::sqrt(double(D));
        top = std::max(top, p[m]);
      }
      for (int64_t m = 0; m < M; ++m)
        total += p[m] = std::exp(p[m] - top);
      for (int64_t d = 0; d < D; ++d) {
        double want = 0;
        for (int64_t m = 0; m < M; ++m)
          want += p[m] * v[(bh * M + m) * D + d];
        worst = std::max(worst,
                         std::fabs(bf16BitsToFloat(ob[(bh * N + n) * D + d]) -
                                   want / total));
      }
    }
  EXPECT_LT(worst, 1.0 / 64); // bf16 P and O
  for (void *m : memory)
    nt_device_free_memory(device, m);
  nt_device_free(device);
  nt_program_free(program);
}

TEST(CApi, EmuNeedsTheKernelIR) {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.target = "sm_80";
  options.flags = NT_COMPILE_NO_CACHE;
  nt_program program = nullptr;
  ASSERT_EQ(nt_compile(&options, &program), nullptr);
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("emu", 0, &device), nullptr);
  alignas(64) static uint16_t a[64], b[64];
  alignas(64) static float c[64];
  int64_t shape[2] = {8, 8};
  nt_tensor params[3] = {{a, NT_F16, 2, shape, nullptr},
                         {b, NT_F16, 2, shape, nullptr},
                         {c, NT_F32, 2, shape, nullptr}};
  nt_status s = nt_launch(device, program, params, 3, nullptr);
  EXPECT_EQ(nt_status_code(s), NT_LAUNCH_ERROR);
  EXPECT_STREQ(nt_status_message(s),
               "the bundle has no kernel IR for the emulator: compile it "
               "with NT_COMPILE_KERNEL_IR");
  nt_status_free(s);
  nt_device_free(device);
  nt_program_free(program);
}

/// Two live cpu programs whose programs share names each run their own
/// code (their libraries are loaded from distinct in-memory files).
TEST(CApi, TwoLiveCpuProgramsRunTheirOwnCode) {
  const char *scale = R"(
kernel scale(X: f32[N], a: f32) -> (Y: f32[N]) {
  Y[n] = X[n] * a + FACTOR
}
)";
  std::string one = scale, two = scale;
  one.replace(one.find("FACTOR"), 6, "1.0");
  two.replace(two.find("FACTOR"), 6, "2.0");
  ScratchDirectory scratch("two");
  std::string dir = scratch.path;
  nt_program p1 = nullptr, p2 = nullptr;
  ASSERT_EQ(compile(one.c_str(), dir, &p1, NT_COMPILE_NO_CACHE), "");
  ASSERT_EQ(compile(two.c_str(), dir, &p2, NT_COMPILE_NO_CACHE), "");
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("cpu", 0, &device), nullptr);
  std::vector<float> x = {1, 2, 3}, y1(3), y2(3);
  float a = 10; // a scalar: its value in host memory
  int64_t n[1] = {3};
  for (auto [program, y] : {std::pair{p1, &y1}, std::pair{p2, &y2}}) {
    nt_tensor params[3] = {{x.data(), NT_F32, 1, n, nullptr},
                           {&a, NT_F32, 0, nullptr, nullptr},
                           {y->data(), NT_F32, 1, n, nullptr}};
    nt_status s = nt_launch(device, program, params, 3, nullptr);
    EXPECT_EQ(s, nullptr) << nt_status_message(s);
    nt_status_free(s);
  }
  EXPECT_EQ(y1, (std::vector<float>{11, 21, 31}));
  EXPECT_EQ(y2, (std::vector<float>{12, 22, 32}));
  nt_device_free(device);
  nt_program_free(p1);
  nt_program_free(p2);
}

/// A GEMM compiled without its sizes is one copy of its program for each
/// range of the sizes the model divides (docs/autoscheduler.md); each
/// launch runs the copy whose ranges hold the sizes, and every copy is
/// right (shapes on both sides of the single row and column, where this
/// project's hosts divide).
TEST(CApi, RunsTheCopyForEachRangeOfASize) {
  const char *gemm = R"(
kernel gemm(A: f32[M, K], B: f32[K, N]) -> (C: f32[M, N]) {
  C[m, n] = sum[k](A[m, k] * B[k, n])
}
)";
  ScratchDirectory scratch("ranges");
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.source = gemm;
  options.cache_dir = scratch.path.c_str();
  options.flags = NT_COMPILE_NO_CACHE;
  options.explain = 1;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  EXPECT_NE(std::string(nt_program_explain(program))
                .find(" copies of the program, for ranges of "),
            std::string::npos)
      << nt_program_explain(program);
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("cpu", 0, &device), nullptr);
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{6, 1, 33},
                         {1, 37, 33},
                         {6, 37, 33},
                         {40, 2, 5},
                         {12, 1, 9},
                         {1, 1, 9}}) {
    std::vector<float> a(m * k), b(k * n), c(m * n, -1);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = std::sin(float(i));
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = std::cos(float(i));
    int64_t shapeA[2] = {m, k}, shapeB[2] = {k, n}, shapeC[2] = {m, n};
    nt_tensor params[3] = {{a.data(), NT_F32, 2, shapeA, nullptr},
                           {b.data(), NT_F32, 2, shapeB, nullptr},
                           {c.data(), NT_F32, 2, shapeC, nullptr}};
    s = nt_launch(device, program, params, 3, nullptr);
    ASSERT_EQ(s, nullptr) << nt_status_message(s);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double expected = 0;
        for (int64_t x = 0; x < k; ++x)
          expected += double(a[i * k + x]) * b[x * n + j];
        ASSERT_NEAR(c[i * n + j], expected, 1e-4)
            << m << "x" << n << "x" << k << " at " << i << ", " << j;
      }
  }
  nt_device_free(device);
  nt_program_free(program);
}

/// A cpu bundle lists the CPU features its code uses; a machine without
/// one refuses it with a clear error instead of an illegal instruction.
TEST(CApi, RefusesCpuCodeForFeaturesThisMachineLacks) {
  ScratchDirectory scratch("features");
  std::string dir = scratch.path;
  std::string source = kSoftmax;
  source.replace(source.find("softmax("), 8, "softmax_features(");
  nt_program p = nullptr;
  ASSERT_EQ(compile(source.c_str(), dir, &p), "");
  nt_program_free(p);
  FILE *ls = ::popen(("ls " + dir + "/*.bundle").c_str(), "r");
  char path[4096] = {0};
  ASSERT_TRUE(std::fgets(path, sizeof path, ls));
  ::pclose(ls);
  std::ifstream in(std::string(path, std::strlen(path) - 1), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  Bundle bundle;
  std::string error;
  ASSERT_TRUE(readBundle(bytes, bundle, error)) << error;
  bundle.cpuFeatures.push_back("avx1024"); // no machine has it
  bytes = writeBundle(bundle);
  ASSERT_EQ(nt_program_load(bytes.data(), bytes.size(), &p), nullptr);
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("cpu", 0, &device), nullptr);
  std::vector<float> x(8), y(8);
  int64_t shape[2] = {2, 4};
  nt_tensor params[2] = {{x.data(), NT_F32, 2, shape, nullptr},
                         {y.data(), NT_F32, 2, shape, nullptr}};
  nt_status s = nt_launch(device, p, params, 2, nullptr);
  EXPECT_EQ(nt_status_code(s), NT_LAUNCH_ERROR);
  EXPECT_NE(std::string(nt_status_message(s))
                .find("uses features this one lacks (avx1024)"),
            std::string::npos)
      << nt_status_message(s);
  nt_status_free(s);
  nt_device_free(device);
  nt_program_free(p);
}

/// `v` with one of its values, the `pick`-th in document order, replaced
/// by a hostile one chosen by `seed`; returns whether it found it.
bool mutate(json::Value &v, unsigned &pick, unsigned seed) {
  if (pick-- == 0) {
    switch (seed % 6) {
    case 0:
      v = json::Value::makeInt(-1);
      break;
    case 1:
      v = json::Value::makeInt(INT64_MAX);
      break;
    case 2:
      v = json::Value::makeString("Q");
      break;
    case 3:
      v = json::Value::makeArray();
      break;
    case 4:
      v = json::Value::makeInt(0);
      break;
    default:
      v = json::Value::makeObject();
      break;
    }
    return true;
  }
  for (json::Value &e : v.elements)
    if (mutate(e, pick, seed))
      return true;
  for (size_t i = 0; i < v.members.size(); ++i)
    if (v.keys[i] != "checksum" && v.keys[i] != "format" &&
        mutate(v.members[i], pick, seed))
      return true;
  return false;
}

/// A bundle whose checksum is right but whose fields are hostile (each
/// value in turn replaced by a negative, huge, empty or mistyped one) is
/// refused or loads, and then sizes its parameters, without a crash.
TEST(CApi, HostileBundlesNeverCrash) {
  Bundle bundle;
  bundle.plan.kernel = "k";
  bundle.plan.sizes = {"N", "M", "T"};
  bundle.plan.bindings = {{"M", 4}};
  bundle.plan.derivedSizes = {{"T", {{2, {"N", "M"}}}}};
  bundle.plan.buffers = {
      {"X", BufferRole::Input, DType::F32, {{"N", 0}, {"M", 0}}},
      {"a", BufferRole::Scalar, DType::F32, {}},
      {"W", BufferRole::Workspace, DType::F32, {{"T", 0}}},
      {"Y", BufferRole::Output, DType::F32, {{"N", 0}, {"", 3}}}};
  ProgramDesc program;
  program.name = "k_Y";
  program.outputDims = {{"N", 0}, {"", 3}};
  program.tile = {8, 3};
  program.tensorMaps = {{"X", {8, 4}, 128}};
  bundle.plan.programs = {program};
  bundle.plan.requirements = {
      {"N > 0", SizeExpr::op("gt", {SizeExpr::size("N"), SizeExpr::of(0)})}};
  bundle.target = "sm_90";
  bundle.chip = "sm_90a";
  bundle.code["ptx"] = "//";
  json::Value doc;
  std::string error;
  ASSERT_TRUE(json::parse(writeBundle(bundle), doc, error)) << error;
  int loaded = 0, refused = 0;
  for (unsigned at = 0;; ++at) {
    json::Value edited = doc;
    unsigned pick = at + 1; // not the document itself
    if (!mutate(edited, pick, at * 2654435761u))
      break;
    std::string text = json::write(edited) + "\n";
    size_t sum = text.find("\"fnv1a64:") + 9;
    text.replace(sum, 16, std::string(16, '0'));
    text.replace(sum, 16, hex64(fnv1a64(text)));
    nt_program p = nullptr;
    nt_status s = nt_program_load(text.data(), text.size(), &p);
    if (s) {
      EXPECT_EQ(nt_status_code(s), NT_CORRUPT) << nt_status_message(s);
      ++refused;
      nt_status_free(s);
      continue;
    }
    ++loaded;
    float x[64] = {0}, a = 1;
    int64_t shape[2] = {8, 4};
    nt_tensor inputs[2] = {{x, NT_F32, 2, shape, nullptr},
                           {&a, NT_F32, 0, nullptr, nullptr}};
    int64_t out[8];
    for (size_t i = 0; i < nt_program_num_params(p); ++i) {
      nt_param_info info;
      if (nt_program_param(p, i, &info) != nullptr || info.ndim > 8)
        continue;
      nt_status shaped = nt_program_param_shape(p, inputs, 2, i, out);
      EXPECT_NE(nt_status_code(shaped), NT_INTERNAL)
          << at << ": " << nt_status_message(shaped); // no exception inside
      nt_status_free(shaped);
    }
    nt_program_free(p);
  }
  EXPECT_GT(refused, 20);
  EXPECT_GT(loaded, 0);
}

/// A schedule file given to nt_compile is used, and its content (not its
/// name) keys the cache: an edited file compiles again.
TEST(CApi, CompilesWithAScheduleFile) {
  ScratchDirectory scratch("schedule");
  std::string dir = scratch.path;
  ::mkdir(dir.c_str(), 0700);
  std::string path = dir + "/schedule.json";
  auto write = [&](const char *text) { std::ofstream(path) << text; };
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.schedule = path.c_str();
  options.cache_dir = dir.c_str();
  options.explain = 1;
  write(
      R"({"programs": {"gemm_C": "#tile.schedule<tile = [8, 16], threads = 1>"}})");
  nt_program first = nullptr, again = nullptr, edited = nullptr;
  nt_status s = nt_compile(&options, &first);
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  EXPECT_NE(std::string(nt_program_explain(first)).find("schedule file"),
            std::string::npos)
      << nt_program_explain(first);
  ASSERT_EQ(nt_compile(&options, &again), nullptr);
  EXPECT_EQ(nt_program_cache_hit(again), 1);
  write(
      R"({"programs": {"gemm_C": "#tile.schedule<tile = [16, 16], threads = 1>"}})");
  ASSERT_EQ(nt_compile(&options, &edited), nullptr);
  EXPECT_EQ(nt_program_cache_hit(edited), 0);
  write(
      R"({"programs": {"nonesuch": "#tile.schedule<tile = [8, 8], threads = 1>"}})");
  nt_program bad = nullptr;
  s = nt_compile(&options, &bad);
  EXPECT_EQ(nt_status_code(s), NT_COMPILE_ERROR);
  EXPECT_NE(std::string(nt_status_message(s)).find("nonesuch"),
            std::string::npos)
      << nt_status_message(s);
  nt_status_free(s);
  for (nt_program p : {first, again, edited})
    nt_program_free(p);
}

/// The auto-scheduler's schedules refuted (the verifier's test hook breaks
/// the first schedules' models): the JIT compiles the heuristics' instead,
/// and the warning is kept with the explanation. Without verification the
/// refuted schedules are compiled, under another cache key.
TEST(CApi, FallsBackFromRefutedSchedules) {
  ScratchDirectory scratch("fallback");
  std::string dir = scratch.path;
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.target = "sm_80";
  options.shapes = "M=256,N=256,K=256";
  options.schedule = "auto";
  options.cache_dir = dir.c_str();
  options.explain = 1;
  setenv("NAUTILUS_VERIFY_MUTATION", "missing-barrier", 1);
  setenv("NAUTILUS_PROOF_CACHE", "0", 1);
  nt_program verified = nullptr, unverified = nullptr;
  nt_status s = nt_compile(&options, &verified);
  options.flags |= NT_COMPILE_NO_VERIFY;
  nt_status t = nt_compile(&options, &unverified);
  unsetenv("NAUTILUS_VERIFY_MUTATION");
  unsetenv("NAUTILUS_PROOF_CACHE");
  ASSERT_EQ(s, nullptr) << nt_status_message(s);
  ASSERT_EQ(t, nullptr) << nt_status_message(t);
  std::string explained = nt_program_explain(verified);
  EXPECT_NE(explained.find("lowering the kernel again with the "
                           "auto-scheduler's next candidates"),
            std::string::npos)
      << explained;
  EXPECT_NE(explained.find("REFUTED"), std::string::npos) << explained;
  EXPECT_EQ(nt_program_cache_hit(unverified), 0);
  EXPECT_EQ(std::string(nt_program_explain(unverified)).find("REFUTED"),
            std::string::npos);
  for (nt_program p : {verified, unverified})
    nt_program_free(p);
}

TEST(CApi, ReportsErrorsWithTheirCodes) {
  nt_program p = nullptr;
  nt_code code = NT_OK;
  ScratchDirectory scratch("errors");
  std::string message =
      compile("kernel k(X: f32[N]) -> (Y: f32[N]) {\n  Y[n] = X[n] +\n}\n",
              scratch.path, &p, 0, &code);
  EXPECT_EQ(code, NT_COMPILE_ERROR);
  EXPECT_EQ(message.rfind("<source>:2:", 0), 0u) << message;
  EXPECT_NE(message.find("error:"), std::string::npos) << message;

  nt_device device = nullptr;
  nt_status s = nt_device_open("cuda", 0, &device);
  if (s) { // no GPU driver here: a clear message, no crash
    EXPECT_EQ(nt_status_code(s), NT_UNAVAILABLE);
    EXPECT_NE(std::string(nt_status_message(s)).find("libcuda.so.1"),
              std::string::npos);
  }
  nt_status_free(s);
  nt_device_free(device);
  s = nt_device_open("hip", 0, &device);
  if (s) { // no ROCm here
    EXPECT_EQ(nt_status_code(s), NT_UNAVAILABLE);
    EXPECT_NE(std::string(nt_status_message(s)).find("libamdhip64"),
              std::string::npos);
  }
  nt_status_free(s);
  nt_device_free(device);
  s = nt_device_open("tpu", 0, &device);
  EXPECT_EQ(nt_status_code(s), NT_INVALID_ARGUMENT);
  EXPECT_STREQ(nt_status_message(s),
               "unknown device 'tpu' (expected cpu, cuda, hip or emu)");
  nt_status_free(s);
  const char garbage[] = "{\"format\": \"nautilus-bundle-3\"}";
  s = nt_program_load(garbage, sizeof garbage - 1, &p);
  EXPECT_EQ(nt_status_code(s), NT_CORRUPT);
  nt_status_free(s);
  // A bundle whose fields disagree: a tensor map's box of the wrong rank.
  Bundle bad;
  bad.plan.kernel = "k";
  bad.plan.sizes = {"N"};
  bad.plan.buffers = {{"X", BufferRole::Input, DType::F32, {{"N", 0}}}};
  ProgramDesc program;
  program.name = "k_X";
  program.outputDims = {{"N", 0}};
  program.tile = {8};
  program.tensorMaps = {{"X", {8, 8}, 0}};
  bad.plan.programs = {program};
  bad.target = "sm_90";
  bad.chip = "sm_90a";
  bad.code["ptx"] = "//";
  std::string bytes = writeBundle(bad);
  s = nt_program_load(bytes.data(), bytes.size(), &p);
  EXPECT_EQ(nt_status_code(s), NT_CORRUPT);
  EXPECT_STREQ(nt_status_message(s),
               "not a valid bundle: inconsistent bundle: program 'k_X' maps "
               "'X' with 2 box extents for 1 dimensions");
  nt_status_free(s);
}

} // namespace
