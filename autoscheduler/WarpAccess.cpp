//===- WarpAccess.cpp - A warp's memory instructions, costed from layouts -===//
#include "autoscheduler/WarpAccess.h"

#include "runtime/SharedBanks.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

constexpr int64_t kSectorBytes = 32;
/// The instructions sampled of a program: of its warps, and of a lane's
/// runs of registers, pairs of consecutive ones at four places spread
/// over them, the q-th place q further on (every one where 8 or fewer).
/// Spread: in a program the tensor's edge cuts, the warps past the edge
/// are the last ones. Consecutive and staggered: rows whose alignment
/// alternates (rows of 400 bytes start on a sector, then half-way into
/// one) are consecutive warps', or every other pair's (a row of two warps).
constexpr int64_t kSampledPairs = 4;

/// The indices sampled of `count` (kSampledPairs pairs, or all).
std::vector<int64_t> sampled(int64_t count) {
  std::vector<int64_t> picks;
  for (int64_t q = 0; q < kSampledPairs; ++q) {
    int64_t start = count <= 2 * kSampledPairs
                        ? 2 * q
                        : std::min(q * count / kSampledPairs + q, count - 2);
    for (int64_t i = start; i < std::min(start + 2, count); ++i)
      if (picks.empty() || picks.back() < i)
        picks.push_back(i);
  }
  return picks;
}
/// Lanes an NVIDIA warp instruction has (ldmatrix's).
constexpr int64_t kWarpLanes = 32;

/// XORs into `coords` the bases of the set bits of `value`: what
/// LinearLayout::apply does for one input, without looking up its name,
/// for the innermost loop of a count (thousands of elements a candidate).
void addBits(llvm::ArrayRef<std::vector<int32_t>> bases, int64_t value,
             std::vector<int32_t> &coords) {
  for (size_t bit = 0; bit < bases.size(); ++bit)
    if ((value >> bit) & 1)
      for (size_t d = 0; d < coords.size(); ++d)
        coords[d] ^= bases[bit][d];
}

} // namespace

StridedTensor StridedTensor::rowMajor(std::vector<int64_t> extents,
                                      int64_t elementBytes) {
  StridedTensor t;
  t.byteStrides.assign(extents.size(), elementBytes);
  for (size_t i = extents.size(); i-- > 1;)
    t.byteStrides[i - 1] = t.byteStrides[i] * extents[i];
  t.extents = std::move(extents);
  t.elementBytes = elementBytes;
  return t;
}

namespace {

/// Sums over sampled warp instructions, each weighted by the programs it
/// stands for.
struct SectorSums {
  double sectors = 0, ideal = 0, requests = 0, weight = 0;
  int64_t instructions = 0;
};

/// The distinct sectors of a request, and its bytes.
struct Request {
  std::vector<int64_t> sectors;
  int64_t bytes = 0;
  bool issued = false;
  void add(int64_t address, int64_t elementBytes) {
    issued = true;
    bytes += elementBytes;
    for (int64_t s = address / kSectorBytes;
         s <= (address + elementBytes - 1) / kSectorBytes; ++s)
      sectors.push_back(s);
  }
  int64_t distinct() {
    std::sort(sectors.begin(), sectors.end());
    return std::unique(sectors.begin(), sectors.end()) - sectors.begin();
  }
};

/// A layout's input bases, and the instructions its programs issue.
struct WarpInstructions {
  llvm::ArrayRef<std::vector<int32_t>> registers, lanes, warps;
  int32_t run;
  int64_t warpLanes;

