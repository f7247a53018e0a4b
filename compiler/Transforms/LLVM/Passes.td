//===- Passes.td - Clean-ups of the LLVM-level kernels -----*- tablegen -*-===//
#ifndef NAUTILUS_TRANSFORMS_LLVM_PASSES
#define NAUTILUS_TRANSFORMS_LLVM_PASSES

include "mlir/Pass/PassBase.td"

def LegalizeMath : Pass<"nautilus-legalize-math"> {
  let summary = "Rewrite math ops into forms every backend can lower";
  let description = [{
    Arithmetic on f16/bf16 is computed in f32 and rounded back after each
    op (the source's types round every intermediate; emulating the types
    would round a whole chain once). Math on f16/bf16 is computed in f32;
    exp, log, log2, tanh, erf and their
    relatives become polynomial approximations (vectorisable, and free of
    calls into libm, libdevice or ocml); the remaining composite ops
    (rsqrt, powf, exp2, ...) are expanded into those and into ops with a
    direct LLVM intrinsic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def LibcallsToIntrinsics : Pass<"nautilus-libcalls-to-intrinsics"> {
  let summary = "Replace libdevice/ocml calls that are plain LLVM intrinsics";
  let description = [{
    The GPU conversions lower math ops to calls into NVIDIA's libdevice
    (`__nv_sqrtf`, ...) or AMD's ocml (`__ocml_floor_f32`, ...), which then
    have to be linked from the vendor's bitcode. Those with an exact LLVM
    intrinsic (sqrt, floor, ceil, fabs, fma, both precisions) become the
    intrinsic, so kernels need no device library. Any other call into a
    device library is an error naming it (nautilus-legalize-math should have
    expanded the op).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
