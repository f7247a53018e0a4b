//===- KernelCache.h - Compiled kernels on disk ----------------*- C++ -*-===//
//
// A directory of entries, one file a key (the key's hexadecimal digits
// and ".bundle"), each the bytes of a bundle (Bundle.h). The directory is
// $NAUTILUS_CACHE_DIR, else $XDG_CACHE_HOME/nautilus, else
// $HOME/.cache/nautilus, unless the caller names one.
//
// Entries are code the process runs, so the cache is used only in a
// directory that belongs to the user and that no one else may write in (it
// is created private); a shared one is ignored (load finds nothing, store
// says why).
//
// Any number of threads and processes may use one directory at once:
//   - a store writes a fresh temporary file in the directory, then renames
//     it over the entry, which is atomic: a reader sees a whole old entry,
//     a whole new one, or none, and a writer killed half-way leaves only a
//     temporary file that no key names;
//   - the cache does not judge an entry's content: the caller checks it
//     (a bundle's checksum) and calls remove() on one that fails, then
//     compiles again and stores.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_KERNELCACHE_H
#define NAUTILUS_RUNTIME_KERNELCACHE_H

#include <cstdint>
#include <optional>
#include <string>

namespace nautilus::rt {

/// The cache directory the environment names ("" when neither
/// NAUTILUS_CACHE_DIR, XDG_CACHE_HOME nor HOME is set).
std::string defaultCacheDirectory();

class KernelCache {
public:
  explicit KernelCache(std::string directory);

  const std::string &directory() const { return dir; }
  /// The entry's file for `key`.
  std::string pathOf(uint64_t key) const;

  /// The entry's bytes, or nullopt when there is none.
  std::optional<std::string> load(uint64_t key) const;
  /// Writes the entry atomically, creating the directory when needed.
  /// Returns "" or why it could not.
  std::string store(uint64_t key, const std::string &bytes) const;
  /// Removes the entry (one found corrupt).
  void remove(uint64_t key) const;

private:
  std::string dir;
};

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_KERNELCACHE_H
