//===- JitProofCacheTest.cpp - A compile's proofs follow its caches -----===//
//
// nt_compile's cache directory and flags hold for the verifier's proofs as
// for the compiled kernels: proofs/ under the directory the compile names,
// none written where it asks for no disk cache, and nothing in the
// default directory ($NAUTILUS_CACHE_DIR) either way.
//
//===----------------------------------------------------------------------===//
#include "nautilus.h"
#include "test/unit/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <string>

namespace {

/// The entries of `dir` (0 where it does not exist).
int entriesOf(const std::string &dir) {
  DIR *d = opendir(dir.c_str());
  if (!d)
    return 0;
  int count = 0;
  while (dirent *e = readdir(d))
    count += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
  closedir(d);
  return count;
}

/// Compiles a GEMM for sm_80, verified, at `shapes` (sizes no other test
/// verifies: the process's memory holds none of their answers yet).
std::string compileGemm(const char *shapes, const std::string &cacheDir,
                        uint32_t flags) {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.path = NAUTILUS_EXAMPLES "/gemm.tensor";
  options.kernel = "gemm";
  options.target = "sm_80";
  options.shapes = shapes;
  options.cache_dir = cacheDir.c_str();
  options.flags = flags;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  std::string message = s ? nt_status_message(s) : "";
  nt_status_free(s);
  nt_program_free(program);
  return message;
}

} // namespace

TEST(JitProofCache, FollowsTheCompilesCacheOptions) {
  ScratchDirectory scratch("proof-cache");
  std::string fallback = scratch.path + "/default";
  const char *before = std::getenv("NAUTILUS_CACHE_DIR");
  std::string saved = before ? before : "";
  setenv("NAUTILUS_CACHE_DIR", fallback.c_str(), 1);
  unsetenv("NAUTILUS_PROOF_CACHE");

  const char *first = "M=176,N=48,K=40", *second = "M=208,N=40,K=24";
  // No cache at all: its answers are kept neither in memory nor on disk.
  EXPECT_EQ(compileGemm(first, scratch.path + "/none", NT_COMPILE_NO_CACHE),
            "");
  EXPECT_EQ(entriesOf(scratch.path + "/none/proofs"), 0);
  // No disk cache: new answers, kept in memory only.
  EXPECT_EQ(
      compileGemm(second, scratch.path + "/nodisk", NT_COMPILE_NO_DISK_CACHE),
      "");
  EXPECT_EQ(entriesOf(scratch.path + "/nodisk/proofs"), 0);
  // Every cache, in a directory of its own: the first sizes' answers, in
  // no cache yet, are proved and stored there.
  EXPECT_EQ(compileGemm(first, scratch.path + "/own", 0), "");
  EXPECT_GT(entriesOf(scratch.path + "/own/proofs"), 0);
  // None of the three wrote the default directory's proofs.
  EXPECT_EQ(entriesOf(fallback + "/proofs"), 0);

  if (before)
    setenv("NAUTILUS_CACHE_DIR", saved.c_str(), 1);
  else
    unsetenv("NAUTILUS_CACHE_DIR");
}
