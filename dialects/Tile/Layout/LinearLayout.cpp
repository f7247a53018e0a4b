//===- LinearLayout.cpp - Layouts as linear maps over F2 ------------------===//
#include "dialects/Tile/Layout/LinearLayout.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace nautilus::layout;

namespace {

int32_t log2Exact(int64_t size) {
  assert(size > 0 && llvm::isPowerOf2_64(size) && "a power of two");
  return llvm::Log2_64(size);
}

} // namespace

LinearLayout::LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs)
    : ins(std::move(ins)), outs(std::move(outs)) {
  for (const OutDim &o : this->outs)
    (void)log2Exact(o.size);
  for (const InDim &i : this->ins)
    for (const auto &basis : i.bases) {
      assert(basis.size() == this->outs.size() && "one coordinate per output");
      (void)basis;
    }
}

LinearLayout LinearLayout::identity1D(int32_t size, llvm::StringRef in,
                                      llvm::StringRef out) {
  InDim dim{in.str(), {}};
  for (int32_t b = 0; b < log2Exact(size); ++b)
    dim.bases.push_back({int32_t(1) << b});
  return LinearLayout({dim}, {{out.str(), size}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, llvm::StringRef in,
                                   llvm::StringRef out) {
  InDim dim{in.str(), {}};
  for (int32_t b = 0; b < log2Exact(size); ++b)
    dim.bases.push_back({0});
  return LinearLayout({dim}, {{out.str(), 1}});
}

llvm::ArrayRef<std::vector<int32_t>>
LinearLayout::getInDimBases(llvm::StringRef in) const {
  for (const InDim &i : ins)
    if (i.name == in)
      return i.bases;
  return {};
}

int32_t LinearLayout::getInDimSize(llvm::StringRef in) const {
  for (const InDim &i : ins)
    if (i.name == in)
      return int32_t(1) << i.bases.size();
  return 1;
}

int32_t LinearLayout::getOutDimSize(llvm::StringRef out) const {
  for (const OutDim &o : outs)
    if (o.name == out)
      return o.size;
  return 1;
}

int32_t LinearLayout::getTotalInBits() const {
  int32_t n = 0;
  for (const InDim &i : ins)
    n += i.bases.size();
  return n;
}

int32_t LinearLayout::getTotalOutBits() const {
  int32_t n = 0;
  for (const OutDim &o : outs)
    n += log2Exact(o.size);
  return n;
}

LinearLayout LinearLayout::operator*(const LinearLayout &other) const {
  std::vector<OutDim> resultOuts = outs;
  for (const OutDim &o : other.outs) {
    auto it = llvm::find_if(resultOuts,
                            [&](const OutDim &r) { return r.name == o.name; });
    if (it == resultOuts.end())
      resultOuts.push_back(o);
    else
      it->size *= o.size;
  }
  auto outIndex = [&](llvm::StringRef name) {
    for (size_t j = 0; j < resultOuts.size(); ++j)
      if (resultOuts[j].name == name)
        return j;
    llvm_unreachable("an output of the product");
  };
  // Bases of `layout` in the result's output dimensions, shifted above this
  // layout's coordinates when they come from `other`.
  auto widen = [&](const LinearLayout &layout, const std::vector<int32_t> &b,
                   bool shifted) {
    std::vector<int32_t> coords(resultOuts.size(), 0);
    for (size_t j = 0; j < layout.outs.size(); ++j) {
      int32_t c = b[j];
      if (shifted)
        c *= getOutDimSize(layout.outs[j].name);
      coords[outIndex(layout.outs[j].name)] = c;
    }
    return coords;
  };
  std::vector<InDim> resultIns;
  auto inDim = [&](llvm::StringRef name) -> InDim & {
    for (InDim &i : resultIns)
      if (i.name == name)
        return i;
    resultIns.push_back({name.str(), {}});
    return resultIns.back();
  };
  for (const InDim &i : ins) {
    InDim &r = inDim(i.name);
    for (const auto &b : i.bases)
      r.bases.push_back(widen(*this, b, false));
  }
  for (const InDim &i : other.ins) {
    InDim &r = inDim(i.name);
    for (const auto &b : i.bases)
      r.bases.push_back(widen(other, b, true));
  }
  return LinearLayout(std::move(resultIns), std::move(resultOuts));
}

llvm::SmallVector<int32_t> LinearLayout::apply(
    llvm::ArrayRef<std::pair<llvm::StringRef, int32_t>> inputs) const {
  llvm::SmallVector<int32_t> result(outs.size(), 0);
  for (auto [name, value] : inputs)
    for (const InDim &i : ins) {
      if (i.name != name)
        continue;
      for (size_t bit = 0; bit < i.bases.size(); ++bit)
        if ((value >> bit) & 1)
          for (size_t j = 0; j < outs.size(); ++j)
            result[j] ^= i.bases[bit][j];
    }
  return result;
}

namespace {

/// The layout as a matrix over F2: a column (a bit mask over the output
/// bits, output dimensions in order, low bits first) per input bit.
std::vector<uint64_t> columns(const LinearLayout &l) {
  std::vector<uint64_t> result;
  for (const auto &in : l.getInDims())
    for (const auto &basis : in.bases) {
      uint64_t mask = 0;
      int32_t shift = 0;
      for (size_t j = 0; j < l.getOutDims().size(); ++j) {
        mask |= uint64_t(uint32_t(basis[j])) << shift;
        shift += log2Exact(l.getOutDims()[j].size);
      }
      result.push_back(mask);
    }
  return result;
}

} // namespace

int32_t LinearLayout::rank() const {
  std::vector<uint64_t> cols = columns(*this);
  int32_t r = 0;
  for (int bit = 0; bit < 64; ++bit) {
    auto pivot = std::find_if(cols.begin() + r, cols.end(),
                              [&](uint64_t c) { return (c >> bit) & 1; });
    if (pivot == cols.end())
      continue;
    std::swap(*pivot, cols[r]);
    for (size_t i = 0; i < cols.size(); ++i)
      if (i != size_t(r) && ((cols[i] >> bit) & 1))
        cols[i] ^= cols[r];
    ++r;
  }
  return r;
}

LinearLayout LinearLayout::invert() const {
  assert(isBijective() && "only a bijection has an inverse");
  // Solve M x = e_b for every output bit b by elimination on the columns,
  // tracking which input bits each column combines.
  std::vector<uint64_t> cols = columns(*this);
  int32_t n = cols.size();
  std::vector<uint64_t> combo(n);
  for (int32_t i = 0; i < n; ++i)
    combo[i] = uint64_t(1) << i;
  for (int32_t bit = 0; bit < n; ++bit) {
    int32_t pivot = bit;
    while (pivot < n && !((cols[pivot] >> bit) & 1))
      ++pivot;
    assert(pivot < n && "bijective");
    std::swap(cols[pivot], cols[bit]);
    std::swap(combo[pivot], combo[bit]);
    for (int32_t i = 0; i < n; ++i)
      if (i != bit && ((cols[i] >> bit) & 1)) {
        cols[i] ^= cols[bit];
        combo[i] ^= combo[bit];
      }
  }
  // Now column `bit` is the unit vector e_bit, reached by the input bits
  // in combo[bit]: the inverse maps output bit `bit` to those input bits,
  // expressed as coordinates of the original input dimensions.
  std::vector<InDim> inverseIns;
  int32_t outBit = 0;
  for (const OutDim &o : outs) {
    InDim dim{o.name, {}};
    for (int32_t b = 0; b < log2Exact(o.size); ++b, ++outBit) {
      std::vector<int32_t> coords;
      int32_t inBit = 0;
      for (const InDim &i : ins) {
        int32_t value = 0;
        for (size_t k = 0; k < i.bases.size(); ++k, ++inBit)
          if ((combo[outBit] >> inBit) & 1)
            value |= int32_t(1) << k;
        coords.push_back(value);
      }
      dim.bases.push_back(coords);
    }
    inverseIns.push_back(std::move(dim));
  }
  std::vector<OutDim> inverseOuts;
  for (const InDim &i : ins)
    inverseOuts.push_back({i.name, int32_t(1) << i.bases.size()});
  return LinearLayout(std::move(inverseIns), std::move(inverseOuts));
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  std::vector<InDim> resultIns;
  for (const InDim &i : ins) {
    InDim dim{i.name, {}};
    for (const auto &basis : i.bases) {
      llvm::SmallVector<std::pair<llvm::StringRef, int32_t>> inputs;
      for (size_t j = 0; j < outs.size(); ++j)
        inputs.push_back({outs[j].name, basis[j]});
      llvm::SmallVector<int32_t> c = outer.apply(inputs);
      dim.bases.push_back(std::vector<int32_t>(c.begin(), c.end()));
    }
    resultIns.push_back(std::move(dim));
  }
  return LinearLayout(std::move(resultIns), outer.outs);
}

LinearLayout LinearLayout::reshapeOut(
    llvm::StringRef from,
    llvm::ArrayRef<std::pair<std::string, int32_t>> to) const {
  size_t index = outs.size();
  for (size_t j = 0; j < outs.size(); ++j)
    if (outs[j].name == from)
      index = j;
  assert(index < outs.size() && "an output dimension");
  std::vector<OutDim> resultOuts;
  for (size_t j = 0; j < outs.size(); ++j) {
    if (j != index) {
      resultOuts.push_back(outs[j]);
      continue;
    }
    for (const auto &[name, size] : to)
      resultOuts.push_back({name, size});
  }
  std::vector<InDim> resultIns;
  for (const InDim &i : ins) {
    InDim dim{i.name, {}};
    for (const auto &basis : i.bases) {
      std::vector<int32_t> coords;
      for (size_t j = 0; j < outs.size(); ++j) {
        if (j != index) {
          coords.push_back(basis[j]);
          continue;
        }
        // Row-major: the last new dimension takes the low bits.
        int32_t value = basis[j];
        std::vector<int32_t> split(to.size());
        for (size_t k = to.size(); k-- > 0;) {
          split[k] = value % to[k].second;
          value /= to[k].second;
        }
        coords.insert(coords.end(), split.begin(), split.end());
      }
      dim.bases.push_back(std::move(coords));
    }
    resultIns.push_back(std::move(dim));
  }
  return LinearLayout(std::move(resultIns), std::move(resultOuts));
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  if (ins.size() != other.ins.size() || outs.size() != other.outs.size())
    return false;
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].name != other.ins[i].name || ins[i].bases != other.ins[i].bases)
      return false;
  for (size_t j = 0; j < outs.size(); ++j)
    if (outs[j].name != other.outs[j].name || outs[j].size != other.outs[j].size)
      return false;
  return true;
}

