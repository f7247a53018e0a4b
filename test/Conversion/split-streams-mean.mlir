// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-split-reductions)' | FileCheck %s

// A stream led by a mean (a variance over D = 1003 in f64), split 4 ways:
// the partial program streams chunk s, [251 s, min(1003, 251 (s + 1))),
// and stores its mean and its sum of squares about that mean. The program
// combines them by Chan's rule, as two sums over the chunks: the means
// weighted by the chunks' counts min(251, max(0, D - 251 s)) (251, 251,
// 251, 250), over 1003; and each chunk's sum plus its repair's addend moving
// it from the chunk's mean to that one, count x (mean - m_s)^2.
// CHECK-LABEL: tile.program @var_V_partial
// CHECK: %[[PART:.*]]:2 = tile.online_reduce over(%{{.*}}) chunks(251 along 0) accumulators ["mean", "sum"] : vector<1x4xf64>
// CHECK: tile.store %[[PART]]#0, %arg3
// CHECK: tile.store %[[PART]]#1, %arg4
// CHECK-LABEL: tile.program @var_V
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[WEIGHTED:.*]] = tile.reduce sum over(%[[FOUR]]) : vector<4xf64> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index):
// CHECK-NEXT: %[[M:.*]] = tile.load %arg3[{{#map[0-9]*}}]
// CHECK-NEXT: %[[CSIZE:.*]] = arith.constant 251 : index
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[S]], %[[CSIZE]]
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %arg6, %[[START]]
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SOME:.*]] = arith.maxsi %[[LEFT]], %[[ZERO]]
// CHECK-NEXT: %[[COUNT:.*]] = arith.minsi %[[SOME]], %[[CSIZE]]
// CHECK-NEXT: %[[CV:.*]] = vector.broadcast %[[COUNT]] : index to vector<4xindex>
// CHECK-NEXT: %[[CI:.*]] = arith.index_cast %[[CV]]
// CHECK-NEXT: %[[N:.*]] = arith.sitofp %[[CI]]
// CHECK-NEXT: %[[NM:.*]] = arith.mulf %[[N]], %[[M]]
// CHECK-NEXT: tile.yield %[[NM]]
// CHECK: %[[TOTAL:.*]] = arith.constant dense<1.003000e+03> : vector<4xf64>
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %[[WEIGHTED]], %[[TOTAL]]
// CHECK-NEXT: %[[SUMS:.*]] = tile.reduce sum over(%[[FOUR]]) : vector<4xf64> {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[M2:.*]] = tile.load %arg3[{{#map[0-9]*}}]
// CHECK: %[[N2:.*]] = arith.sitofp
// CHECK-NEXT: %[[GAP:.*]] = arith.subf %[[MEAN]], %[[M2]]
// CHECK-NEXT: %[[NG:.*]] = arith.mulf %[[N2]], %[[GAP]]
// CHECK-NEXT: %[[ADDEND:.*]] = arith.mulf %[[NG]], %[[GAP]]
// CHECK-NEXT: %[[F:.*]] = tile.load %arg4[{{#map[0-9]*}}]
// CHECK-NEXT: %[[TERM:.*]] = arith.addf %[[F]], %[[ADDEND]]
// CHECK-NEXT: tile.yield %[[TERM]]
// CHECK: tile.store %[[MEAN]], %arg1
// CHECK-NEXT: arith.divf %[[SUMS]]
tile.program @var_V attributes {arg_names = ["X", "Mu", "V"], output_dims = ["T"], schedule = #tile.schedule<tile = [4], threads = 1, reduce_split = 4>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %mu: memref<?xf64>, %v: memref<?xf64>, %t: index, %d: index):
  %n = arith.constant dense<1.003000e+03> : vector<4xf64>
  %r:2 = tile.online_reduce over(%d) accumulators ["mean", "sum"] : vector<4xf64>, vector<4xf64> {
  ^bb0(%key: index, %mean: vector<4xf64>):
    %e = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %w = arith.extf %e : vector<4xf32> to vector<4xf64>
    %g = arith.subf %w, %mean : vector<4xf64>
    %sq = arith.mulf %g, %g : vector<4xf64>
    tile.yield %w, %sq : vector<4xf64>, vector<4xf64>
  } repairs {
  ^bb0(%old: vector<4xf64>, %new: vector<4xf64>, %count: vector<4xf64>):
    %moved = arith.subf %new, %old : vector<4xf64>
    %c = arith.mulf %count, %moved : vector<4xf64>
    %a = arith.mulf %c, %moved : vector<4xf64>
    tile.yield %a : vector<4xf64>
  }
  tile.store %r#0, %mu : vector<4xf64> -> memref<?xf64>
  %q = arith.divf %r#1, %n : vector<4xf64>
  tile.store %q, %v : vector<4xf64> -> memref<?xf64>
}
tile.plan @var {bindings = {D = 1003 : i64, T = 8 : i64}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T"], name = "Mu", role = "output", type = memref<?xf64>}, {dims = ["T"], name = "V", role = "output", type = memref<?xf64>}], programs = [@var_V], sizes = ["T", "D"]}
