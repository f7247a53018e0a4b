//===- ReferenceHost.cpp - The reference kernels run on the host ----------===//
#include "compiler/Pipeline/ReferenceHost.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>

using namespace nautilus;

namespace {

/// The host C++ compiler and its leading arguments: $CXX (which may carry
/// arguments, "ccache g++"), else c++ on the PATH.
std::string findCompiler(std::vector<std::string> &command) {
  const char *cxx = std::getenv("CXX");
  llvm::SmallVector<llvm::StringRef> words;
  llvm::StringRef(cxx && *cxx ? cxx : "c++").split(words, ' ', -1, false);
  auto found = llvm::sys::findProgramByName(words.front());
  if (!found)
    return "no host C++ compiler to build the reference with: '" +
           words.front().str() + "' is not on the PATH (set CXX)";
  command.push_back(*found);
  for (llvm::StringRef w : llvm::ArrayRef(words).drop_front())
    command.push_back(w.str());
  return "";
}

/// Compiles `source` into a shared library in `dir` and loads it; sets
/// `rejected` when the compiler rejects it.
std::string compileAndLoad(const std::string &source, llvm::StringRef dir,
                           void *&library, bool &rejected) {
  std::vector<std::string> command;
  if (std::string e = findCompiler(command); !e.empty())
    return e;
  llvm::SmallString<256> src(dir), lib(dir), log(dir);
  llvm::sys::path::append(src, "reference.cpp");
  llvm::sys::path::append(lib, "reference.so");
  llvm::sys::path::append(log, "compile.log");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(src, ec);
    if (ec)
      return "cannot write '" + src.str().str() + "': " + ec.message();
    os << source;
  }
  // No contraction of a * b + c into an fma: each operation rounds, as in
  // the interpreter (NVRTC gets --fmad=false for the same reason).
  for (const char *arg : {"-std=c++17", "-O1", "-ffp-contract=off", "-fPIC",
                          "-shared", "-w", "-o"})
    command.push_back(arg);
  command.push_back(lib.str().str());
  command.push_back(src.str().str());
  std::vector<llvm::StringRef> args(command.begin(), command.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(command.front(), args, std::nullopt,
                                     redirects, 0, 0, &message);
  if (rc != 0) {
    rejected = rc > 0;
    auto text = llvm::MemoryBuffer::getFile(log);
    return "the host C++ compiler (" + command.front() +
           ") failed on the reference source" +
           (message.empty() ? "" : " (" + message + ")") + ":\n" +
           (text ? (*text)->getBuffer().take_front(4000).str() : "");
  }
  library = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return std::string("cannot load the compiled reference: ") + dlerror();
  return "";
}

} // namespace

std::unique_ptr<ReferenceHostExecutor>
ReferenceHostExecutor::create(alg::KernelOp kernel, std::string &error,
                              bool *rejected) {
  std::unique_ptr<ReferenceHostExecutor> executor(new ReferenceHostExecutor());
  error = generateReferenceCuda(kernel, executor->reference);
  if (!error.empty())
    return nullptr;
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("nautilus-reference", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return nullptr;
  }
  bool compilerRejected = false;
  error = compileAndLoad(executor->reference.source, dir, executor->library,
                         compilerRejected);
  if (rejected)
    *rejected = compilerRejected;
  llvm::sys::fs::remove_directories(dir); // (a loaded library stays mapped)
  if (!error.empty())
    return nullptr;
  return executor;
}

ReferenceHostExecutor::~ReferenceHostExecutor() {
  if (library)
    dlclose(library);
}

std::string ReferenceHostExecutor::run(const SizeValues &sizes,
                                       const std::vector<rt::HostTensor> &inputs,
                                       std::vector<rt::HostTensor> &outputs) {
  const ReferenceProgram &p = reference;
  std::vector<rt::HostTensor> buffers;
  if (std::string e = referenceBuffers(p, sizes, inputs, buffers); !e.empty())
    return e;
  std::vector<long long> sizeValues = referenceSizeValues(p, sizes);
  for (const ReferenceLaunch &launch : p.launches) {
    using Launcher = void (*)(void **, unsigned, unsigned);
    auto launcher =
        reinterpret_cast<Launcher>(dlsym(library, launch.hostEntry.c_str()));
    int64_t blocks = p.blocks(launch, sizes);
    if (!launcher || blocks > UINT_MAX)
      return "cannot launch " + launch.kernel;
    // cuLaunchKernel's convention: a pointer to each argument.
    std::vector<void *> pointers;
    for (unsigned b : launch.buffers)
      pointers.push_back(buffers[b].data());
    std::vector<void *> params;
    for (void *&pointer : pointers)
      params.push_back(&pointer);
    for (long long &value : sizeValues)
      params.push_back(&value);
    launcher(params.data(), static_cast<unsigned>(blocks),
             ReferenceProgram::kBlockThreads);
  }
  outputs.clear();
  for (unsigned b : p.outputs)
    outputs.push_back(std::move(buffers[b]));
  return "";
}
