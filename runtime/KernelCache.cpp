//===- KernelCache.cpp - Compiled kernels on disk -------------------------===//
#include "runtime/KernelCache.h"
#include "runtime/Hash.h"
#include "runtime/WriteAll.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace nautilus::rt {

namespace {

/// mkdir -p, the last directory private to its owner; "" or the error.
std::string makeDirectories(const std::string &path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/')
      continue;
    std::string prefix = path.substr(0, at);
    if (::mkdir(prefix.c_str(), at == path.size() ? 0700 : 0755) != 0 &&
        errno != EEXIST)
      return "cannot create the cache directory '" + prefix +
             "': " + std::strerror(errno);
  }
  return "";
}

/// Whether `dir` is this user's and no one else may write in it: its
/// entries are code the process will run.
bool trusted(const std::string &dir) {
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
         st.st_uid == ::geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

} // namespace

std::string defaultCacheDirectory() {
  if (const char *dir = std::getenv("NAUTILUS_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/nautilus";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/nautilus";
  return "";
}

KernelCache::KernelCache(std::string directory) : dir(std::move(directory)) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
}

std::string KernelCache::pathOf(uint64_t key) const {
  return dir + "/" + hex64(key) + ".bundle";
}

std::optional<std::string> KernelCache::load(uint64_t key) const {
  if (!trusted(dir))
    return std::nullopt;
  std::ifstream in(pathOf(key), std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  if (in.bad())
    return std::nullopt;
  return bytes;
}

std::string KernelCache::store(uint64_t key, const std::string &bytes) const {
  if (dir.empty())
    return "no cache directory (set NAUTILUS_CACHE_DIR)";
  if (std::string e = makeDirectories(dir); !e.empty())
    return e;
  if (!trusted(dir))
    return "the cache directory '" + dir +
           "' is not private to this user (another could plant code in it): "
           "the cache is not used";
  std::string temp = dir + "/." + hex64(key) + ".XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return "cannot write to the cache directory '" + dir +
           "': " + std::strerror(errno);
  bool ok = writeAll(fd, bytes) && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  ok = ok && ::chmod(temp.c_str(), 0644) == 0;
  if (ok && ::rename(temp.c_str(), pathOf(key).c_str()) == 0)
    return "";
  std::string error = std::strerror(errno);
  ::unlink(temp.c_str());
  return "cannot store a cache entry in '" + dir + "': " + error;
}

void KernelCache::remove(uint64_t key) const { ::unlink(pathOf(key).c_str()); }

} // namespace nautilus::rt
