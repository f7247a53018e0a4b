//===- Jit.cpp - Compile a kernel in-process, through the caches ----------===//
#include "compiler/Jit/Jit.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Pipeline/Bundle.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/ScheduleFile.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/Hash.h"
#include "runtime/KernelCache.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <sys/stat.h>

using namespace mlir;
using namespace nautilus;

namespace {

/// The compiler's identity: its version, and the size and modification
/// time of the file its code was loaded from.
const std::string &compilerIdentity() {
  static const std::string identity = [] {
    std::string id = "nautilus-jit-1;llvm-" LLVM_VERSION_STRING;
    Dl_info info;
    struct stat st;
    if (::dladdr(reinterpret_cast<void *>(&jitCompile), &info) &&
        info.dli_fname && ::stat(info.dli_fname, &st) == 0)
      id += ";" + std::to_string(st.st_size) + ";" +
            std::to_string(st.st_mtim.tv_sec) + "." +
            std::to_string(st.st_mtim.tv_nsec);
    return id;
  }();
  return identity;
}

std::string hostFeatures() {
  std::string out = llvm::sys::getHostCPUName().str();
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.getValue())
      out += "," + feature.getKey().str();
  return out;
}

/// The request's source text (its file's when it names one).
nt_code readSource(const JitRequest &request, std::string &text,
                   std::string &error) {
  if (!request.source.empty()) {
    text = request.source;
    return NT_OK;
  }
  if (request.path.empty()) {
    error = "nt_compile: neither source nor path given";
    return NT_INVALID_ARGUMENT;
  }
  auto buffer = llvm::MemoryBuffer::getFile(request.path, /*IsText=*/true);
  if (!buffer) {
    error =
        "cannot read '" + request.path + "': " + buffer.getError().message();
    return NT_NOT_FOUND;
  }
  text = (*buffer)->getBuffer().str();
  return NT_OK;
}

/// The cache key of `request` whose source is `text`.
nt_code cacheKey(const JitRequest &request, const std::string &text,
                 uint64_t &key, std::optional<std::string> &scheduleText,
                 std::string &error) {
  std::string schedule = request.schedule;
  if (namesScheduleFile(schedule)) {
    auto file = llvm::MemoryBuffer::getFile(schedule, /*IsText=*/true);
    if (!file) {
      error = "cannot read the schedule file '" + schedule +
              "': " + file.getError().message();
      return NT_NOT_FOUND;
    }
    scheduleText = (*file)->getBuffer().str();
    schedule = "file:" + *scheduleText;
  }
  std::optional<TargetInfo> target = getTarget(request.target);
  // On the CPU: the instructions the code may use, and the caches and
  // threads its schedules (the auto-scheduler's, the heuristics') are fitted
  // to.
  std::string toolchain =
      target && target->isCPU() ? hostFeatures() + ";" + hostDescription() : "";
  key = rt::kFnv1a64Offset;
  for (const std::string &part :
       {compilerIdentity(), frontend::canonicalSource(text), request.kernel,
        request.target, request.shapes, schedule,
        std::string(request.explain ? "explain" : ""),
        std::string(request.kernelIR ? "kernel-ir" : ""),
        // (A verifying compile may fall back from refuted schedules: its
        // bundle is not the unverified one.)
        std::string(request.verify ? "verify" : ""), toolchain})
    key = rt::fnv1a64(std::string(part) + '\0', key);
  return NT_OK;
}

/// Compiles `text` for `request` into `bundle`, with the schedule file's
/// `scheduleText` (the one the key hashed) when it names one.
nt_code compileSource(const JitRequest &request, const std::string &text,
                      const std::optional<std::string> &scheduleText,
                      rt::Bundle &bundle, std::string &error) {
  std::optional<TargetInfo> target = getTarget(request.target);
  if (!target) {
    error = "unknown target '" + request.target + "'";
    return NT_INVALID_ARGUMENT;
  }
  if (!bundlesTarget(*target)) {
    error = "the JIT cannot bundle code for '" + request.target + "'";
    return NT_INVALID_ARGUMENT;
  }
  KernelSource source;
  source.file = request.path.empty() ? "<source>" : request.path;
  source.text = text;
  source.kernel = request.kernel;
  if (std::string e = request.shapes.empty()
                          ? ""
                          : parseShapeList(request.shapes, source.shape);
      !e.empty()) {
    error = "shapes: " + e;
    return NT_INVALID_ARGUMENT;
  }
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  LoadedKernel loaded;
  if (loadKernel(source, context, sourceMgr, /*bindShape=*/true, loaded,
                 diagStream) != kExitSuccess) {
    error = diagnostics;
    if (error.rfind("nautc: ", 0) == 0)
      error = error.substr(7);
    // The source is wrong; or it has no such kernel, or several and the
    // request names none; or the shapes do not bind.
    if (!loaded.module)
      return NT_COMPILE_ERROR;
    if (!loaded.kernel)
      return request.kernel.empty() ? NT_INVALID_ARGUMENT : NT_NOT_FOUND;
    return NT_INVALID_ARGUMENT;
  }
  std::string explained;
  llvm::raw_string_ostream explainStream(explained);
  SourceMgrDiagnosticHandler handler(
      sourceMgr, &context, request.explain ? explainStream : diagStream);
  ScopedDiagnosticHandler errorsOnly(&context, [&](Diagnostic &d) {
    if (d.getSeverity() != DiagnosticSeverity::Remark || request.explain)
      return failure(); // on to the handler above
    return success();   // remarks dropped
  });
  std::shared_ptr<ScheduleProvider> schedules =
      scheduleText ? std::make_shared<ScheduleFile>(
                         request.schedule, heuristicSchedules(), scheduleText)
                   : scheduleProviderFor(request.schedule, *target);
  Compilation compilation(*loaded.module, *target, schedules);
  compilation.setVerification(request.verify);
  // Its proofs use the caches the request allows, in its directory.
  compilation.setProofCache({/*memory=*/request.memoryCache,
                             /*disk=*/request.memoryCache && request.diskCache,
                             request.cacheDir});
  // The verifier's warnings (a fallback from refuted schedules) and
  // refutations: with the explanation when one is asked for, else with
  // the diagnostics an error returns. A compile that succeeds without an
  // explanation prints its diagnostics (the verifier's warnings and the
  // compiler's) on stderr, as nautc does.
  compilation.setMessages(request.explain ? explainStream : diagStream);
  if (failed(buildBundle(compilation, bundle, request.kernelIR))) {
    bool users = compilation.fault() == Fault::Schedules ||
                 isUsersToFix(compilation.fault());
    error = diagnostics + explained +
            (compilation.fault() == Fault::Schedules
                 ? "the schedules given cannot be used"
             : isUsersToFix(compilation.fault())
                 ? compilation.failureMessage()
                 : "internal error: " + compilation.failureMessage());
    return users ? NT_COMPILE_ERROR : NT_INTERNAL;
  }
  if (request.explain) {
    compilation.scheduleProvider().explain(explainStream);
    bundle.explain = explained;
  } else if (!diagnostics.empty()) {
    llvm::errs() << diagnostics;
  }
  return NT_OK;
}

