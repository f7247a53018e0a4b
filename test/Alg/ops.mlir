// RUN: nautc-opt %s | nautc-opt | FileCheck %s

// CHECK-LABEL: alg.kernel @masked_rowsum sizes ["R", "C"]
alg.kernel @masked_rowsum sizes ["R", "C"] {
  // CHECK: %[[X:.*]] = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // CHECK: %[[ALPHA:.*]] = alg.input "alpha" dims [] : f32
  %alpha = alg.input "alpha" dims [] : f32
  // CHECK: alg.define "S" dims ["R"] reduce sum over ["C"] : tensor<?xf32>
  %s = alg.define "S" dims ["R"] reduce sum over ["C"] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    // CHECK: alg.load %[[X]][#{{.*}}]
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  } epilogue {
  ^bb0(%r: index, %acc: f32):
    %y = arith.mulf %acc, %alpha : f32
    alg.yield %y : f32
  }
  alg.return %s : tensor<?xf32>
}

// CHECK-LABEL: alg.kernel @gather sizes ["T", "E", "D"]
alg.kernel @gather sizes ["T", "E", "D"] {
  %w = alg.input "W" dims ["E", "D"] : tensor<?x?xf32>
  %ids = alg.input "ids" dims ["T"] : tensor<?xi32>
  %n = alg.size "D"
  // CHECK: alg.define "G" dims ["T", "D"] : tensor<?x?xf32>
  %g = alg.define "G" dims ["T", "D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %d: index):
    %i = alg.load %ids[affine_map<(d0, d1)[s0, s1, s2] -> (d0)>] : tensor<?xi32> -> i32
    %ii = arith.index_cast %i : i32 to index
    // CHECK: alg.load %{{.*}}[#{{.*}}] indirect(%{{.*}}) at [0] : tensor<?x?xf32> -> f32
    %v = alg.load %w[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] indirect(%ii) at [0] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  // CHECK: alg.require %{{.*}}, "D > 0"
  %zero = arith.constant 0 : index
  %pos = arith.cmpi sgt, %n, %zero : index
  alg.require %pos, "D > 0"
  alg.return %g : tensor<?x?xf32>
}

// CHECK-LABEL: alg.kernel @bound sizes ["N"] attributes {bindings = {N = 8 : i64}}
alg.kernel @bound sizes ["N"] attributes {bindings = {N = 8 : i64}} {
  %x = alg.input "X" dims ["N", 4] : tensor<?x4xf32>
  %y = alg.define "Y" dims ["N", 4] : tensor<?x4xf32> {
  ^bb0(%i: index, %j: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0] -> (d0, d1)>] : tensor<?x4xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?x4xf32>
}
