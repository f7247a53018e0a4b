//===- FormatBytes.h - A byte count for people ------------------*- C++ -*-===//
//
// "1.5 GiB": how diagnostics about memory (a run's tensors, a split's
// workspace) print a number of bytes. Plain C++17.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_FORMATBYTES_H
#define NAUTILUS_RUNTIME_FORMATBYTES_H

#include <cstdio>
#include <iterator>
#include <string>

namespace nautilus::rt {

/// `bytes` in the largest binary unit that keeps it at least 1, with one
/// decimal: "512.0 B", "16.0 GiB".
inline std::string formatBytes(double bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB",
                                      "EiB"};
  unsigned u = 0;
  while (bytes >= 1024 && u + 1 < std::size(units)) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[u]);
  return text;
}

} // namespace nautilus::rt

#endif