/// The bundles the memory cache keeps, the least recently used dropped
/// first beyond them.
constexpr size_t kMemoryCacheEntries = 256;

struct MemoryCache {
  std::mutex compileMutex; // one compile at a time in a process
  std::mutex mapMutex;
  std::list<std::pair<uint64_t, rt::Bundle>> entries; // most recent first
  std::map<uint64_t, std::list<std::pair<uint64_t, rt::Bundle>>::iterator>
      index;
};

MemoryCache &memoryCache() {
  static MemoryCache cache;
  return cache;
}

bool findInMemory(uint64_t key, JitResult &result) {
  MemoryCache &cache = memoryCache();
  std::lock_guard<std::mutex> lock(cache.mapMutex);
  auto it = cache.index.find(key);
  if (it == cache.index.end())
    return false;
  cache.entries.splice(cache.entries.begin(), cache.entries, it->second);
  result.bundle = it->second->second;
  result.cacheHit = 1;
  return true;
}

void keepInMemory(uint64_t key, const rt::Bundle &bundle) {
  MemoryCache &cache = memoryCache();
  std::lock_guard<std::mutex> lock(cache.mapMutex);
  if (auto it = cache.index.find(key); it != cache.index.end()) {
    cache.entries.erase(it->second);
    cache.index.erase(it);
  }
  cache.entries.emplace_front(key, bundle);
  cache.index[key] = cache.entries.begin();
  if (cache.entries.size() > kMemoryCacheEntries) {
    cache.index.erase(cache.entries.back().first);
    cache.entries.pop_back();
  }
}

/// The entry for `key` in `disk` when it reads as a bundle (kept in memory
/// then); a corrupt one is removed, to be compiled again.
bool findOnDisk(const rt::KernelCache &disk, uint64_t key, JitResult &result) {
  std::optional<std::string> bytes = disk.load(key);
  if (!bytes)
    return false;
  std::string ignored;
  if (!rt::readBundle(*bytes, result.bundle, ignored)) {
    disk.remove(key);
    return false;
  }
  result.cacheHit = 2;
  keepInMemory(key, result.bundle);
  return true;
}

} // namespace

nt_code nautilus::jitCompile(const JitRequest &request, JitResult &result,
                             std::string &error) {
  std::string text;
  if (nt_code c = readSource(request, text, error); c != NT_OK)
    return c;
  uint64_t key = 0;
  std::optional<std::string> scheduleText;
  if (nt_code c = cacheKey(request, text, key, scheduleText, error); c != NT_OK)
    return c;
  if (request.memoryCache && findInMemory(key, result))
    return NT_OK;
  std::string directory =
      request.cacheDir.empty() ? rt::defaultCacheDirectory() : request.cacheDir;
  bool useDisk = request.memoryCache && request.diskCache && !directory.empty();
  rt::KernelCache disk(directory);
  // The disk first, outside the compile lock: a hit waits for no compile.
  if (useDisk && findOnDisk(disk, key, result))
    return NT_OK;
  std::lock_guard<std::mutex> compiling(memoryCache().compileMutex);
  // Another thread may have compiled it while this one waited.
  if (request.memoryCache && findInMemory(key, result))
    return NT_OK;
  if (useDisk && findOnDisk(disk, key, result))
    return NT_OK;
  if (nt_code c =
          compileSource(request, text, scheduleText, result.bundle, error);
      c != NT_OK)
    return c;
  result.cacheHit = 0;
  if (request.memoryCache)
    keepInMemory(key, result.bundle);
  if (useDisk)
    (void)disk.store(key, rt::writeBundle(result.bundle)); // best effort
  return NT_OK;
}