  /// Adds the sampled instructions of a program whose tile starts at
  /// `origin` in `tensor`, `weight` times.
  void addProgram(const StridedTensor &tensor,
                  const std::vector<int64_t> &origin, double weight,
                  SectorSums &sums) const;
};

void WarpInstructions::addProgram(const StridedTensor &tensor,
                                  const std::vector<int64_t> &origin,
                                  double weight, SectorSums &sums) const {
  size_t rank = tensor.extents.size();
  int64_t laneCount = int64_t(1) << lanes.size();
  int64_t threads = laneCount << warps.size();
  int64_t runs = (int64_t(1) << registers.size()) / std::max(run, 1);
  // A warp instruction is `warpLanes` consecutive threads (lane bits, then
  // warp bits).
  int64_t instructionWarps = std::max<int64_t>(1, threads / warpLanes);
  bool wholeRows = tensor.extents.back() % run == 0;
  std::vector<int32_t> coords(rank);
  // A lane's element j of run r: its address; kOutside outside the tensor
  // (along a clamped dimension only: kClamped).
  constexpr int64_t kOutside = -1, kClamped = -2;
  auto addressOf = [&](int64_t t, int64_t r, int64_t j) -> int64_t {
    std::fill(coords.begin(), coords.end(), 0);
    addBits(registers, r * run + j, coords);
    addBits(lanes, t % laneCount, coords);
    addBits(warps, t / laneCount, coords);
    int64_t address = 0;
    bool clamped = false;
    for (size_t d = 0; d < rank; ++d) {
      int64_t at = origin[d] + coords[d];
      if (at >= tensor.extents[d]) {
        if (d >= tensor.clampedDims.size() || !tensor.clampedDims[d])
          return kOutside;
        clamped = true;
      }
      address += at * tensor.byteStrides[d];
    }
    return clamped ? kClamped : address;
  };
  for (int64_t w : sampled(instructionWarps))
    for (int64_t r : sampled(runs)) {
      // The vector request of the lanes whose runs are whole, and one
      // request an element of the others'.
      Request vector;
      std::vector<Request> elements(run);
      for (int64_t t = w * warpLanes;
           t < std::min(threads, (w + 1) * warpLanes); ++t) {
        std::vector<int64_t> addresses;
        for (int64_t j = 0; j < run; ++j)
          addresses.push_back(addressOf(t, r, j));
        bool whole = (run == 1 || wholeRows) &&
                     llvm::all_of(addresses, [](int64_t a) { return a >= 0; });
        for (int64_t j = 0; j < run; ++j) {
          Request &request = whole ? vector : elements[j];
          if (addresses[j] >= 0)
            request.add(addresses[j], tensor.elementBytes);
          else if (addresses[j] == kClamped)
            request.add(0, tensor.elementBytes);
        }
      }
      int64_t sectors = 0, bytes = 0, requests = 0;
      auto count = [&](Request &request) {
        if (!request.issued)
          return;
        sectors += request.distinct();
        bytes += request.bytes;
        ++requests;
      };
      count(vector);
      for (Request &request : elements)
        count(request);
      if (!requests)
        continue; // every lane masked: no request
      sums.sectors += weight * double(sectors);
      sums.ideal += weight * std::ceil(double(bytes) / kSectorBytes);
      sums.requests += weight * double(requests);
      sums.weight += weight;
      ++sums.instructions;
    }
}

} // namespace

WarpAccessCost autosched::globalSectors(const layout::LinearLayout &l,
                                        int32_t run,
                                        const StridedTensor &tensor,
                                        int64_t warpLanes) {
  size_t rank = tensor.extents.size();
  assert(l.getOutDims().size() == rank && "one coordinate a dimension");
  WarpInstructions issued{l.getInDimBases("register"), l.getInDimBases("lane"),
                          l.getInDimBases("warp"), run, warpLanes};
  // The programs' tiles along each dimension: those wholly inside the
  // extent, which differ only in where their rows start within a sector
  // (consecutive tiles, one for each start: tiles of one row of 400 bytes
  // start on a sector or half-way into one), and the last, which the
  // extent cuts; each weighted by the programs it stands for. (At most
  // kMaxStarts starts a dimension.)
  constexpr int64_t kMaxStarts = 8;
  std::vector<std::vector<std::pair<int64_t, double>>> places(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t tile = l.getOutDims()[d].size, extent = tensor.extents[d];
    int64_t step = tile * tensor.byteStrides[d] % kSectorBytes;
    int64_t starts = step ? kSectorBytes / std::gcd(step, kSectorBytes) : 1;
    int64_t inside = extent / tile,
            sampled = std::min({inside, starts, kMaxStarts});
    for (int64_t i = 0; i < sampled; ++i)
      places[d].push_back({i * tile, double(inside) / double(sampled)});
    if (extent % tile)
      places[d].push_back({inside * tile, 1.0});
  }
  SectorSums sums;
  std::vector<size_t> pick(rank, 0);
  std::vector<int64_t> origin(rank);
  while (true) {
    double weight = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (places[d].empty())
        return {}; // an empty tensor
      origin[d] = places[d][pick[d]].first;
      weight *= places[d][pick[d]].second;
    }
    issued.addProgram(tensor, origin, weight, sums);
    size_t d = 0;
    while (d < rank && ++pick[d] == places[d].size())
      pick[d++] = 0;
    if (d == rank)
      break;
  }
  WarpAccessCost cost;
  cost.instructions = sums.instructions;
  if (sums.weight > 0) {
    cost.perInstruction = sums.sectors / sums.weight;
    cost.ideal = sums.ideal / sums.weight;
    cost.requests = sums.requests / sums.weight;
  }
  return cost;
}

