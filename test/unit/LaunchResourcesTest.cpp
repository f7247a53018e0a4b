//===- LaunchResourcesTest.cpp - What a launch keeps between launches -----===//
//
// The workspaces (runtime/WorkspacePool) and, on cuda, the TMA tensor maps
// (runtime/CudaDevice's TensorMapSets) that nt_launch keeps, so that a
// launch on a GPU neither allocates nor waits once its tensors were seen.
// The cuda device runs on a fake driver here: every entry point counts its
// calls, allocations are addresses that no one dereferences, and a tensor
// map holds the address and extents it describes. So does `nautc tune
// --device cuda`'s timing (GpuExecutor::timeLaunches).
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/GpuExecutor.h"
#include "nautilus.h"
#include "runtime/CudaDriver.h"
#include "runtime/Device.h"
#include "runtime/WorkspacePool.h"
#include "runtime/api/Handles.h"
#include "test/unit/ExampleKernelUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <thread>

using namespace nautilus;

namespace {

/// A device that counts what the pool asks of it.
class CountingDevice : public rt::Device {
public:
  std::string description() const override { return "counting"; }
  rt::DeviceLimits limits() const override { return {}; }
  std::string accepts(const rt::Bundle &) const override { return ""; }
  std::string load(const rt::Bundle &,
                   std::unique_ptr<rt::LoadedKernel> &) override {
    return "not used";
  }
  std::string allocate(size_t bytes, void **out) override {
    ++allocations;
    *out = bytes ? reinterpret_cast<void *>(next += 1 << 20) : nullptr;
    live[*out] = bytes;
    return "";
  }
  void release(void *memory) override {
    if (memory) {
      ++releases;
      live.erase(memory);
    }
  }
  std::string copyToDevice(void *, const void *, size_t) override { return ""; }
  std::string copyToHost(void *, const void *, size_t) override { return ""; }
  std::string synchronize(void *stream) override {
    ++waits[stream];
    return "";
  }