std::string LinearLayout::str() const {
  std::string s = "{";
  for (size_t i = 0; i < ins.size(); ++i) {
    s += (i ? ", " : "") + ins[i].name + " = [";
    for (size_t b = 0; b < ins[i].bases.size(); ++b) {
      s += b ? ", [" : "[";
      for (size_t j = 0; j < ins[i].bases[b].size(); ++j)
        s += (j ? ", " : "") + std::to_string(ins[i].bases[b][j]);
      s += "]";
    }
    s += "]";
  }
  s += "} -> [";
  for (size_t j = 0; j < outs.size(); ++j)
    s += (j ? ", " : "") + outs[j].name + ":" + std::to_string(outs[j].size);
  return s + "]";
}

bool nautilus::layout::isPowerOfTwoShape(llvm::ArrayRef<int64_t> shape) {
  return llvm::all_of(shape,
                      [](int64_t s) { return s > 0 && llvm::isPowerOf2_64(s); });
}

/// An empty layout whose outputs are dim0 then dim1: products built on it
/// keep rows before columns whatever order their factors name them in.
static LinearLayout rowsThenColumns() {
  return LinearLayout::identity1D(1, "register", "dim0") *
         LinearLayout::identity1D(1, "register", "dim1");
}

LinearLayout nautilus::layout::mmaAccumulatorLayout(int32_t rows,
                                                    int32_t columns,
                                                    int32_t warpsM,
                                                    int32_t warpsN) {
  int32_t warpRows = rows / warpsM, warpColumns = columns / warpsN;
  assert(warpRows % 16 == 0 && warpColumns % 8 == 0 &&
         "a warp's part is a multiple of 16 x 8");
  LinearLayout tile = LinearLayout::identity1D(2, "register", "dim1") *
                      LinearLayout::identity1D(4, "lane", "dim1") *
                      LinearLayout::identity1D(8, "lane", "dim0") *
                      LinearLayout::identity1D(2, "register", "dim0");
  return rowsThenColumns() * tile *
         LinearLayout::identity1D(warpColumns / 8, "register", "dim1") *
         LinearLayout::identity1D(warpRows / 16, "register", "dim0") *
         LinearLayout::identity1D(warpsN, "warp", "dim1") *
         LinearLayout::identity1D(warpsM, "warp", "dim0");
}

