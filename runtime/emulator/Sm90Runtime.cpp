//===- Sm90Runtime.cpp - Hopper's asynchronous units, emulated ------------===//
//
// What kernels for sm_90 call beyond sm_80's instructions: elect.sync, TMA
// copies between global memory and (swizzled) shared memory, which complete
// on mbarriers, and wgmma.mma_async, whose operands come from shared memory
// through 64-bit matrix descriptors.
//
// wgmma is computed when it is issued; its operands count as read until
// wgmma.wait_group retires its group, so overwriting them first is an
// async hazard (AsyncHazards.cpp), and the reads are the warpgroup's wgmma
// unit's for the race detector (ordered before whatever follows a
// wait_group that retires them). A kernel that reads its accumulators
// before wait_group is wrong on the GPU and is not caught here.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/EmulatorState.h"
#include "runtime/emulator/MemoryProfile.h"
#include "runtime/emulator/TensorMap.h"
#include "runtime/DType.h"

#include <algorithm>
#include <cstring>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

extern "C" uint32_t __nautilus_emu_elect(uint32_t mask) {
  uint32_t ballot = warpCollective(WarpCall::VoteBallot, mask, 1, 0, 0);
  return ballot ? static_cast<uint32_t>(__builtin_ctz(ballot)) : 0;
}

/// fence.proxy.tensormap::generic.acquire (and a __grid_constant__
/// parameter, which the tensormap proxy sees without one): the thread may
/// use the map at `tensorMap` with TMA.
extern "C" void __nautilus_emu_tensormap_acquire(const void *tensorMap) {
  auto &acquired = currentBlock->current->acquiredTensorMaps;
  if (std::find(acquired.begin(), acquired.end(), tensorMap) == acquired.end())
    acquired.push_back(tensorMap); // once, however often a loop fences it
}

/// wgmma.fence: the warpgroup's registers may go to the next wgmma.
extern "C" void __nautilus_emu_wgmma_fence() {
  currentBlock->current->wgmmaFenced = true;
}

/// The tensor map at `address`, or null (with the launch failed) if it is
/// not one that encodeTiledTensorMap built, or one the thread has not
/// acquired for the tensormap proxy.
static const TiledTensorMap *tensorMapAt(const void *address,
                                         const char *instruction) {
  BlockState &b = *currentBlock;
  static_assert(std::is_trivially_copyable_v<TiledTensorMap>);
  const auto *map = static_cast<const TiledTensorMap *>(address);
  if (!map || map->magic != kTensorMapMagic || map->rank < 1 || map->rank > 5) {
    b.launch->fail(std::string(instruction) + " by " + threadName(b) +
                   ": the tensor map operand was not built by "
                   "nautilus::emu::encodeTiledTensorMap");
    return nullptr;
  }
  const auto &acquired = b.current->acquiredTensorMaps;
  if (std::find(acquired.begin(), acquired.end(), address) == acquired.end()) {
    b.launch->fail(std::string(instruction) + " by " + threadName(b) +
                   ": the tensor map it uses was not acquired for the "
                   "tensormap proxy (fence.proxy.tensormap::generic.acquire "
                   "after the host wrote it to global memory, or pass it as "
                   "a __grid_constant__ parameter)");
    return nullptr;
  }
  return map;
}

/// Calls `visit(globalAddress or null if out of bounds, denseByteOffset)`
/// for every element of the box at `coordinates`, innermost dimension
/// fastest, and returns the box's size in bytes.
template <typename Visit>
static uint64_t forEachBoxElement(const TiledTensorMap &map,
                                  const int32_t *coordinates, Visit visit) {
  std::array<uint32_t, 5> count{1, 1, 1, 1, 1};
  uint64_t elements = 1;
  for (unsigned d = 0; d < map.rank; ++d) {
    count[d] = (map.boxDim[d] + map.elementStrides[d] - 1) / map.elementStrides[d];
    elements *= count[d];
  }
  std::array<uint32_t, 5> index{};
  for (uint64_t e = 0; e < elements; ++e) {
    bool inside = true;
    uint64_t offset = 0;
    for (unsigned d = 0; d < map.rank; ++d) {
      int64_t c = int64_t(coordinates[d]) + int64_t(index[d]) * map.elementStrides[d];
      if (c < 0 || uint64_t(c) >= map.globalDim[d])
        inside = false;
      offset += uint64_t(c) * (d == 0 ? map.elementBytes : map.globalStrides[d - 1]);
    }
    visit(inside ? reinterpret_cast<char *>(map.globalAddress + offset) : nullptr,
          e * map.elementBytes);
    for (unsigned d = 0; d < map.rank && ++index[d] == count[d]; ++d)
      index[d] = 0;
  }
  return elements * map.elementBytes;
}