  int allocations = 0, releases = 0;
  std::map<void *, int> waits;
  std::map<void *, size_t> live;
  uintptr_t next = 0;
};

TEST(WorkspacePool, KeepsOneSetAStreamAndGrowsAfterWaiting) {
  CountingDevice device;
  void *streamA = reinterpret_cast<void *>(0x10);
  void *streamB = reinterpret_cast<void *>(0x20);
  {
    rt::WorkspacePool pool(device);
    std::vector<void *> first, again, other, grown;
    ASSERT_EQ(pool.acquire(streamA, {4096, 0, 256}, first), "");
    EXPECT_EQ(device.allocations, 2); // nothing for 0 bytes
    EXPECT_EQ(first[1], nullptr);
    // The same sizes on the same stream: the same memory, no wait.
    ASSERT_EQ(pool.acquire(streamA, {4096, 0, 256}, again), "");
    EXPECT_EQ(again, first);
    EXPECT_EQ(device.allocations, 2);
    // Smaller sizes fit too.
    ASSERT_EQ(pool.acquire(streamA, {1024, 0, 16}, again), "");
    EXPECT_EQ(again, first);
    // Another stream has a set of its own: the first may be in use.
    ASSERT_EQ(pool.acquire(streamB, {4096, 0, 256}, other), "");
    EXPECT_EQ(device.allocations, 4);
    EXPECT_NE(other[0], first[0]);
    // A larger block waits for its stream once, then replaces the block.
    ASSERT_EQ(pool.acquire(streamA, {8192, 64, 512}, grown), "");
    EXPECT_EQ(device.waits[streamA], 1);
    EXPECT_EQ(device.waits.count(streamB), 0u);
    EXPECT_EQ(device.releases, 2);
    EXPECT_EQ(device.allocations, 7);
    EXPECT_EQ(device.live.at(grown[0]), 8192u);
    EXPECT_EQ(device.live.at(grown[1]), 64u);
  }
  EXPECT_TRUE(device.live.empty()); // the pool released every block
  EXPECT_EQ(device.releases, device.allocations);
}

/// The fake driver's counts.
struct DriverCalls {
  int allocations = 0, frees = 0, copies = 0, asyncCopies = 0;
  int streamWaits = 0, contextWaits = 0, launches = 0, encodes = 0;
  unsigned long long next = 0x100000;
};
DriverCalls calls;

/// A driver whose every entry point succeeds and counts.
rt::cuda::Driver fakeDriver() {
  using namespace rt::cuda;
  Driver d{};
  d.cuInit = [](unsigned) { return CUDA_SUCCESS; };
  d.cuGetErrorString = [](CUresult, const char **s) {
    *s = "fake";
    return CUDA_SUCCESS;
  };
  d.cuDeviceGetCount = [](int *n) {
    *n = 1;
    return CUDA_SUCCESS;
  };
  d.cuDeviceGet = [](CUdevice *dev, int) {
    *dev = 0;
    return CUDA_SUCCESS;
  };
  d.cuDeviceGetName = [](char *name, int size, CUdevice) {
    std::snprintf(name, size, "Fake H200");
    return CUDA_SUCCESS;
  };
  d.cuDeviceGetAttribute = [](int *value, int which, CUdevice) {
    *value = which == kAttrMultiprocessorCount            ? 132
             : which == kAttrMaxThreadsPerBlock           ? 1024
             : which == kAttrMaxSharedMemoryPerBlockOptin ? 232448
             : which == kAttrComputeCapabilityMajor       ? 9
                                                          : 0;
    return CUDA_SUCCESS;
  };
  d.cuDevicePrimaryCtxRetain = [](CUcontext *c, CUdevice) {
    *c = reinterpret_cast<CUcontext>(0x1);
    return CUDA_SUCCESS;
  };
  d.cuDevicePrimaryCtxRelease = [](CUdevice) { return CUDA_SUCCESS; };
  d.cuCtxPushCurrent = [](CUcontext) { return CUDA_SUCCESS; };
  d.cuCtxPopCurrent = [](CUcontext *) { return CUDA_SUCCESS; };
  d.cuModuleLoadDataEx = [](CUmodule *m, const void *, unsigned, int *,
                            void **) {
    *m = reinterpret_cast<CUmodule>(0x2);
    return CUDA_SUCCESS;
  };
  d.cuModuleUnload = [](CUmodule) { return CUDA_SUCCESS; };
  d.cuModuleGetFunction = [](CUfunction *f, CUmodule, const char *) {
    *f = reinterpret_cast<CUfunction>(0x3);
    return CUDA_SUCCESS;
  };
  d.cuFuncSetAttribute = [](CUfunction, int, int) { return CUDA_SUCCESS; };
  d.cuLaunchKernel = [](CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **,
                        void **) {
    ++calls.launches;
    return CUDA_SUCCESS;
  };
  d.cuMemAlloc = [](CUdeviceptr *p, size_t bytes) {
    ++calls.allocations;
    *p = calls.next;
    calls.next += (bytes + 255) / 256 * 256 + 256;
    return CUDA_SUCCESS;
  };
  d.cuMemFree = [](CUdeviceptr) {
    ++calls.frees;
    return CUDA_SUCCESS;
  };
  d.cuMemcpyHtoD = [](CUdeviceptr, const void *, size_t) {
    ++calls.copies;
    return CUDA_SUCCESS;
  };
  d.cuMemcpyHtoDAsync = [](CUdeviceptr, const void *, size_t, CUstream) {
    ++calls.asyncCopies;
    return CUDA_SUCCESS;
  };
  d.cuMemcpyDtoH = [](void *, CUdeviceptr, size_t) { return CUDA_SUCCESS; };
  d.cuStreamSynchronize = [](CUstream) {
    ++calls.streamWaits;
    return CUDA_SUCCESS;
  };
  d.cuCtxSynchronize = []() {
    ++calls.contextWaits;
    return CUDA_SUCCESS;
  };
  d.cuTensorMapEncodeTiled = [](CUtensorMap *map, int, unsigned rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *, const uint32_t *,
                                const uint32_t *, int, int, int, int) {
    ++calls.encodes;
    map->opaque[0] = reinterpret_cast<uintptr_t>(address);
    for (unsigned i = 0; i < rank && i < 8; ++i)
      map->opaque[1 + i] = dims[i];
    return CUDA_SUCCESS;
  };
  return d;
}

std::string openFakeCuda(int ordinal, std::unique_ptr<rt::Device> &out) {
  static const rt::cuda::Driver driver = fakeDriver();
  return rt::openCudaDeviceWith(driver, ordinal, out);
}

/// A GEMM for sm_90 with K split (a partial program reading A and B by TMA
/// into a workspace, and a summing program).
nt_program compileSplitK() {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.target = "sm_90";
  options.shapes = "M=128,N=128,K=16384";
  options.flags = NT_COMPILE_NO_DISK_CACHE;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  EXPECT_EQ(s, nullptr) << nt_status_message(s);
  nt_status_free(s);
  return program;
}

TEST(CudaLaunch, KeepsWorkspacesAndTensorMapsBetweenLaunches) {
  capi::registerDeviceKind("fakecuda", openFakeCuda);
  nt_program program = compileSplitK();
  ASSERT_NE(program, nullptr);
  const rt::LaunchPlan &plan = program->bundle.plan;
  int withMaps = 0, workspaces = 0;
  for (const rt::ProgramDesc &p : plan.programs)
    withMaps += !p.tensorMaps.empty();
  for (const rt::BufferDesc &b : plan.buffers)
    workspaces += b.role == rt::BufferRole::Workspace;
  ASSERT_EQ(plan.programs.size(), 2u);
  ASSERT_EQ(withMaps, 1);
  ASSERT_EQ(workspaces, 1);

  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("fakecuda", 0, &device), nullptr);
  int64_t shapeA[2] = {128, 16384}, shapeB[2] = {16384, 128},
          shapeC[2] = {128, 128};
  auto tensors = [&](uintptr_t a) {
    return std::vector<nt_tensor>{
        {reinterpret_cast<void *>(a), NT_F16, 2, shapeA, nullptr},
        {reinterpret_cast<void *>(0x20000000), NT_F16, 2, shapeB, nullptr},
        {reinterpret_cast<void *>(0x30000000), NT_F32, 2, shapeC, nullptr}};
  };
  auto launch = [&](uintptr_t a, void *stream) {
    std::vector<nt_tensor> params = tensors(a);
    nt_status s =
        nt_launch(device, program, params.data(), params.size(), stream);
    EXPECT_EQ(s, nullptr) << nt_status_message(s);
    nt_status_free(s);
  };
  calls = DriverCalls();
  void *stream = reinterpret_cast<void *>(0x40);
  launch(0x10000000, stream);
  // The workspace and the partial program's maps: two allocations, the
  // maps copied on the stream and waited for once (a kernel on another,
  // non-blocking stream may read them later).
  EXPECT_EQ(calls.allocations, 2);
  EXPECT_EQ(calls.asyncCopies, 1);
  EXPECT_EQ(calls.launches, 2);
  EXPECT_EQ(calls.streamWaits, 1);
  EXPECT_EQ(calls.contextWaits, 0);
  // Again on the same tensors and stream: only the launches.
  launch(0x10000000, stream);
  launch(0x10000000, stream);
  EXPECT_EQ(calls.allocations, 2);
  EXPECT_EQ(calls.asyncCopies, 1);
  EXPECT_EQ(calls.launches, 6);
  EXPECT_EQ(calls.streamWaits, 1);
  EXPECT_EQ(calls.contextWaits, 0);
  // Another A: its maps differ, so a set of their own (the first is kept:
  // a kernel still queued may read it).
  launch(0x50000000, stream);
  EXPECT_EQ(calls.allocations, 3);
  EXPECT_EQ(calls.asyncCopies, 2);
  EXPECT_EQ(calls.frees, 0);
  // Another stream: a workspace of its own; the maps are shared.
  launch(0x10000000, reinterpret_cast<void *>(0x80));
  EXPECT_EQ(calls.allocations, 4);
  EXPECT_EQ(calls.asyncCopies, 2);
  EXPECT_EQ(calls.streamWaits, 2);
  EXPECT_EQ(calls.contextWaits, 0);
  EXPECT_EQ(calls.copies, 0);
  // The per-thread default stream is another stream in each thread: a
  // workspace each.
  void *perThread = reinterpret_cast<void *>(0x2);
  launch(0x10000000, perThread);
  launch(0x10000000, perThread);
  EXPECT_EQ(calls.allocations, 5);
  std::thread([&] { launch(0x10000000, perThread); }).join();
  EXPECT_EQ(calls.allocations, 6);
  // Freeing the program waits for the context once and frees everything.
  nt_program_free(program);
  EXPECT_EQ(calls.contextWaits, 1);
  EXPECT_EQ(calls.frees, calls.allocations);
  nt_device_free(device);
}