LinearLayout nautilus::layout::mmaOperandALayout() {
  return rowsThenColumns() * LinearLayout::identity1D(2, "register", "dim1") *
         LinearLayout::identity1D(4, "lane", "dim1") *
         LinearLayout::identity1D(8, "lane", "dim0") *
         LinearLayout::identity1D(2, "register", "dim0") *
         LinearLayout::identity1D(2, "register", "dim1");
}

LinearLayout nautilus::layout::mmaOperandBLayout() {
  return rowsThenColumns() * LinearLayout::identity1D(2, "register", "dim0") *
         LinearLayout::identity1D(4, "lane", "dim0") *
         LinearLayout::identity1D(8, "lane", "dim1") *
         LinearLayout::identity1D(2, "register", "dim0");
}

LinearLayout nautilus::layout::ldmatrixMatrixLayout(bool isLhs) {
  // Matrix bit 0 steps the lhs's rows and the rhs's K; bit 1 the other.
  std::vector<int32_t> rows = {8, 0}, k = {0, 8};
  return LinearLayout({{"matrix", isLhs ? std::vector{rows, k}
                                        : std::vector{k, rows}}},
                      {{"dim0", 16}, {"dim1", 16}});
}

LinearLayout nautilus::layout::withWarpsAlongRows(const LinearLayout &l,
                                                  int32_t warps) {
  return l * LinearLayout::identity1D(1, "warp", "dim1") *
         LinearLayout::identity1D(warps, "warp", "dim0");
}