/// The shared offset of `address`, or fails the launch if the `bytes` there
/// are not all in the block's shared memory.
static bool sharedRange(const void *address, uint64_t bytes, uint64_t align,
                        const char *instruction, uint32_t &offset) {
  BlockState &b = *currentBlock;
  int64_t at = static_cast<const char *>(address) - b.shared.data();
  if (at < 0 || uint64_t(at) + bytes > b.shared.size() || at % align != 0) {
    b.launch->fail(std::string(instruction) + " by " + threadName(b) +
                   ": the shared-memory operand at offset " +
                   std::to_string(at) + " (" + std::to_string(bytes) +
                   " bytes) is " +
                   (at % align != 0 ? "not " + std::to_string(align) +
                                          "-byte aligned"
                                    : std::string("outside shared memory (") +
                                          std::to_string(b.shared.size()) +
                                          " bytes)"));
    return false;
  }
  offset = static_cast<uint32_t>(at);
  return true;
}

/// cp.async.bulk.tensor.Nd.shared::cta.global.mbarrier::complete_tx::bytes:
/// reads the box now, out-of-bounds elements as zeros (or NaN), completes
/// its bytes on the mbarrier, and lands in shared memory, swizzled, when a
/// thread first observes that the mbarrier's phase has completed.
extern "C" void __nautilus_emu_tma_load(void *destination, const void *tensorMap,
                                        int32_t rank, const int32_t *coordinates,
                                        void *mbarrier) {
  const char *name = "cp.async.bulk.tensor (load)";
  BlockState &b = *currentBlock;
  const TiledTensorMap *map = tensorMapAt(tensorMap, name);
  if (!map)
    return;
  if (rank != map->rank) {
    b.launch->fail(std::string(name) + ": a " + std::to_string(rank) +
                   "d copy with a rank-" + std::to_string(map->rank) +
                   " tensor map");
    return;
  }
  BulkCopy copy;
  uint64_t bytes = forEachBoxElement(*map, coordinates, [&](char *, uint64_t) {});
  uint32_t start;
  if (!sharedRange(destination, bytes, 128, name, start))
    return;
  copy.bytes.resize(bytes);
  copy.sharedOffsets.resize(bytes);
  // In flight, writing the box's bytes, until a thread observes the phase.
  bool hazard = false;
  std::vector<uint64_t> profiled; // the elements read, for the profile
  char fill = map->oobFill == TensorMapOobFill::NaN ? char(0xff) : char(0);
  forEachBoxElement(*map, coordinates, [&](char *global, uint64_t linear) {
    const void *from =
        global ? __nautilus_emu_access(global, map->elementBytes, 0) : nullptr;
    if (global && b.accessLog)
      profiled.push_back(globalProfileAddress(b, global));
    for (unsigned i = 0; i < map->elementBytes; ++i) {
      copy.bytes[linear + i] = from ? static_cast<const char *>(from)[i] : fill;
      uint32_t at = swizzledSharedAddress(
          start + static_cast<uint32_t>(linear + i), map->swizzle);
      copy.sharedOffsets[linear + i] = at;
      if (!hazard) {
        checkAsyncHazard(b, at, 1, /*isWrite=*/true, "a TMA copy");
        checkAsyncWriteIssue(b, at, 1, "a TMA copy");
        hazard = b.launch->failed();
      }
      beginAsyncWrite(b, {at, 1}, AsyncKind::TmaLoad);
    }
  });
  if (b.accessLog)
    b.accessLog->recordBox(profiled, map->elementBytes);
  MBarrier &m = mbarrierInUse(mbarrier, "a TMA copy");
  if (!(m.initFence && b.current->clock.covers(*m.initFence)) &&
      !b.launch->failed())
    b.launch->fail("a TMA copy by " + threadName(b) +
                   " completes on the mbarrier at shared byte offset " +
                   std::to_string(m.offset) + ", whose init by thread " +
                   std::to_string(m.init.who) +
                   " no fence ordered before the copy made visible to the "
                   "async proxy (the PTX memory model: fence.mbarrier_init "
                   "or fence.proxy.async by the initialising thread after "
                   "mbarrier.init)");
  m.landing.push_back(std::move(copy));
  m.transactionBytes -= static_cast<int64_t>(bytes);
  maybeCompletePhase(m);
  ++b.progress;
}

/// cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group: writes the box's
/// in-bounds elements now (so bulk commit and wait groups have nothing left
/// to wait for).
extern "C" void __nautilus_emu_tma_store(const void *tensorMap, int32_t rank,
                                         const int32_t *coordinates,
                                         const void *source) {
  const char *name = "cp.async.bulk.tensor (store)";
  BlockState &b = *currentBlock;
  const TiledTensorMap *map = tensorMapAt(tensorMap, name);
  if (!map || rank != map->rank) {
    if (map)
      b.launch->fail(std::string(name) + ": rank mismatch");
    return;
  }
  uint64_t bytes = forEachBoxElement(*map, coordinates, [&](char *, uint64_t) {});
  uint32_t start;
  if (!sharedRange(source, bytes, 128, name, start))
    return;
  forEachBoxElement(*map, coordinates, [&](char *global, uint64_t linear) {
    if (!global)
      return;
    void *to = __nautilus_emu_access(global, map->elementBytes, 1);
    for (unsigned i = 0; i < map->elementBytes; ++i) {
      uint32_t at = swizzledSharedAddress(start + static_cast<uint32_t>(linear + i),
                                          map->swizzle);
      checkShared(b, at, 1, /*isStore=*/false, "a TMA store");
      checkAsyncProxyRead(b, at, 1, "a TMA store");
      beginAsyncRead(b, {at, 1}, b.current->bulkReads.open);
      static_cast<char *>(to)[i] = b.shared[at];
    }
  });
}

namespace {

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format").
struct MatrixDescriptor {
  uint32_t start, leadingBytes, strideBytes, baseOffset;
  TensorMapSwizzle swizzle;

  explicit MatrixDescriptor(uint64_t d)
      : start(uint32_t(d & 0x3fff) << 4),
        leadingBytes(uint32_t((d >> 16) & 0x3fff) << 4),
        strideBytes(uint32_t((d >> 32) & 0x3fff) << 4),
        baseOffset(uint32_t((d >> 49) & 7)) {
    // Bits 62-63: 0 none, 1 128B, 2 64B, 3 32B.
    static const TensorMapSwizzle modes[] = {
        TensorMapSwizzle::None, TensorMapSwizzle::B128, TensorMapSwizzle::B64,
        TensorMapSwizzle::B32};
    swizzle = modes[d >> 62];
  }

