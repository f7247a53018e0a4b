//===- ContractLowering.cpp - What both tensor-core lowerings share -------===//
//
// The helpers that the mma.sync (ContractToMmaSync.cpp) and wgmma
// (ContractToWgmma.cpp) lowerings of tile.contract both use: the K range a
// program's contraction steps through, an operand's offset-table entry,
// and the dynamic shared memory their stages live in.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "dialects/Tile/Utils/AffineExpansion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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
