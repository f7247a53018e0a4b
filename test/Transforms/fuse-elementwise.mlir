// RUN: nautc-opt %s -pass-pipeline='builtin.module(alg.kernel(alg-fuse-elementwise))' | FileCheck %s

// CHECK: #[[SHIFT:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>

// P is elementwise and read only through index maps: it is recomputed in
// each reader, with its maps composed, and erased.
// CHECK-LABEL: alg.kernel @softmax_like
alg.kernel @softmax_like sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // CHECK-NOT: alg.define "P"
  %p = alg.define "P" dims ["R", "C"] : tensor<?x?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %e = math.exp %v : f32
    alg.yield %e : f32
  }
  // CHECK: alg.define "L" dims ["R"] reduce sum over ["C"]
  // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
  // CHECK-NEXT: %[[V:.*]] = alg.load %{{.*}}[#{{.*}}] : tensor<?x?xf32> -> f32
  // CHECK-NEXT: %[[E:.*]] = math.exp %[[V]] : f32
  // CHECK-NEXT: alg.yield %[[E]] : f32
  %l = alg.define "L" dims ["R"] reduce sum over ["C"] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %p[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %l : tensor<?xf32>
}

// An index used as a value in the inlined body becomes the reader's map
// result as an alg.apply; loads inside compose their maps.
// CHECK-LABEL: alg.kernel @shifted
alg.kernel @shifted sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  %t = alg.define "T" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.mulf %v, %f : f32
    alg.yield %s : f32
  }
  // CHECK: alg.define "Y"
  // CHECK: %[[I:.*]] = alg.apply #[[SHIFT]]
  // CHECK: alg.load %{{.*}}[#[[SHIFT]]] : tensor<?xf32> -> f32
  // CHECK: arith.index_cast %[[I]]
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %t[affine_map<(d0)[s0] -> (s0 - d0 - 1)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// A definition read through an indirect index stays.
// CHECK-LABEL: alg.kernel @gathered
alg.kernel @gathered sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  %ids = alg.input "ids" dims ["N"] : tensor<?xi32>
  // CHECK: alg.define "T"
  %t = alg.define "T" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %j = alg.load %ids[affine_map<(d0)[s0] -> (d0)>] : tensor<?xi32> -> i32
    %jj = arith.index_cast %j : i32 to index
    %v = alg.load %t[affine_map<(d0)[s0] -> ()>] indirect(%jj) at [0] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// Reads of one element are merged before inlining: T, read twice at [i],
// is inlined once (a chain of such definitions would otherwise grow as
// 2^depth); read at [i] and [i + 1], it is inlined twice.
// CHECK-LABEL: alg.kernel @read_twice
alg.kernel @read_twice sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  %t = alg.define "T" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %e = math.exp %v : f32
    alg.yield %e : f32
  }
  // CHECK: alg.define "Y"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: %[[V:.*]] = alg.load
  // CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
  // CHECK-NEXT: arith.mulf %[[E]], %[[E]]
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %a = alg.load %t[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %b = alg.load %t[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  // CHECK: alg.define "Z"
  // CHECK-COUNT-2: math.exp
  // CHECK-NOT: math.exp
  // CHECK: alg.yield
  %z = alg.define "Z" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %a = alg.load %t[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %b = alg.load %t[affine_map<(d0)[s0] -> (d0 + 1)>] : tensor<?xf32> -> f32
    %p = arith.addf %a, %b : f32
    alg.yield %p : f32
  }
  alg.return %y, %z : tensor<?xf32>, tensor<?xf32>
}