LinearLayout nautilus::layout::rowMajorBlockedLayout(llvm::ArrayRef<int64_t> shape,
                                                     int32_t threads,
                                                     int32_t run) {
  int64_t elements = 1;
  for (int64_t s : shape)
    elements *= s;
  int32_t lanes = std::min<int32_t>(32, threads);
  // The position's bits, low to high: `run`'s register bits, the lane's,
  // the warp's, then the other register bits.
  LinearLayout::InDim lane{"lane", {}}, warp{"warp", {}},
      reg{"register", {}};
  int32_t bit = 1;
  auto take = [&](LinearLayout::InDim &dim, int64_t count) {
    for (int64_t i = 1; i < count; i *= 2, bit *= 2)
      dim.bases.push_back({bit});
  };
  take(reg, run);
  take(lane, lanes);
  take(warp, threads / lanes);
  take(reg, elements / threads / run);
  LinearLayout flat({lane, warp, reg}, {{"position", int32_t(elements)}});
  std::vector<std::pair<std::string, int32_t>> dims;
  for (size_t d = 0; d < shape.size(); ++d)
    dims.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  return flat.reshapeOut("position", dims);
}

std::optional<LinearLayout>
nautilus::layout::coalescedLayout(int32_t rows, int32_t columns,
                                  int32_t threads, int32_t elementBytes,
                                  int32_t columnBlocks) {
  if (columnBlocks > 1) {
    std::optional<LinearLayout> block =
        coalescedLayout(rows, columns / columnBlocks, threads, elementBytes);
    if (!block)
      return std::nullopt;
    return *block * LinearLayout::identity1D(columnBlocks, "register", "dim1");
  }
  int32_t vector = std::min<int32_t>(std::max(16 / elementBytes, 1), columns);
  int32_t lanesAlong = std::min<int32_t>(32, columns / vector);
  int32_t lanesDown = 32 / lanesAlong;
  int32_t warps = threads / 32;
  int32_t columnRepeats = columns / (vector * lanesAlong);
  int32_t rowRepeats = rows / (lanesDown * warps);
  if (rowRepeats < 1 || columnRepeats < 1)
    return std::nullopt; // the threads cover more rows than the tile has
  return rowsThenColumns() * LinearLayout::identity1D(vector, "register", "dim1") *
         LinearLayout::identity1D(lanesAlong, "lane", "dim1") *
         LinearLayout::identity1D(columnRepeats, "register", "dim1") *
         LinearLayout::identity1D(lanesDown, "lane", "dim0") *
         LinearLayout::identity1D(warps, "warp", "dim0") *
         LinearLayout::identity1D(rowRepeats, "register", "dim0");
}

