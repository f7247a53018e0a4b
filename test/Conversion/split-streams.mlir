// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-split-reductions)' | FileCheck %s

// Split-KV: attention's stream (Mx, O, L over M = 1000 keys) split 4 ways.
// The partial program, over [4, N, D] (the chunk index first, so D stays
// innermost), streams chunk s, [250 s, 250 (s + 1)), of the keys (its maps
// take the chunk index as a new first dimension) and stores the three
// accumulators to workspaces [4, N, D]. The program then streams over the 4
// chunks with the same accumulators and repairs: a chunk's maximum is the
// leader's term, its sums are repaired from its maximum to the running one
// (the repair region, inlined), and are 0 where its maximum is still -inf.
// CHECK-DAG: #[[SCORES:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>
// CHECK-DAG: #[[VALUES:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>
// CHECK-DAG: #[[CHUNK:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d0, d1)>
// CHECK-LABEL: tile.program @attn_O_partial
// CHECK-SAME: arg_names = ["S", "V", "O", "attn_O.partial0", "attn_O.partial1", "attn_O.partial2"], output_dims = [4, "N", "D"]
// CHECK-SAME: schedule = #tile.schedule<tile = [1, 8, 16], threads = 1>
// CHECK: %[[PART:.*]]:3 = tile.online_reduce over(%arg8) chunks(250 along 0) accumulators ["max", "sum", "sum"] : vector<1x8x16xf32>
// CHECK: tile.load %arg0[#[[SCORES]]]
// CHECK: tile.load %arg1[#[[VALUES]]]
// CHECK: tile.store %[[PART]]#0, %arg3
// CHECK: tile.store %[[PART]]#1, %arg4
// CHECK: tile.store %[[PART]]#2, %arg5
// CHECK-LABEL: tile.program @attn_O
// CHECK-SAME: schedule = #tile.schedule<tile = [8, 16], threads = 1>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[ALL:.*]]:3 = tile.online_reduce over(%[[FOUR]]) accumulators ["max", "sum", "sum"] : vector<8x16xf32>
// CHECK-NEXT: ^bb0(%{{.*}}: index, %[[RUNNING:.*]]: vector<8x16xf32>):
// CHECK: %[[MAX:.*]] = tile.load %arg3[#[[CHUNK]]]
// CHECK: %[[O:.*]] = tile.load %arg4[#[[CHUNK]]]
// CHECK: %[[L:.*]] = tile.load %arg5[#[[CHUNK]]]
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[MAX]], %{{.*}}
// CHECK: %[[GAP:.*]] = arith.subf %[[RUNNING]], %[[MAX]]
// CHECK: %[[PHI:.*]] = math.exp
// CHECK: %[[OSCALED:.*]] = arith.mulf %[[O]], %[[PHI]]
// CHECK: %[[OTERM:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[OSCALED]]
// CHECK: %[[LSCALED:.*]] = arith.mulf %[[L]], %[[PHI]]
// CHECK: %[[LTERM:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[LSCALED]]
// CHECK: tile.yield %[[MAX]], %[[OTERM]], %[[LTERM]]
// CHECK: } repairs {
// CHECK: arith.divf %[[ALL]]#1, %[[ALL]]#2
// CHECK: tile.plan @attn
// CHECK-SAME: {dims = [4, "N", "D"], name = "attn_O.partial0", role = "workspace", type = memref<?x?x?xf32>}
// CHECK-SAME: programs = [@attn_O_partial, @attn_O]
tile.program @attn_O attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1, reduce_split = 4>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %neg = arith.constant dense<-1.000000e+00> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %t = arith.subf %x, %mx : vector<8x16xf32>
    %p = math.exp %t : vector<8x16xf32>
    %y = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pv = arith.mulf %p, %y : vector<8x16xf32>
    tile.yield %x, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %neg : vector<8x16xf32>
    %f = math.exp %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}
tile.plan @attn {bindings = {D = 16 : i64, M = 1000 : i64, N = 8 : i64}, buffers = [{dims = ["N", "M"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@attn_O], sizes = ["N", "D", "M"]}
