// RUN: nautc-opt %s --nautilus-drop-vector-unit-dims | FileCheck %s

// A host stream's column over its tile's rows: computed on vector<8>
// (the LLVM lowering would unroll vector<1x1x8x1> into eight
// vector<1xf32>, scalar ops), the operands cast in at each use and the
// result cast out once.
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

// A loop's column accumulator is carried as vector<8> and cast at the
// loop's boundaries.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: vector.shape_cast %{{.*}} : vector<8xf32> to vector<1x8x1xf32>
func.func @carried(%init: vector<1x8x1xf32>, %step: vector<1x8x1xf32>, %n: index) -> vector<1x8x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<1x8x1xf32>) {
    %next = arith.addf %acc, %step : vector<1x8x1xf32>
    scf.yield %next : vector<1x8x1xf32>
  }
  return %r : vector<1x8x1xf32>
}