  /// The shared address of element (`mn`, `k`) of the operand (A: m, B: n)
  /// in the canonical layouts the ISA defines, in units of 16-byte chunks
  /// of T = 16 / elementBytes elements, 8 rows to a core matrix:
  ///   K-major, no swizzle:  ((8,m),(T,2)) : ((1T,SBO),(1,LBO))
  ///   K-major, W-byte swizzle: ((8,m),(T,2)) : ((W/16 T,SBO),(1,T))
  ///   MN-major, no swizzle: ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
  ///   MN-major, W-byte swizzle: ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))
  /// then the swizzle applies to the address.
  uint32_t address(bool kMajor, uint32_t mn, uint32_t k,
                   uint32_t elementBytes) const {
    uint32_t t = 16 / elementBytes;
    uint32_t width = swizzle == TensorMapSwizzle::None ? 0
                     : swizzle == TensorMapSwizzle::B32 ? 32
                     : swizzle == TensorMapSwizzle::B64 ? 64
                                                        : 128;
    uint32_t offset;
    if (kMajor) {
      uint32_t rowBytes = width ? width : 16;
      uint32_t chunkStride = width ? 16 : leadingBytes;
      offset = (mn % 8) * rowBytes + (mn / 8) * strideBytes +
               (k % t) * elementBytes + (k / t) * chunkStride;
    } else if (!width) {
      offset = (mn % t) * elementBytes + (mn / t) * strideBytes + (k % 8) * 16 +
               (k / 8) * leadingBytes;
    } else {
      uint32_t chunks = width / 16;
      offset = (mn % t) * elementBytes + ((mn / t) % chunks) * 16 +
               (mn / (t * chunks)) * leadingBytes + (k % 8) * width +
               (k / 8) * strideBytes;
    }
    return swizzledSharedAddress(start + offset, swizzle);
  }
};

float decode(uint32_t bits, int32_t type) {
  switch (type) {
  case WgmmaF16: return halfToFloat(uint16_t(bits), false);
  case WgmmaBF16: return halfToFloat(uint16_t(bits), true);
  default: { // tf32: the low 13 mantissa bits are not read
    uint32_t truncated = bits & ~0x1fffu;
    float f;
    std::memcpy(&f, &truncated, 4);
    return f;
  }
  }
}

/// Reads element (`mn`, `k`) of a shared-memory operand (checked once for
/// the warpgroup by checkOperands).
bool readOperand(const MatrixDescriptor &d, bool kMajor, uint32_t mn,
                 uint32_t k, int32_t type, float &value) {
  BlockState &b = *currentBlock;
  uint32_t bytes = type == WgmmaTF32 ? 4 : 2;
  uint32_t at = d.address(kMajor, mn, k, bytes);
  if (uint64_t(at) + bytes > b.shared.size()) {
    b.launch->fail("wgmma.mma_async by " + threadName(b) +
                   ": a descriptor addresses shared byte offset " +
                   std::to_string(at) + ", outside shared memory (" +
                   std::to_string(b.shared.size()) + " bytes)");
    return false;
  }
  uint32_t bits = 0;
  std::memcpy(&bits, b.shared.data() + at, bytes);
  value = decode(bits, type);
  return true;
}

/// The shared bytes of elements (mn, k), mn < `extent`, k < `depth`, of a
/// descriptor operand: sorted, adjacent ones merged.
std::vector<SharedRange> operandRanges(const MatrixDescriptor &d, bool kMajor,
                                       uint32_t extent, uint32_t depth,
                                       uint32_t bytes) {
  std::vector<uint32_t> starts;
  starts.reserve(extent * depth);
  for (uint32_t mn = 0; mn < extent; ++mn)
    for (uint32_t k = 0; k < depth; ++k)
      starts.push_back(d.address(kMajor, mn, k, bytes));
  std::sort(starts.begin(), starts.end());
  std::vector<SharedRange> ranges;
  for (uint32_t at : starts) {
    if (!ranges.empty() && at < ranges.back().offset + ranges.back().bytes)
      continue; // (an element two indices reach)
    if (!ranges.empty() && at == ranges.back().offset + ranges.back().bytes)
      ranges.back().bytes += bytes;
    else
      ranges.push_back({at, bytes});
  }
  return ranges;
}

/// The first thread of a warpgroup to issue a wgmma checks what the whole
/// warpgroup's operation reads (A unless it comes from registers: 64
/// rows; B: n columns), with its clock: the bytes must be written before
/// (and fenced for the async proxy), and count as read by the
/// warpgroup's wgmma unit until a wait_group retires the group.
void checkOperands(const MatrixDescriptor *a, bool aKMajor,
                   const MatrixDescriptor &bDesc, bool bKMajor, uint32_t n,
                   uint32_t k, uint32_t bytes) {
  BlockState &b = *currentBlock;
  EmulatedThread &t = *b.current;
  WarpgroupWgmma &group = b.warpgroups[linearTid(b) / 128];
  if (++t.wgmmaIssued <= group.issued)
    return;
  group.issued = t.wgmmaIssued;
  Epoch reads{t.wgmmaCommits + 1, wgmmaAgent(b), 0};
  std::vector<SharedRange> ranges;
  if (a)
    ranges = operandRanges(*a, aKMajor, 64, k, bytes);
  std::vector<SharedRange> more = operandRanges(bDesc, bKMajor, n, k, bytes);
  ranges.insert(ranges.end(), more.begin(), more.end());
  for (SharedRange range : ranges) {
    if (uint64_t(range.offset) + range.bytes > b.shared.size())
      return; // (readOperand reports it)
    checkSharedRead(b, range.offset, range.bytes, reads, "a wgmma");
    checkAsyncProxyRead(b, range.offset, range.bytes, "a wgmma");
    beginAsyncRead(b, range, group.reads.open);
  }
}

} // namespace

