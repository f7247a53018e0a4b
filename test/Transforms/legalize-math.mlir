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
func.func @f(%x: vector<8xf32>, %y: bf16, %z: f32) -> (vector<8xf32>, vector<8xf32>, bf16, f32, f32, f32) {
  %a = math.rsqrt %x : vector<8xf32>
  %b = math.erf %x : vector<8xf32>
  %c = math.exp %y : bf16
  %d = math.powf %z, %z : f32
  %e = math.tanh %z : f32
  // (gelu's: x/2 erfc(-x / sqrt 2))
  %g = math.erfc %z : f32
  return %a, %b, %c, %d, %e, %g : vector<8xf32>, vector<8xf32>, bf16, f32, f32, f32
}

// 16-bit float arithmetic is computed in f32 and rounded back after each
// op, as the source's types say (emulating the types would compute the
// chain in f32 and round once); a comparison compares the widened values.
// CHECK-LABEL: func.func @bf16_chain
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// CHECK: %[[S:.*]] = arith.addf %[[X]], %{{.*}} : vector<4xf32>
// CHECK: %[[T0:.*]] = arith.truncf %[[S]] : vector<4xf32> to vector<4xbf16>
// CHECK: %[[T0W:.*]] = arith.extf %[[T0]] : vector<4xbf16> to vector<4xf32>
// CHECK: %[[S2:.*]] = arith.addf %[[T0W]], %{{.*}} : vector<4xf32>
// CHECK: %[[T2:.*]] = arith.truncf %[[S2]] : vector<4xf32> to vector<4xbf16>
// CHECK: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT: arith.addf {{.*}}bf16
func.func @bf16_chain(%x: vector<4xbf16>, %c: vector<4xbf16>) -> (vector<4xbf16>, vector<4xi1>) {
  %t0 = arith.addf %x, %c : vector<4xbf16>
  %t2 = arith.addf %t0, %x : vector<4xbf16>
  %gt = arith.cmpf ogt, %t2, %c : vector<4xbf16>
  return %t2, %gt : vector<4xbf16>, vector<4xi1>
}

// exp2 (which alg-exp-to-exp2 makes of every f32 exp) is a polynomial of
// its own where the target has no instruction for it: no exp, no libm, and
// f16's is computed in f32.
// CHECK-LABEL: func.func @exp2_polynomial
// CHECK-NOT: math.exp
// CHECK: math.floor %{{.*}} : vector<8xf32>
// CHECK: math.fma
// CHECK: arith.shli %{{.*}} : vector<8xi32>
// CHECK: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: math.floor %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp2_polynomial(%x: vector<8xf32>, %h: f16) -> (vector<8xf32>, f16) {
  %a = math.exp2 %x : vector<8xf32>
  %b = math.exp2 %h : f16
  return %a, %b : vector<8xf32>, f16
}

// f64 to bf16: rounded to f32 to odd (towards zero, the last bit set when
// inexact), then to bf16; no libcall is left.
// CHECK-LABEL: func.func @f64_to_bf16
// CHECK: %[[NEAR:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.cmpf one
// CHECK: arith.bitcast %[[NEAR]] : f32 to i32
// CHECK: arith.ori
// CHECK: %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[ODD]] : f32 to bf16
func.func @f64_to_bf16(%x: f64) -> bf16 {
  %r = arith.truncf %x : f64 to bf16
  return %r : bf16
}
