// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu,canonicalize,cse)' | FileCheck %s

// A[m, k] depends on the rows only: 8 scalar loads (at rows clamped into
// the output, so unmasked) broadcast along the columns. B[k, n] is contiguous along the columns: one row load,
// broadcast along the rows, plain where the row lies inside B whole and
// masked (its lanes compared) only at B's edge. The store is one vector
// store per row, masked only at the output's edge.
// The sum over K folds blocks of 64 into a fresh partial, added to the
// total with Kahan's compensation.
// CHECK-LABEL: func.func @gemm_C(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>, %[[M:.*]]: index, %[[K:.*]]: index, %[[N:.*]]: index, %[[FIRST:.*]]: index, %[[LAST:.*]]: index)
// CHECK: scf.for %[[PID:.*]] = %[[FIRST]] to %[[LAST]]
// CHECK: %[[TOTALS:.*]]:2 = scf.for %[[BLOCK:.*]] = %{{.*}} to %[[K]] step %c64 iter_args(%[[TOTAL:.*]] = %[[ZERO:.*]], %[[LOST:.*]] = %[[ZERO]]) -> (vector<8x16xf32>, vector<8x16xf32>)
// CHECK: %[[BLOCKEND:.*]] = arith.minsi %{{.*}}, %[[K]] : index
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} = %[[BLOCK]] to %[[BLOCKEND]] step %c1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<8x16xf32>)
// CHECK-COUNT-8: memref.load %[[A]]
// CHECK: vector.from_elements {{.*}} : vector<8x1xf32>
// CHECK: vector.broadcast %{{.*}} : vector<8x1xf32> to vector<8x16xf32>
// CHECK: %[[ROW:.*]] = scf.if %{{.*}} -> (vector<16xf32>) {
// CHECK-NEXT: %[[WHOLE:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<?xf32>, vector<16xf32>
// CHECK-NEXT: scf.yield %[[WHOLE]]
// CHECK-NEXT: } else {
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : vector<16xindex>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.broadcast %[[ROW]] : vector<16xf32> to vector<8x16xf32>
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[ACC]] : vector<8x16xf32>
// CHECK: scf.yield
// CHECK: %[[Y:.*]] = arith.subf %[[PARTIAL]], %[[LOST]]
// CHECK: %[[T:.*]] = arith.addf %[[TOTAL]], %[[Y]]
// CHECK: %[[GAIN:.*]] = arith.subf %[[T]], %[[TOTAL]]
// CHECK: %[[NEWLOST:.*]] = arith.subf %[[GAIN]], %[[Y]]
// CHECK: scf.yield %[[T]], %[[NEWLOST]]
// CHECK: scf.if
// CHECK-NEXT: vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK-NEXT: } else {
// CHECK-COUNT-8: vector.maskedstore
tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.reduce sum over(%k) : vector<8x16xf32> {
  ^bb0(%kk: index):
    %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %y = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %p = arith.mulf %x, %y : vector<8x16xf32>
    tile.yield %p : vector<8x16xf32>
  }
  tile.store %acc, %c : vector<8x16xf32> -> memref<?x?xf32>
}

// The indices are a contiguous load; the gather through them reads the
// whole tile.
// CHECK-LABEL: func.func @gather_G(
// CHECK: vector.maskedload {{.*}} : memref<?xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
// CHECK: vector.gather {{.*}} : memref<?xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
tile.program @gather_G attributes {arg_names = ["W", "ids", "G"], output_dims = ["T"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["T", "E"]} {
^bb0(%w: memref<?xf32>, %ids: memref<?xi32>, %g: memref<?xf32>, %t: index, %e: index):
  %i = tile.load %ids[affine_map<(d0)[s0, s1] -> (d0)>] : memref<?xi32> -> vector<16xi32>
  %ii = arith.index_cast %i : vector<16xi32> to vector<16xindex>
  %v = tile.load %w[affine_map<(d0)[s0, s1] -> ()>] indirect(%ii) at [0] : memref<?xf32>, vector<16xindex> -> vector<16xf32>
  tile.store %v, %g : vector<16xf32> -> memref<?xf32>
}

// A program that skips tiles (`tile.skip_if_negative`) reads the tile's
// entry, -1 past the table, and runs the tile only when it is not negative.
// CHECK-LABEL: func.func @skipping_Y
// CHECK-SAME: (%[[BLOCKS:[^:]*]]: memref<?xi32>
// CHECK: %[[ENTRY:.*]] = scf.if %{{.*}} -> (index) {
// CHECK-NEXT: memref.load %[[BLOCKS]]
// CHECK: scf.yield %c-1 : index
// CHECK: %[[RUNS:.*]] = arith.cmpi sge, %[[ENTRY]], %c0 : index
// CHECK-NEXT: scf.if %[[RUNS]] {
// CHECK: math.exp
tile.program @skipping_Y attributes {arg_names = ["blocks", "X", "Y"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["R", "N"]} {
^bb0(%blocks: memref<?xi32>, %x: memref<?x?xf32>, %y: memref<?x?xf32>, %r: index, %n: index):
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32>
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x64xf32>
  %w = math.exp %v : vector<16x64xf32>
  tile.store %w, %y : vector<16x64xf32> -> memref<?x?xf32>
}

// A split reduction folds its program's chunk: [2500 s, min(C, 2500 (s + 1)))
// with s the program's index along dimension 1.
// CHECK-LABEL: func.func @chunked_P
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c2500
// CHECK: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c2500
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %[[NEXT]]
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[END]] step %c1 iter_args
tile.program @chunked_P attributes {arg_names = ["X", "P"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [1, 1], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %p: memref<?x?xf32>, %r: index, %c: index):
  %acc = tile.reduce max over(%c) chunks(2500 along 1) : vector<1x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<1x1xf32>
    tile.yield %v : vector<1x1xf32>
  }
  tile.store %acc, %p : vector<1x1xf32> -> memref<?x?xf32>
}

// A reduction that varies along the rows only folds a column (8x1), even
// where it reads the rows' tile.index, lowered outside it at the tile's
// shape (8x16): the index is made anew at the column's shape for the ops
// that read it. (Read at the tile's shape, the mask's compare and select
// would be wider than the reduction's tile.)
// CHECK-LABEL: func.func @masked_rows_Y(
// CHECK: scf.for {{.*}} -> (vector<8x1xf32>)
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : vector<8x1xindex>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8x1xi1>, vector<8x1xf32>
// CHECK: vector.broadcast %{{.*}} : vector<8x1xf32> to vector<8x16xf32>
tile.program @masked_rows_Y attributes {arg_names = ["S", "V", "Y"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %zero = arith.constant dense<0.000000e+00> : vector<8x16xf32>
  %rows = tile.index 0 : vector<8x16xindex>
  %r = tile.reduce sum over(%m) : vector<8x16xf32> {
  ^bb0(%key: index):
    %keys = vector.broadcast %key : index to vector<8x16xindex>
    %seen = arith.cmpi sle, %keys, %rows : vector<8x16xindex>
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %masked = arith.select %seen, %x, %zero : vector<8x16xi1>, vector<8x16xf32>
    tile.yield %masked : vector<8x16xf32>
  }
  %w = tile.load %v[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
  %out = arith.mulf %r, %w : vector<8x16xf32>
  tile.store %out, %y : vector<8x16xf32> -> memref<?x?xf32>
}
