// RUN: nautc-opt %s --nautilus-drop-vector-unit-dims | FileCheck %s

// A host stream's column over its tile's rows: computed on vector<8>
// (the LLVM lowering would unroll vector<1x1x8x1> into eight
// vector<1xf32>, scalar ops), one cast in and one out.
// CHECK-LABEL: func.func @column
// CHECK: vector.shape_cast %{{.*}} : vector<1x1x8x1xf32> to vector<8xf32>
// CHECK: arith.subf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT: math.exp2 %{{.*}} : vector<8xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT: vector.shape_cast %{{.*}} : vector<8xf32> to vector<1x1x8x1xf32>
// CHECK-NEXT: return
func.func @column(%a: vector<1x1x8x1xf32>, %b: vector<1x1x8x1xf32>) -> vector<1x1x8x1xf32> {
  %0 = arith.subf %a, %b : vector<1x1x8x1xf32>
  %1 = math.exp2 %0 : vector<1x1x8x1xf32>
  %2 = arith.mulf %1, %a : vector<1x1x8x1xf32>
  return %2 : vector<1x1x8x1xf32>
}

// A shape without unit dimensions is left as it is.
// CHECK-LABEL: func.func @tile
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : vector<8x64xf32>
// CHECK-NEXT: return
func.func @tile(%a: vector<8x64xf32>, %b: vector<8x64xf32>) -> vector<8x64xf32> {
  %0 = arith.addf %a, %b : vector<8x64xf32>
  return %0 : vector<8x64xf32>
}