/// nautc tune's timing on a GPU: the buffers allocated and the inputs
/// copied once, then each timed run the program's launches and one wait
/// for them; executors on one device share it (and its context).
TEST(CudaLaunch, TimedLaunchesAllocateOnceAndWaitForEachRun) {
  test::ExampleKernel gemm("gemm.tensor", "gemm",
                           {{"M", 128}, {"N", 128}, {"K", 64}});
  ASSERT_TRUE(gemm.loaded());
  std::optional<TargetInfo> target = getTarget("sm_90", 1);
  ASSERT_TRUE(target);
  Compilation compilation(gemm.module(), *target);
  std::unique_ptr<rt::Device> opened;
  ASSERT_EQ(openFakeCuda(0, opened), "");
  std::shared_ptr<rt::Device> gpu = std::move(opened);
  calls = DriverCalls();
  std::string error;
  bool compilerFault = false;
  std::unique_ptr<GpuExecutor> executor =
      GpuExecutor::create(compilation, error, compilerFault, gpu);
  ASSERT_TRUE(executor) << error;
  SizeValues sizes{{"M", 128}, {"N", 128}, {"K", 64}};
  std::vector<rt::HostTensor> inputs = {
      rt::HostTensor::zeros(rt::DType::F16, {128, 64}),
      rt::HostTensor::zeros(rt::DType::F16, {64, 128})};
  std::optional<rt::Timing> timing =
      executor->timeLaunches(sizes, inputs, /*budgetSeconds=*/0.05, error);
  ASSERT_TRUE(timing) << error;
  EXPECT_GE(timing->runs, 5u);
  // A, B and C once, and the program's TMA tensor maps once (which the
  // device keeps, copied on the stream and waited for at the first
  // launch); A and B copied once; then one launch (one program) and one
  // wait a run, the warm-up runs too; the buffers freed after.
  EXPECT_EQ(calls.allocations, 4);
  EXPECT_EQ(calls.copies, 2);
  EXPECT_EQ(calls.asyncCopies, 1);
  EXPECT_GT(calls.launches, int(timing->runs));
  EXPECT_EQ(calls.streamWaits, calls.launches + 1);
  EXPECT_EQ(calls.frees, 3);
  // A second executor on the same device: no second device opened.
  std::unique_ptr<GpuExecutor> again =
      GpuExecutor::create(compilation, error, compilerFault, gpu);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(gpu.use_count(), 3);
}

} // namespace
