// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu{vector-bits=512},canonicalize,cse)' | FileCheck %s
// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu{vector-bits=256},canonicalize,cse)' | FileCheck %s --check-prefix=AVX2

// A sum of squares of bf16 rows (a norm's) folds with its lanes along the
// reduced index: each step loads 16 consecutive elements of each of the
// tile's 8 rows (a plain load, the rows clamped into X), widens them and
// accumulates with FMAs into an 8x16 accumulator, in blocks of 64 indices
// added with Kahan's compensation. Before the whole steps, the masked
// steps from the last whole one to D (one step, unless a kernel reads out
// of range): masked loads, and the lanes past D selected out. At the end
// each row's 16 lanes are reduced once.
// CHECK-LABEL: func.func @sumsq_R(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x?xbf16>, %[[R:[a-z0-9]+]]: memref<?xf32>, %[[T:[a-z0-9]+]]: index, %[[D:[a-z0-9]+]]: index,
// CHECK: %[[XD:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[INSIDE:.*]] = arith.minsi %[[D]], %[[XD]]
// CHECK: %[[WHOLE:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK: %[[STEPS:.*]] = arith.divsi %[[WHOLE]], %c16
// CHECK: %[[FULLEND:.*]] = arith.muli %[[STEPS]], %c16
// CHECK: %[[TAIL:.*]] = scf.for %[[AT:.*]] = %[[FULLEND]] to %[[D]] step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.maskedload %{{.*}} : memref<?xbf16>, vector<16xi1>, vector<16xbf16> into vector<16xbf16>
// CHECK: arith.extf %{{.*}} : vector<8x16xbf16> to vector<8x16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8x16xi1>, vector<8x16xf32>
// CHECK: %[[TOTALS:.*]]:2 = scf.for %{{.*}} = %c0 to %[[FULLEND]] step %c64 iter_args(%{{.*}} = %[[TAIL]], %{{.*}} = %{{.*}}) -> (vector<8x16xf32>, vector<8x16xf32>)
// CHECK: scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %c16 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.load %{{.*}} : memref<?xbf16>, vector<16xbf16>
// CHECK-NOT: vector.maskedload
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : vector<8x16xbf16> to vector<8x16xf32>
// CHECK: math.fma %[[WIDE]], %[[WIDE]], %[[ACC]] : vector<8x16xf32>
// CHECK: vector.extract %[[TOTALS]]#0[0] : vector<16xf32> from vector<8x16xf32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK-COUNT-7: vector.reduction <add>
// CHECK: math.rsqrt %{{.*}} : vector<8xf32>
// AVX2-LABEL: func.func @sumsq_R(
// AVX2: scf.for %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x8xf32>)
tile.program @sumsq_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xbf16>, %r: memref<?xf32>, %t: index, %d: index):
  %s = tile.reduce sum over(%d) : vector<8xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<8xbf16>
    %w = arith.extf %v : vector<8xbf16> to vector<8xf32>
    %sq = arith.mulf %w, %w : vector<8xf32>
    tile.yield %sq : vector<8xf32>
  }
  %inv = math.rsqrt %s : vector<8xf32>
  tile.store %inv, %r : vector<8xf32> -> memref<?xf32>
}

// softmax's sum apart from its max: the max, read once a row (a column of
// 4 rows: scalar loads, clamped), is broadcast along the lanes. A maximum
// is not blocked, and its lanes reduce with `maximumf`.
// CHECK-LABEL: func.func @softmax_L(
// CHECK: scf.for %{{.*}} step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: vector.broadcast %{{.*}} : vector<4x1xf32> to vector<4x16xf32>
// CHECK: math.exp %{{.*}} : vector<4x16xf32>
// CHECK: vector.reduction <add>
// CHECK-LABEL: func.func @row_max(
// CHECK-NOT: step %c64
// CHECK: scf.for %{{.*}} step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<2x16xf32>)
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<2x16xf32>
// CHECK: vector.reduction <maximumf>
tile.program @softmax_L attributes {arg_names = ["X", "Mx", "L"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %mx: memref<?xf32>, %l: memref<?xf32>, %rr: index, %c: index):
  %s = tile.reduce sum over(%c) : vector<4xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %m = tile.load %mx[affine_map<(d0, d1)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<4xf32>
    %e = arith.subf %v, %m : vector<4xf32>
    %p = math.exp %e : vector<4xf32>
    tile.yield %p : vector<4xf32>
  }
  tile.store %s, %l : vector<4xf32> -> memref<?xf32>
}
tile.program @row_max attributes {arg_names = ["X", "M"], output_dims = ["R"], schedule = #tile.schedule<tile = [2], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %mx: memref<?xf32>, %rr: index, %c: index):
  %s = tile.reduce max over(%c) : vector<2xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<2xf32>
    tile.yield %v : vector<2xf32>
  }
  tile.store %s, %mx : vector<2xf32> -> memref<?xf32>
}

// What keeps its lanes along its rows: a tile of more than 8 rows (16
// accumulators and their compensations would not fit the registers), a
// reduction that reads its index as a value (a mask), and a contraction
// (its rhs row is contiguous along the output's columns).
// CHECK-LABEL: func.func @wide_R(
// CHECK-NOT: vector.reduction
// CHECK: return
// CHECK-LABEL: func.func @masked_R(
// CHECK-NOT: vector.reduction
// CHECK: return
// CHECK-LABEL: func.func @matvec_Y(
// CHECK-NOT: vector.reduction
// CHECK: return
tile.program @wide_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %r: memref<?xf32>, %t: index, %d: index):
  %s = tile.reduce sum over(%d) : vector<16xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16xf32>
    tile.yield %v : vector<16xf32>
  }
  tile.store %s, %r : vector<16xf32> -> memref<?xf32>
}
tile.program @masked_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %r: memref<?xf32>, %t: index, %d: index):
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %rows = tile.index 0 : vector<4xindex>
  %s = tile.reduce sum over(%d) : vector<4xf32> {
  ^bb0(%k: index):
    %keys = vector.broadcast %k : index to vector<4xindex>
    %seen = arith.cmpi sle, %keys, %rows : vector<4xindex>
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %m = arith.select %seen, %v, %zero : vector<4xi1>, vector<4xf32>
    tile.yield %m : vector<4xf32>
  }
  tile.store %s, %r : vector<4xf32> -> memref<?xf32>
}
tile.program @matvec_Y attributes {arg_names = ["A", "X", "Y"], output_dims = ["M"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["M", "K"]} {
^bb0(%a: memref<?x?xf32>, %xv: memref<?xf32>, %y: memref<?xf32>, %m: index, %k: index):
  %s = tile.reduce sum over(%k) : vector<8xf32> {
  ^bb0(%i: index):
    %av = tile.load %a[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<8xf32>
    %xk = tile.load %xv[affine_map<(d0, d1)[s0, s1] -> (d1)>] : memref<?xf32> -> vector<8xf32>
    %p = arith.mulf %av, %xk : vector<8xf32>
    tile.yield %p : vector<8xf32>
  }
  tile.store %s, %y : vector<8xf32> -> memref<?xf32>
}
