//===- WriteAll.h - Writing a whole buffer to a file descriptor -*- C++ -*-===//
//
// write(2) until every byte is written, retrying interrupted calls: how the
// kernel cache (KernelCache.h) and the cpu device (CpuDevice.cpp) write
// files. Plain C++17 and POSIX.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_WRITEALL_H
#define NAUTILUS_RUNTIME_WRITEALL_H

#include <cerrno>
#include <string>
#include <unistd.h>

namespace nautilus::rt {

/// Whether all of `bytes` reached `fd` (errno says why not).
inline bool writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_WRITEALL_H
