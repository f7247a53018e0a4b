//===- BoundBuffers.cpp - Buffers whose every dimension is bound ----------===//
#include "dialects/Tile/Utils/BoundBuffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace nautilus;

Value tile::boundBufferView(OpBuilder &b, Location loc, ProgramOp program,
                            unsigned arg, Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  ArrayAttr dims = program.getBufferDims(arg);
  if (!type || !dims || dims.size() != type.getShape().size() ||
      !type.getLayout().isIdentity() || type.hasStaticShape())
    return Value();
  SmallVector<int64_t> shape;
  for (Attribute dim : dims)
    if (std::optional<int64_t> bound = program.getKnownExtent(dim))
      shape.push_back(*bound);
  if (shape.size() != dims.size())
    return Value();
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t j = static_cast<int64_t>(shape.size()) - 2; j >= 0; --j)
    strides[j] = strides[j + 1] * shape[j + 1];
  auto viewType = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), /*offset=*/0, strides),
      type.getMemorySpace());
  SmallVector<OpFoldResult> sizes, strideValues;
  for (auto [extent, stride] : llvm::zip(shape, strides)) {
    sizes.push_back(b.getIndexAttr(extent));
    strideValues.push_back(b.getIndexAttr(stride));
  }
  return memref::ReinterpretCastOp::create(b, loc, viewType, buffer,
                                           OpFoldResult(b.getIndexAttr(0)),
                                           sizes, strideValues)
      .getResult();
}
