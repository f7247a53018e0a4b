// RUN: nautc-opt %s --nautilus-legalize-math | FileCheck %s

// No op is left that needs libm, libdevice or ocml.
// CHECK-LABEL: func.func @f
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.rsqrt
// CHECK-NOT: math.powf
// CHECK-NOT: math.tanh
// CHECK: math.sqrt
// CHECK: return
func.func @f(%x: vector<8xf32>, %y: bf16, %z: f32) -> (vector<8xf32>, vector<8xf32>, bf16, f32, f32) {
  %a = math.rsqrt %x : vector<8xf32>
  %b = math.erf %x : vector<8xf32>
  %c = math.exp %y : bf16
  %d = math.powf %z, %z : f32
  %e = math.tanh %z : f32
  return %a, %b, %c, %d, %e : vector<8xf32>, vector<8xf32>, bf16, f32, f32
}
