//===- Passes.td - Clean-ups of the LLVM-level kernels -----*- tablegen -*-===//
#ifndef NAUTILUS_TRANSFORMS_LLVM_PASSES
#define NAUTILUS_TRANSFORMS_LLVM_PASSES

include "mlir/Pass/PassBase.td"

def LegalizeMath : Pass<"nautilus-legalize-math"> {
  let summary = "Rewrite math ops into forms every backend can lower";
  let description = [{
    Arithmetic on f16/bf16 is computed in f32 and rounded back after each
    op (the source's types round every intermediate; emulating the types
    would round a whole chain once); f64 is rounded to them through f32
    rounded to odd (correct, and free of compiler-rt's __truncdfbf2). Math
    on f16/bf16 is computed in f32;
    exp, log, log2, tanh, erf and their
    relatives become polynomial approximations (vectorisable, and free of
    calls into libm, libdevice or ocml); the remaining composite ops
    (rsqrt, powf, ...) are expanded into those and into ops with a direct
    LLVM intrinsic. exp2 stays exp2 where the target has an instruction for
    it (`exp2-instruction`: NVIDIA's ex2.approx.f32, AMD's v_exp_f32, both
    reached through the `llvm.exp2.f32` intrinsic); elsewhere it becomes a
    polynomial of its own, cheaper than exp's (alg-exp-to-exp2 turns exp
    into exp2).
  }];
  let options = [
    Option<"exp2Instruction", "exp2-instruction", "bool", /*default=*/"false",
           "Keep f32 exp2 for the target's instruction">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def DropVectorUnitDims : Pass<"nautilus-drop-vector-unit-dims"> {
  let summary = "Compute element-wise vector ops without their unit dimensions";
  let description = [{
    The LLVM lowering unrolls an n-D vector into 1-D vectors of its
    innermost dimension, so arithmetic on a shape whose innermost extent is
    1 is scalarised: a host stream's column over its tile's rows
    (attention's scores, vector<1x1x8x1xf32>) became eight scalar ops an
    op. Element-wise ops (arith, math, and vector.transpose) on shapes with
    unit dimensions are rewritten to compute on the shape without them
    (vector<8xf32>), with vector.shape_cast around them, and so are the
    vectors scf.for loops carry; casts that meet fold away (CSE, run after
    it, merges the casts of one value). Contractions and reductions keep
    their shapes.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def LibcallsToIntrinsics : Pass<"nautilus-libcalls-to-intrinsics"> {
  let summary = "Replace libdevice/ocml calls that are plain LLVM intrinsics";
  let description = [{
    The GPU conversions lower math ops to calls into NVIDIA's libdevice
    (`__nv_sqrtf`, ...) or AMD's ocml (`__ocml_floor_f32`, ...), which then
    have to be linked from the vendor's bitcode. Those with an exact LLVM
    intrinsic (sqrt, floor, ceil, fabs, fma, both precisions; exp2 of f32,
    which libdevice and ocml compute with the instruction the backends
    select for the intrinsic, ex2.approx.f32 and v_exp_f32) become the
    intrinsic, so kernels need no device library. Any other call into a
    device library (a function of f64 values: nautilus-legalize-math
    expands those of f32 and 16-bit floats) is an error at the operation,
    naming the function, once a function and place, and marks the module
    `nautilus.needs_device_library` (the driver reports it as the user's).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