namespace {

WarpAccessCost countLdmatrixWavefronts(int64_t rows, int64_t rowElements,
                                       int64_t swizzleBytes, bool kInnermost,
                                       bool isLhs) {
  constexpr int64_t kElementBytes = 2, kChunkElements = 8, kBlock = 16;
  WarpAccessCost cost;
  if (rows < kBlock || rowElements < kBlock)
    return cost;
  int64_t rowBytes = rowElements * kElementBytes;
  layout::SharedSwizzle swizzle =
      layout::SharedSwizzle::forRows(rowBytes, swizzleBytes);
  layout::LinearLayout matrices = layout::ldmatrixMatrixLayout(isLhs);
  // The stage's rows are M or N (K innermost) or K; a block is 16 of them
  // by 16 of the other.
  double wavefronts = 0, ideal = 0;
  for (int64_t blockRow = 0; blockRow < rows; blockRow += kBlock)
    for (int64_t blockColumn = 0; blockColumn < rowElements;
         blockColumn += kBlock) {
      std::vector<rt::LaneAccess> request;
      for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
        // Lane l gives row l % 8 of matrix l / 8, which starts at (M or N
        // offset, K offset) in the block.
        llvm::SmallVector<int32_t> start =
            matrices.apply({{"matrix", int32_t(lane / 8)}});
        int64_t mn = start[0], k = start[1], inMatrix = lane % 8;
        int64_t row = blockRow + (kInnermost ? mn : k) + inMatrix;
        int64_t chunk = (blockColumn + (kInnermost ? k : mn)) / kChunkElements;
        int64_t offset = row * rowBytes + swizzle.storedChunk(row, chunk) *
                                              kChunkElements * kElementBytes;
        request.push_back({lane, uint32_t(offset), 16});
      }
      rt::BankWavefronts banks = rt::bankWavefronts(request);
      wavefronts += double(banks.wavefronts);
      ideal += double(banks.ideal);
      ++cost.instructions;
    }
  cost.perInstruction = wavefronts / cost.instructions;
  cost.ideal = ideal / cost.instructions;
  return cost;
}

} // namespace

WarpAccessCost autosched::ldmatrixWavefronts(int64_t rows, int64_t rowElements,
                                             int64_t swizzleBytes,
                                             bool kInnermost, bool isLhs) {
  // A space of hundreds of candidates has a handful of stage shapes:
  // each is counted once (a process-wide memo; compilations may run on
  // several threads).
  using Key = std::tuple<int64_t, int64_t, int64_t, bool, bool>;
  static std::mutex mutex;
  static std::map<Key, WarpAccessCost> counted;
  Key key{rows, rowElements, swizzleBytes, kInnermost, isLhs};
  std::lock_guard<std::mutex> lock(mutex);
  auto it = counted.find(key);
  if (it == counted.end())
    it = counted
             .emplace(key,
                      countLdmatrixWavefronts(rows, rowElements, swizzleBytes,
                                              kInnermost, isLhs))
             .first;
  return it->second;
}