/// wgmma.mma_async.sync.aligned.m64nNk{16,8}: D = A B (+ D if scaleD), with
/// A 64 x K from a descriptor (or from registers, f16/bf16 only) and B K x N
/// from a descriptor. The warpgroup's 128 threads each compute their own
/// accumulator fragment (PTX ISA, "Register Fragments"): thread t of the
/// warpgroup, warp w = t / 32, lane l, holds in register i the element at
/// row 16 w + l / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (l % 4) + i % 2
/// (f16 accumulators: two such elements to a register). Products are exact;
/// each dot product is accumulated in double and rounded once.
extern "C" void __nautilus_emu_wgmma(int32_t type, int32_t n,
                                     int32_t halfAccumulator,
                                     uint64_t descriptorA,
                                     const uint32_t *registersA,
                                     uint64_t descriptorB,
                                     uint32_t *accumulator, int32_t scaleD,
                                     int32_t flags, int32_t site) {
  BlockState &b = *currentBlock;
  // Its results land with the group the next commit closes.
  b.current->wgmmaSiteGroup[site] = b.current->wgmmaCommits + 1;
  if (!b.current->wgmmaFenced) {
    b.launch->fail("wgmma.mma_async by " + threadName(b) +
                   ": no wgmma.fence since the warpgroup's registers were "
                   "last accessed (the kernel's start, or a wgmma.wait_group "
                   "0): the PTX ISA requires one before the wgmma");
    return;
  }
  uint32_t k = type == WgmmaTF32 ? 8 : 16;
  uint32_t thread = linearTid(b) % 128, lane = thread % 32;
  uint32_t rows[2] = {16 * (thread / 32) + lane / 4, 16 * (thread / 32) + lane / 4 + 8};
  MatrixDescriptor da(descriptorA), db(descriptorB);
  if ((!registersA && da.baseOffset) || db.baseOffset) {
    b.launch->fail("wgmma.mma_async by " + threadName(b) +
                   ": descriptors with a matrix base offset are not emulated");
    return;
  }
  double signA = flags & WgmmaNegateA ? -1 : 1, signB = flags & WgmmaNegateB ? -1 : 1;
  checkOperands(registersA ? nullptr : &da, !(flags & WgmmaTransposeA), db,
                !(flags & WgmmaTransposeB), uint32_t(n), k,
                type == WgmmaTF32 ? 4 : 2);
  float a[2][16];
  if (registersA) {
    // The A fragment of mma.sync m16n8k16 per warp: register j of lane l
    // holds row l / 4 + 8 (j % 2), columns 2 (l % 4) + 8 (j / 2) + {0, 1};
    // the rows of this lane are spread over its quad.
    for (uint32_t q = 0; q < 4; ++q)
      for (uint32_t j = 0; j < 4; ++j) {
        uint32_t reg = warpCollective(WarpCall::ShuffleIdx, 0xffffffffu,
                                      registersA[j], (lane / 4) * 4 + q, 31);
        for (uint32_t h = 0; h < 2; ++h)
          a[j % 2][2 * q + 8 * (j / 2) + h] = decode(reg >> (16 * h) & 0xffff, type);
      }
  } else {
    for (uint32_t r = 0; r < 2; ++r)
      for (uint32_t kk = 0; kk < k; ++kk)
        if (!readOperand(da, !(flags & WgmmaTransposeA), rows[r], kk, type,
                         a[r][kk]))
          return;
  }
  for (uint32_t block = 0; block < uint32_t(n) / 8; ++block)
    for (uint32_t c = 0; c < 2; ++c) {
      uint32_t column = 8 * block + 2 * (lane % 4) + c;
      float bk[16];
      for (uint32_t kk = 0; kk < k; ++kk)
        if (!readOperand(db, !(flags & WgmmaTransposeB), column, kk, type, bk[kk]))
          return;
      for (uint32_t r = 0; r < 2; ++r) {
        uint32_t element = 4 * block + 2 * r + c;
        uint32_t &reg = accumulator[halfAccumulator ? element / 2 : element];
        double sum = 0;
        if (scaleD) {
          if (halfAccumulator)
            sum = halfToFloat(uint16_t(reg >> (16 * (element % 2))), false);
          else {
            float old;
            std::memcpy(&old, &reg, 4);
            sum = old;
          }
        }
        for (uint32_t kk = 0; kk < k; ++kk)
          sum += signA * double(a[r][kk]) * signB * double(bk[kk]);
        if (halfAccumulator) {
          uint32_t bits = nautilus::rt::doubleToF16Bits(sum);
          reg = element % 2 ? (reg & 0xffff) | (bits << 16) : (reg & 0xffff0000u) | bits;
        } else {
          float d = static_cast<float>(sum);
          std::memcpy(&reg, &d, 4);
        }
      }
    }
  ++b.progress;
}

/// Before a use of wgmma results (WgmmaLanding.h): each site in `sites`
/// whose latest wgmma's group no wait of the thread completed has not
/// landed its accumulators.
extern "C" void __nautilus_emu_wgmma_landed(uint64_t sites) {
  BlockState &b = *currentBlock;
  const EmulatedThread &t = *b.current;
  for (unsigned site = 0; site < kWgmmaSites; ++site) {
    if (!(sites >> site & 1) || t.wgmmaSiteGroup[site] <= t.wgmmaWaited)
      continue;
    b.launch->fail(
        "wgmma by " + threadName(b) + ": its accumulators are read before "
        "they land (the wgmma at site " + std::to_string(site) +
        " is in group " + std::to_string(t.wgmmaSiteGroup[site]) +
        ", and the thread's wgmma.wait_group completed only " +
        std::to_string(t.wgmmaWaited) +
        "): wait for the group before reading its results");
    return;
  }
}
