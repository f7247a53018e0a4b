//===- ContractLowering.cpp - What both tensor-core lowerings share -------===//
//
// The helpers that the mma.sync (ContractToMmaSync.cpp) and wgmma
// (ContractToWgmma.cpp) lowerings of tile.contract both use: the K range a
// program's contraction steps through, an operand's offset-table entry,
// and the dynamic shared memory their stages live in; and what the
// mma.sync pipelines (ContractToMmaSync.cpp, StreamToMmaSync.cpp) share:
// where a staged tile's chunks are, and its ldmatrix fragments.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;

Value nautilus::emitFirstKTile(OpBuilder &b, Location loc,
                               tile::ContractOp contract, int64_t tileK,
                               ArrayRef<Value> origin) {
  if (!contract.isSplit())
    return arith::ConstantIndexOp::create(b, loc, 0);
  return arith::MulIOp::create(
      b, loc, origin[*contract.getSplitDim()],
      arith::ConstantIndexOp::create(b, loc, *contract.getSplitChunk() / tileK));
}

Value nautilus::emitKTileCount(OpBuilder &b, Location loc,
                               tile::ContractOp contract, Value extent,
                               int64_t tileK) {
  if (contract.isSplit())
    return arith::ConstantIndexOp::create(b, loc,
                                          *contract.getSplitChunk() / tileK);
  return arith::CeilDivUIOp::create(
      b, loc, extent, arith::ConstantIndexOp::create(b, loc, tileK));
}

Value nautilus::emitOperandOffset(OpBuilder &b, Location loc,
                                  tile::ContractOp contract, unsigned side,
                                  Value table, ArrayRef<Value> origin,
                                  ArrayRef<Value> sizes) {
  SmallVector<Value> dims(origin.begin(), origin.end());
  dims.push_back(arith::ConstantIndexOp::create(b, loc, 0)); // not read
  // Past the table: an offset far below any index (int32 for TMA's
  // coordinates).
  constexpr int64_t kOutside = -(int64_t(1) << 30);
  return loadTableEntry(b, loc, table, contract.getOperandOffsetsMap(side),
                        dims, sizes, kOutside);
}

Value nautilus::emitDynamicSharedBase(OpBuilder &b, Location loc,
                                     gpu::GPUFuncOp func) {
  auto gpuModule = func->getParentOfType<gpu::GPUModuleOp>();
  StringRef name = "__nautilus_dynamic_shared";
  if (!gpuModule.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(gpuModule.getBody());
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External, name,
                           Attribute(), /*alignment=*/1024, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), name);
}

/// A memref<elements x element, 3> over the dynamic shared memory from
/// byte `offset` on: its LLVM descriptor built from the pointer, cast to the
/// memref type (the cast disappears when the memref's uses become LLVM:
/// reconcile-unrealized-casts). nvgpu's cp.async and ldmatrix, and the
/// element-wise copies, take memrefs; upstream's gpu.dynamic_shared_memory
/// gives one in #gpu.address_space<workgroup>, which the memref-to-LLVM
/// conversion of those copies cannot map.
Value nautilus::emitDynamicSharedBuffer(OpBuilder &b, Location loc, Value base,
                                        int64_t offset, int64_t elements,
                                        Type element) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto pointer = LLVM::LLVMPointerType::get(ctx, 3);
  auto sizes = LLVM::LLVMArrayType::get(i64, 1);
  auto descriptorType =
      LLVM::LLVMStructType::getLiteral(ctx, {pointer, pointer, i64, sizes, sizes});
  Value start = LLVM::GEPOp::create(
      b, loc, pointer, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
  auto i64Constant = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, start,
                                           ArrayRef<int64_t>{0});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, start,
                                           ArrayRef<int64_t>{1});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, i64Constant(0),
                                           ArrayRef<int64_t>{2});
  descriptor = LLVM::InsertValueOp::create(
      b, loc, descriptor, i64Constant(elements), ArrayRef<int64_t>{3, 0});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, i64Constant(1),
                                           ArrayRef<int64_t>{4, 0});
  auto type = MemRefType::get({elements}, element, AffineMap(),
                              b.getI64IntegerAttr(3));
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}