LinearLayout
nautilus::layout::withRowsOverLeadingDims(const LinearLayout &l,
                                          llvm::ArrayRef<int64_t> tile) {
  unsigned rank = tile.size();
  assert(rank >= 2 && l.getOutDims().size() == 2 &&
         "a (rows, columns) layout over a tile of rank 2 or more");
  // The columns renamed for the innermost dimension, then the rows split
  // row-major over the leading ones.
  std::vector<std::pair<std::string, int32_t>> leading;
  for (unsigned d = 0; d + 1 < rank; ++d)
    leading.push_back({"dim" + std::to_string(d), int32_t(tile[d])});
  return l
      .reshapeOut("dim1",
                  {{"dim" + std::to_string(rank - 1), l.getOutDimSize("dim1")}})
      .reshapeOut("dim0", leading);
}

int32_t nautilus::layout::innermostRun(const LinearLayout &l) {
  size_t inner = l.getOutDims().size() - 1;
  for (const auto &in : l.getInDims()) {
    if (in.name != "register")
      continue;
    int32_t run = 1;
    for (const auto &basis : in.bases) {
      bool step = basis[inner] == run;
      for (size_t d = 0; d < inner; ++d)
        step &= basis[d] == 0;
      if (!step)
        break;
      run *= 2;
    }
    return run;
  }
  return 1;
}

bool nautilus::layout::columnBlocksFollowRegisters(const LinearLayout &l,
                                                   int32_t blockColumns) {
  size_t inner = l.getOutDims().size() - 1;
  for (const auto &in : l.getInDims())
    if (in.name != "register")
      for (const auto &basis : in.bases)
        if (basis[inner] >= blockColumns)
          return false;
  return true;
}

SharedSwizzle nautilus::layout::SharedSwizzle::forRows(int64_t rowBytes,
                                                       int64_t swizzleBytes) {
  SharedSwizzle swizzle;
  swizzle.perPhase = static_cast<int32_t>(std::max<int64_t>(1, 128 / rowBytes));
  swizzle.maxPhase = static_cast<int32_t>(
      std::max<int64_t>(1, std::min(swizzleBytes, rowBytes) / 16));
  return swizzle;
}

LinearLayout nautilus::layout::swizzledSharedLayout(int32_t rows,
                                                    int32_t rowElements,
                                                    int32_t elementBytes,
                                                    SharedSwizzle swizzle) {
  int32_t vector = std::max(16 / elementBytes, 1); // elements of a chunk
  int32_t chunks = rowElements / vector;
  std::vector<std::vector<int32_t>> bases;
  for (int32_t bit = 1; bit < vector; bit *= 2)
    bases.push_back({0, bit});
  for (int32_t bit = 1; bit < chunks; bit *= 2)
    bases.push_back({0, bit * vector});
  // Row bit r: the next row, and (where it selects the pattern) the XOR it
  // undoes on the stored chunk: the stored chunk c' holds column chunk
  // c' ^ phase(row), linear in the row's bits.
  for (int32_t bit = 1; bit < rows; bit *= 2) {
    int32_t phase = (bit / swizzle.perPhase) % swizzle.maxPhase;
    bases.push_back({bit, phase * vector});
  }
  return LinearLayout({{"offset", std::move(bases)}},
                      {{"dim0", rows}, {"dim1", rowElements}});
}
