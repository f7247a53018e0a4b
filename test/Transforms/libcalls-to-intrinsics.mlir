// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(nautilus-libcalls-to-intrinsics))' -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.module @k
// CHECK-NOT: __nv_sqrtf
// CHECK-NOT: __ocml_floor_f32
// CHECK-NOT: exp2f
// CHECK-NOT: exp2_f32
// CHECK: llvm.intr.sqrt
// CHECK: llvm.intr.floor
// CHECK: llvm.intr.exp2
// CHECK: llvm.intr.exp2
gpu.module @k {
  llvm.func @__nv_sqrtf(f32) -> f32
  llvm.func @__ocml_floor_f32(f32) -> f32
  llvm.func @__nv_exp2f(f32) -> f32
  llvm.func @__ocml_exp2_f32(f32) -> f32
  llvm.func @f(%x: f32) -> f32 {
    %a = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
    %b = llvm.call @__ocml_floor_f32(%a) : (f32) -> f32
    %c = llvm.call @__nv_exp2f(%b) : (f32) -> f32
    %d = llvm.call @__ocml_exp2_f32(%c) : (f32) -> f32
    llvm.return %d : f32
  }
}

// -----

gpu.module @k {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @f(%x: f32) -> f32 {
    // expected-error @+1 {{'exp' of 'f32' values has no code on this target (nautilus links no device math library: '__nv_expf')}}
    %a = llvm.call @__nv_expf(%x) : (f32) -> f32
    llvm.return %a : f32
  }
}

// -----

// A function of f64 values: the user's input, with what to do (the driver
// reports it as a user error: test/nautc/gpu-f64-math.test).
gpu.module @k {
  llvm.func @__nv_exp(f64) -> f64
  llvm.func @f(%x: f64) -> f64 {
    // expected-error @+1 {{'exp' of 'f64' values has no code on this target (nautilus links no device math library: '__nv_exp'; sigmoid, silu, gelu and pow are made of exp, log and erfc): compute it in f32 (f32(...) of its argument), or compile for cpu}}
    %a = llvm.call @__nv_exp(%x) : (f64) -> f64
    llvm.return %a : f64
  }
}