Value nautilus::emitStagedOffset(OpBuilder &b, Location loc,
                                 const StagedTile &tile, Value stage, Value row,
                                 Value chunk) {
  // The schedule's swizzle (layout::SharedSwizzle, whose
  // swizzledSharedLayout is this map as a linear layout).
  layout::SharedSwizzle swizzle = layout::SharedSwizzle::forRows(
      tile.columns * tile.element.getIntOrFloatBitWidth() / 8,
      tile.swizzleBytes);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value stored = emitStoredChunk(b, loc, swizzle, row, chunk);
  // (In this order, the one the GEMM pipeline's code has always had.)
  Value chunkStart = arith::MulIOp::create(b, loc, stored, c(8));
  Value rowStart = arith::MulIOp::create(b, loc, row, c(tile.columns));
  Value stageStart = arith::MulIOp::create(b, loc, stage, c(tile.stageElements));
  return arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, stageStart, rowStart), chunkStart);
}

namespace {

/// Where lane `lane`'s row address of an ldmatrix (.x4, or .x2 with
/// `oneRhsTile`) lies in the 16 x 16 block it reads: lane l gives row l % 8
/// of matrix q = l / 8, which starts where ldmatrixMatrixLayout says (two n
/// tiles of b0, b1 for the rhs). With .x2 only lanes 0-15 give rows; the
/// others repeat them (inside the tile).
struct LdmatrixLane {
  Value rowOffset, kOffset, inMatrix;
};

LdmatrixLane ldmatrixLane(OpBuilder &b, Location loc, Value lane, bool isLhs,
                          bool oneRhsTile) {
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value q = arith::DivUIOp::create(b, loc, lane, c(8));
  Value inMatrix = arith::RemUIOp::create(b, loc, lane, c(8));
  Value low = arith::RemUIOp::create(b, loc, q, c(2));
  Value high = oneRhsTile ? c(0) : arith::DivUIOp::create(b, loc, q, c(2));
  layout::LinearLayout matrixOrigins = layout::ldmatrixMatrixLayout(isLhs);
  const auto &origins = matrixOrigins.getInDims()[0];
  auto offsetAlong = [&](unsigned dim) {
    Value sum;
    for (auto [bit, value] : {std::make_pair(0, low), std::make_pair(1, high)})
      if (int64_t step = origins.bases[bit][dim]) {
        Value term = arith::MulIOp::create(b, loc, value, c(step));
        sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
      }
    return sum ? sum : c(0);
  };
  Value rowOffset = offsetAlong(0);
  return {rowOffset, offsetAlong(1), inMatrix};
}

/// The registers of one ldmatrix of `tile` at element `offset`.
SmallVector<Value, 4> emitLdmatrixAt(OpBuilder &b, Location loc,
                                     const StagedTile &tile, Value offset,
                                     bool oneRhsTile) {
  int64_t numTiles = oneRhsTile ? 2 : 4;
  auto fragmentType = VectorType::get({numTiles, 2}, tile.element);
  Value matrices = nvgpu::LdMatrixOp::create(
      b, loc, fragmentType, tile.shared, ValueRange{offset},
      /*transpose=*/!tile.kInnermost, numTiles);
  SmallVector<Value, 4> registers;
  for (int64_t i = 0; i < numTiles; ++i) {
    Value pair = vector::ExtractOp::create(b, loc, matrices, i);
    if (tile.element.isBF16()) { // bf16 pairs go to mma.sync as 32-bit registers
      Value bits = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), pair);
      pair = vector::ExtractOp::create(b, loc, bits, 0);
    }
    registers.push_back(pair);
  }
  return registers;
}

} // namespace

SmallVector<Value, 4>
nautilus::emitLdmatrixFragment(OpBuilder &b, Location loc,
                               const StagedTile &op, Value lane, Value stage,
                               Value rowBase, Value kBase, bool isLhs,
                               bool oneRhsTile) {
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  LdmatrixLane at = ldmatrixLane(b, loc, lane, isLhs, oneRhsTile);
  Value row = add(rowBase, at.rowOffset), k = add(kBase, at.kOffset);
  Value storedRow = op.kInnermost ? add(row, at.inMatrix) : add(k, at.inMatrix);
  Value column = op.kInnermost ? k : row;
  Value chunk = arith::DivUIOp::create(
      b, loc, column, arith::ConstantIndexOp::create(b, loc, 8));
  Value offset = emitStagedOffset(b, loc, op, stage, storedRow, chunk);
  return emitLdmatrixAt(b, loc, op, offset, oneRhsTile);
}

