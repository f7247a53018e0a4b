//===- Device.cpp - Where compiled kernels run ----------------------------===//
#include "runtime/Device.h"

namespace nautilus::rt {

std::string openDevice(const std::string &kind, int ordinal,
                       std::unique_ptr<Device> &out) {
  if (ordinal < 0)
    return "device number " + std::to_string(ordinal) + " is negative";
  if (kind == "cpu")
    return ordinal == 0 ? openCpuDevice(out)
                        : "there is one cpu device (number 0), not " +
                              std::to_string(ordinal);
  if (kind == "cuda")
    return openCudaDevice(ordinal, out);
  if (kind == "hip")
    return openHipDevice(ordinal, out);
  return "unknown device '" + kind + "' (expected cpu, cuda, hip or emu)";
}

} // namespace nautilus::rt
