// RUN: nautc-opt %s --nautilus-legalize-math=exp2-instruction=true | FileCheck %s

// A target with an exp2 instruction (ex2.approx.f32, v_exp_f32) keeps f32
// exp2 for it (its 16-bit forms in f32); exp is still approximated.
// CHECK-LABEL: func.func @kept
// CHECK: math.exp2 %{{.*}} : f32
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: math.exp2 %[[W]] : f32
// CHECK-NOT: math.exp {{.*}}
// CHECK: return
func.func @kept(%x: f32, %h: f16) -> (f32, f16, f32) {
  %a = math.exp2 %x : f32
  %b = math.exp2 %h : f16
  %c = math.exp %x : f32
  return %a, %b, %c : f32, f16, f32
}