StagedFragmentLoader::StagedFragmentLoader(OpBuilder &b, Location loc,
                                           const StagedTile &tile, Value lane,
                                           bool isLhs)
    : b(b), loc(loc), tile(tile), lane(lane), isLhs(isLhs),
      swizzle(layout::SharedSwizzle::forRows(
          tile.columns * tile.element.getIntOrFloatBitWidth() / 8,
          tile.swizzleBytes)) {
  LdmatrixLane at = ldmatrixLane(b, loc, lane, isLhs, /*oneRhsTile=*/false);
  Value eight = arith::ConstantIndexOp::create(b, loc, 8);
  // The stored row's and the chunk's parts that depend on the lane.
  if (tile.kInnermost) {
    rowLane = arith::AddIOp::create(b, loc, at.rowOffset, at.inMatrix);
    chunkLane = arith::DivUIOp::create(b, loc, at.kOffset, eight);
  } else {
    rowLane = arith::AddIOp::create(b, loc, at.kOffset, at.inMatrix);
    chunkLane = arith::DivUIOp::create(b, loc, at.rowOffset, eight);
  }
}

SmallVector<Value, 4> StagedFragmentLoader::load(Value stage, int64_t rowBase,
                                                 int64_t kBase) {
  int64_t storedRow = tile.kInnermost ? rowBase : kBase;
  int64_t chunk = (tile.kInnermost ? kBase : rowBase) / 8;
  int64_t phases = swizzle.maxPhase, rowsAPhase = swizzle.perPhase;
  int64_t residue = chunk % phases;
  // The phase must depend on the lane alone, and the lane's chunk (0 or 1
  // past the constant one) stay inside the constant's group of `phases`.
  if (storedRow % (rowsAPhase * phases) != 0 ||
      (phases > 1 && residue + 1 >= phases)) {
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    return emitLdmatrixFragment(b, loc, tile, lane, stage, c(rowBase),
                                c(kBase), isLhs);
  }
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto key = std::make_pair(stage.getAsOpaquePointer(), residue);
  Value &base = bases[key];
  if (!base) {
    // stage * stage elements + rowLane * columns + 8 ((residue + chunkLane)
    // ^ phase(rowLane)).
    Value phase = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, rowLane, c(rowsAPhase)),
        c(phases));
    Value lanesChunk = arith::XOrIOp::create(
        b, loc, arith::AddIOp::create(b, loc, chunkLane, c(residue)), phase);
    base = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, stage, c(tile.stageElements)),
            arith::MulIOp::create(b, loc, rowLane, c(tile.columns))),
        arith::MulIOp::create(b, loc, lanesChunk, c(8)));
  }
  int64_t constant =
      storedRow * tile.columns + 8 * phases * (chunk / phases);
  Value offset = arith::AddIOp::create(b, loc, base, c(constant));
  return emitLdmatrixAt(b, loc, tile, offset, /*oneRhsTile=*/false);
}

SmallVector<Value> nautilus::emitTiedWgmmaWait(OpBuilder &b, Location loc,
                                               ValueRange acc,
                                               int64_t pending) {
  int64_t n = acc.size();
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < n; ++i)
    constraints += std::to_string(i) + (i + 1 < n ? "," : "");
  SmallVector<Type> fields(n, b.getF32Type());
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  auto wait = LLVM::InlineAsmOp::create(
      b, loc, type, acc,
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
      constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, wait.getResult(0), i));
  return out;
}

Value nautilus::emitMatrixDescriptor(OpBuilder &b, Location loc, Value start,
                                     int64_t leadingBytes, int64_t strideBytes,
                                     int64_t swizzleBytes) {
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  Value address = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, start, i32(0x3ffff)), i32(4));
  Value low = arith::ExtUIOp::create(b, loc, b.getI64Type(), address);
  uint64_t fixed =
      matrixDescriptorBits(leadingBytes, strideBytes, swizzleBytes);
  return arith::OrIOp::create(b, loc, low, i64(int64_t(fixed)));
}

void nautilus::emitSetMaxRegisters(OpBuilder &b, Location loc,
                                   const RegisterReallocation &registers,
                                   bool producer) {
  if (registers)
    NVVM::SetMaxRegisterOp::create(
        b, loc, producer ? registers.producer : registers.consumer,
        producer ? NVVM::SetMaxRegisterAction::decrease
                 : NVVM::SetMaxRegisterAction::increase);
}
