//===- Target.cpp - The targets and what each can do ----------------------===//
#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <fstream>
#include <thread>

using namespace nautilus;

namespace {

constexpr llvm::StringRef kTargetNames[] = {"cpu", "sm_80", "sm_90", "gfx90a",
                                            "gfx942"};

/// What every NVIDIA target shares.
TargetInfo nvidiaTarget(llvm::StringRef name, llvm::StringRef chip,
                        llvm::StringRef ptxFeatures) {
  TargetInfo info{name.str(), TargetFamily::NVIDIA, chip.str(),
                  ptxFeatures.str()};
  info.warpSize = info.kernelLanes = 32;
  info.maxThreadsPerProgram = 1024;
  info.defaultThreads = 128;
  info.maxStaticSharedBytes = kStaticSharedLimit;
  info.registerFile = kRegisterFile;
  info.maxRegistersPerThread = 255;
  info.namedBarriers = 16;
  info.sharedBytesPerCycle = 128;
  info.maxThreadsPerMultiprocessor = 2048;
  // Four schedulers, each with 16 special-function lanes a cycle over its
  // quarter of the SM (A100 and H100 whitepapers); the f32 lanes differ
  // by generation (set below).
  info.specialFunctionsPerCycle = 16;
  info.hasExp2Instruction = true;
  return info;
}

/// One line of a file (a sysfs attribute), or "" when it cannot be read.
std::string firstLine(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// Bytes from sysfs's "48K" (or "2M", or plain bytes); 0 when malformed.
int64_t parseCacheSize(llvm::StringRef text) {
  uint64_t value = 0;
  if (text.consumeInteger(10, value))
    return 0;
  if (text.consume_front("K"))
    value <<= 10;
  else if (text.consume_front("M"))
    value <<= 20;
  return text.trim().empty() ? int64_t(value) : 0;
}

/// The host core's L1 data cache and L2, as Linux describes the first
/// CPU's (/sys/devices/system/cpu/cpu0/cache/index*: level, type, size,
/// ways of 64-byte lines); Skylake-SP's and Zen 4's figures where it does
/// not (another system, a cache not listed).
void readHostCaches(TargetInfo &info) {
  info.l1DataBytes = 32 << 10;
  info.l1Ways = 8;
  info.l2Bytes = 1 << 20;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" +
                      std::to_string(index) + "/";
    std::string level = firstLine(dir + "level"),
                type = firstLine(dir + "type");
    int64_t bytes = parseCacheSize(firstLine(dir + "size"));
    int64_t ways = 0;
    if (llvm::StringRef(firstLine(dir + "ways_of_associativity"))
            .getAsInteger(10, ways))
      ways = 0;
    bool lines64 = firstLine(dir + "coherency_line_size") == "64";
    if (level == "1" && type == "Data" && bytes > 0 && ways > 0 && lines64) {
      info.l1DataBytes = bytes;
      info.l1Ways = ways;
    } else if (level == "2" && type != "Instruction" && bytes > 0) {
      info.l2Bytes = bytes;
    }
  }
}

TargetInfo readHostTarget() {
  // The host: code is compiled for the machine nautc runs on.
  TargetInfo info{"cpu", TargetFamily::CPU, "", ""};
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  info.vectorBits = features.lookup("avx512f") ? 512
                    : features.lookup("avx2")  ? 256
                                               : 128;
  // The host threads the runtime splits a grid over.
  info.multiprocessors =
      std::max<int64_t>(1, std::thread::hardware_concurrency());
  readHostCaches(info);
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) ||             \
    defined(_M_IX86)
  info.scalarOpsShareFmaPorts =
      llvm::sys::detail::x86::getVendorSignature() ==
      llvm::sys::detail::x86::VendorSignatures::GENUINE_INTEL;
#endif
  return info;
}

/// The host, read once a process (it does not change while nautc runs).
const TargetInfo &hostTarget() {
  static const TargetInfo host = readHostTarget();
  return host;
}

} // namespace

std::string nautilus::hostDescription() {
  const TargetInfo &host = hostTarget();
  std::string triple = llvm::sys::getProcessTriple();
  return triple.substr(0, triple.find('-')) + " " +
         llvm::sys::getHostCPUName().str() + ", " +
         std::to_string(host.vectorBits) + "-bit vectors, " +
         std::to_string(host.l1DataBytes >> 10) + " KiB L1d of " +
         std::to_string(host.l1Ways) + " ways, " +
         std::to_string(host.l2Bytes >> 10) + " KiB L2, " +
         std::to_string(host.multiprocessors) + " threads";
}

