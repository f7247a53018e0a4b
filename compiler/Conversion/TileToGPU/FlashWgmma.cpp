//===- FlashWgmma.cpp - The flash kernel's contractions on wgmma ----------===//
//
// sm_90: matrix descriptors of the panelled stages, wgmma.mma_async with A
// from registers or by descriptor (inline PTX: NVVM's op takes A only
// from shared memory), and the tied wait.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/FlashKernel.h"

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/StreamMasks.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

Value FlashLowering::descriptor(const WgmmaDescriptorPlan &d, Value stage,
                                int64_t kStep, Value groupBytes) {
  Value stageI32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), stage);
  Value start = arith::AddIOp::create(
      b, loc, sharedAddress,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, stageI32, i32(d.stageBytes)),
          i32(d.startOffset(kStep))));
  if (groupBytes)
    start = arith::AddIOp::create(b, loc, start, groupBytes);
  return emitMatrixDescriptor(b, loc, start, d.leadingBytes, d.strideBytes,
                              d.swizzleBytes);
}

void FlashLowering::emitWgmma(MutableArrayRef<Value> acc, ArrayRef<Value> a,
                              Value bDescriptor, bool transposeB, bool fresh) {
  // wgmma.mma_async m64nNk16 with A from registers (the mma.sync A
  // fragment of each warp's 16 rows: NVVM's op takes A only from shared
  // memory) or, `a` one i64, by its descriptor (K-major); B through its
  // descriptor; the accumulators in and out tied (out only when `fresh`).
  // Operands: the accumulators, A, B, scale-d, then the immediates.
  int64_t n = acc.size() * 2, count = acc.size();
  bool registersA = a.size() == 4;
  int64_t aCount = registersA ? 4 : 1;
  std::string type = element.isBF16() ? "bf16" : "f16";
  int64_t inputs = fresh ? count : 2 * count;
  auto at = [&](int64_t i) { return "$" + std::to_string(inputs + i); };
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + at(aCount + 1) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(n) + "k16.f32." + type + "." + type + " {";
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, ";
  if (registersA)
    text += "{" + at(0) + ", " + at(1) + ", " + at(2) + ", " + at(3) + "}";
  else
    text += at(0);
  // scale-a, scale-b, (trans-a: descriptor A only), trans-b
  int64_t immediates = registersA ? 3 : 4;
  text += ", " + at(aCount) + ", p";
  for (int64_t i = 0; i < immediates; ++i)
    text += ", " + at(aCount + 2 + i);
  text += ";\n}\n";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i)
    constraints += "=f,";
  if (!fresh)
    for (int64_t i = 0; i < count; ++i)
      constraints += std::to_string(i) + ",";
  constraints += registersA ? "r,r,r,r,l,n" : "l,l,n";
  for (int64_t i = 0; i < immediates; ++i)
    constraints += ",n";
  SmallVector<Value> operands;
  if (!fresh)
    operands.append(acc.begin(), acc.end());
  for (Value reg : a)
    operands.push_back(
        reg.getType().isInteger(32) || reg.getType().isInteger(64)
            ? reg
            : LLVM::BitcastOp::create(b, loc, b.getI32Type(), reg).getResult());
  operands.push_back(bDescriptor);
  SmallVector<int64_t> values = {fresh ? 0 : 1, 1, 1}; // scale-d, -a, -b
  if (!registersA)
    values.push_back(0); // A K-major
  values.push_back(transposeB ? 1 : 0);
  for (int64_t imm : values)
    operands.push_back(arith::ConstantIntOp::create(b, loc, imm, 32));
  SmallVector<Type> fields(count, b.getF32Type());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, LLVM::LLVMStructType::getLiteral(b.getContext(), fields),
      operands, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  for (int64_t i = 0; i < count; ++i)
    acc[i] = LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i);
}

void FlashLowering::waitForWgmma(MutableArrayRef<Value> acc) {
  // Commit the group and wait for it, the accumulators tied to the wait.
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  SmallVector<Value> waited = emitTiedWgmmaWait(b, loc, acc, /*pending=*/0);
  llvm::copy(waited, acc.begin());
}
