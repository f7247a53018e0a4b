//===- ScratchDirectory.h - An empty directory for one test -----*- C++ -*-===//
#ifndef NAUTILUS_TEST_UNIT_SCRATCHDIRECTORY_H
#define NAUTILUS_TEST_UNIT_SCRATCHDIRECTORY_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

/// An empty directory for one test, removed with everything in it when the
/// test ends (the tests run again and again: none leaves a directory behind).
class ScratchDirectory {
public:
  explicit ScratchDirectory(const char *name)
      : path(::testing::TempDir() + "nautilus-" + name + "-" +
             std::to_string(::getpid())) {
    removeAll();
  }
  ~ScratchDirectory() { removeAll(); }
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;

  const std::string path;

private:
  void removeAll() { std::system(("rm -rf '" + path + "'").c_str()); }
};

#endif