namespace {

std::optional<TargetInfo> lookupTarget(llvm::StringRef name) {
  if (name == "cpu")
    return hostTarget();
  if (name == "sm_80") {
    // A100: 108 SMs, 163 KiB of shared memory a block.
    TargetInfo info = nvidiaTarget(name, "sm_80", "+ptx70");
    info.multiprocessors = 108;
    info.maxSharedBytes = kSm80SharedLimit;
    info.tensorCores = TensorCores::MmaSync;
    // A100 SXM 80 GB: 312 TFLOPS dense bf16 at 1.41 GHz, 2.04 TB/s, 40 MB
    // of L2, 164 KiB of shared memory an SM.
    info.tensorFlopsPerCycle = 2048;
    info.simtLanesPerCycle = 64; // 19.5 TFLOPS f32 at 1.41 GHz
    info.clockGHz = 1.41;
    info.dramBytesPerSecond = 2.039e12;
    info.l2Bytes = 40 << 20;
    info.sharedBytesPerMultiprocessor = 164 * 1024;
    return info;
  }
  if (name == "sm_90") {
    // Hopper (H100 SXM, H200: 132 SMs, 227 KiB a block): sm_90a unlocks
    // wgmma and setmaxnreg; PTX 8.3 (CUDA 12.3) the tensormap proxy fence
    // that acquires a tensor map in global memory.
    TargetInfo info = nvidiaTarget(name, "sm_90a", "+ptx83");
    info.multiprocessors = 132;
    info.maxSharedBytes = kSm90SharedLimit;
    info.tensorCores = TensorCores::Wgmma;
    info.warpgroupThreads = 128;
    info.hasTma = true;
    // H200 (H100's SMs, HBM3e): 989 TFLOPS dense bf16 at 1.83 GHz, 4.8
    // TB/s, 50 MB of L2, 228 KiB of shared memory an SM.
    info.tensorFlopsPerCycle = 4096;
    info.simtLanesPerCycle = 128; // 67 TFLOPS f32 (H100 SXM) at 1.83 GHz
    info.clockGHz = 1.83;
    info.dramBytesPerSecond = 4.8e12;
    info.l2Bytes = 50 << 20;
    info.sharedBytesPerMultiprocessor = 228 * 1024;
    return info;
  }
  if (name == "gfx90a" || name == "gfx942") {
    // MI250X: 110 CUs a die, MI300X: 304; 64 KiB of LDS a workgroup.
    TargetInfo info{name.str(), TargetFamily::AMD, name.str(), ""};
    info.warpSize = 64;
    info.kernelLanes = 32; // see TargetInfo::kernelLanes
    info.maxThreadsPerProgram = 1024;
    info.defaultThreads = 256;
    info.multiprocessors = name == "gfx90a" ? 110 : 304;
    info.maxSharedBytes = info.maxStaticSharedBytes = 64 * 1024;
    info.registerFile = 65536;
    info.maxRegistersPerThread = 512;
    info.hasExp2Instruction = true;
    // For the auto-scheduler's model of element-wise programs and
    // reductions (docs/autoscheduler.md, "GPU programs without tensor
    // cores"): a CU holds 32 waves of 64 (8 a SIMD); it retires 64 f32
    // lanes a cycle (MI250X: 47.9 TFLOPS f32 vector over 220 CUs at
    // 1.7 GHz) or 128 (MI300X: 163.4 TFLOPS over 304 CUs at 2.1 GHz, dual
    // issue), transcendentals at a quarter of 64; the bandwidth is one
    // MI250X die's half of 3.2 TB/s, and MI300X's 5.3 TB/s; L2 8 MB a
    // die, and MI300X's 4 MB on each of 8 dies.
    bool mi300 = name == "gfx942";
    info.maxThreadsPerMultiprocessor = 2048;
    info.simtLanesPerCycle = mi300 ? 128 : 64;
    info.specialFunctionsPerCycle = 16;
    info.sharedBytesPerMultiprocessor = 64 * 1024;
    info.sharedBytesPerCycle = 128;
    info.clockGHz = mi300 ? 2.1 : 1.7;
    info.dramBytesPerSecond = mi300 ? 5.3e12 : 1.6384e12;
    info.l2Bytes = mi300 ? (32 << 20) : (8 << 20);
    return info;
  }
  return std::nullopt;
}

} // namespace

llvm::ArrayRef<llvm::StringRef> nautilus::targetNames() { return kTargetNames; }

std::string nautilus::targetNameList() {
  std::string list;
  for (auto [i, name] : llvm::enumerate(kTargetNames)) {
    if (i)
      list += i + 1 == std::size(kTargetNames) ? " or " : ", ";
    list += name.str();
  }
  return list;
}

std::optional<TargetInfo> nautilus::getTarget(llvm::StringRef name,
                                              int64_t multiprocessors) {
  std::optional<TargetInfo> info = lookupTarget(name);
  if (info && multiprocessors > 0)
    info->multiprocessors = multiprocessors;
  return info;
}

TargetInfo nautilus::firstTargetOf(TargetFamily family) {
  for (llvm::StringRef name : kTargetNames)
    if (std::optional<TargetInfo> info = lookupTarget(name);
        info->family == family)
      return *info;
  llvm_unreachable("every family has a target");
}

void nautilus::setModuleTarget(mlir::ModuleOp module,
                               const TargetInfo &target) {
  // The multiprocessors are written only where they replace the target's.
  std::optional<TargetInfo> own = lookupTarget(target.name);
  int64_t multiprocessors =
      own && own->multiprocessors == target.multiprocessors
          ? 0
          : target.multiprocessors;
  module.getContext()->getOrLoadDialect<tile::TileDialect>();
  module->setAttr(tile::TargetAttr::kModuleAttrName,
                  tile::TargetAttr::get(module.getContext(), target.name,
                                        multiprocessors));
}

std::optional<TargetInfo> nautilus::getModuleTarget(mlir::Operation *op) {
  auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<mlir::ModuleOp>();
  auto attr = module ? module->getAttrOfType<tile::TargetAttr>(
                           tile::TargetAttr::kModuleAttrName)
                     : tile::TargetAttr();
  if (!attr) {
    op->emitError() << "no target: the module needs a `"
                    << tile::TargetAttr::kModuleAttrName
                    << "` attribute (nautilus-attach-target, or "
                       "#tile.target<name = \"sm_90\"> written on the module)";
    return std::nullopt;
  }
  std::optional<TargetInfo> info =
      getTarget(attr.getName(), attr.getMultiprocessors());
  if (!info)
    op->emitError() << "unknown target '" << attr.getName() << "' ("
                    << targetNameList() << ")";
  return info;
}
