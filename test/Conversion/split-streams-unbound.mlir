// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-split-reductions)' | FileCheck %s

// Split-KV over keys not bound at compile time (M unbound): the stream is
// split into the 4 parts the schedule asks for whatever M is, each chunk
// computed at launch, ceil(M / 4) rounded up to a multiple of 64 (the
// granule of a stream without tensor cores), parts past M streaming
// nothing (`chunks(64 along 0 in 4)`). The combination is the bound
// one's: a stream over the 4 partials.
// CHECK-LABEL: tile.program @attn_O_partial
// CHECK-SAME: output_dims = [4, "N", "D"]
// CHECK: tile.online_reduce over(%arg8) chunks(64 along 0 in 4) accumulators ["max", "sum", "sum"]
// CHECK-LABEL: tile.program @attn_O
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: tile.online_reduce over(%[[FOUR]]) accumulators ["max", "sum", "sum"]
// CHECK: tile.plan @attn
// CHECK-SAME: {dims = [4, "N", "D"], name = "attn_O.partial0", role = "workspace"
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
tile.plan @attn {bindings = {D = 16 : i64, N = 8 : i64}, buffers = [{dims = ["N", "M"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@attn_O], sizes = ["N", "D", "M"]}

// -----

// A mean-led stream over an unbound D, split 3 ways: the chunks' counts,
// min(C, max(0, D - s C)) with C computed at launch as the partial
// program's (emitStreamChunk: ceil(ceil(D / 3) / 64) x 64), weight the
// means; the total is D itself (at least 1), as a float (the program's own
// division of the sums, by 1003, is left as written).
// CHECK-LABEL: tile.program @var_V_partial
// CHECK: tile.online_reduce over(%{{.*}}) chunks(64 along 0 in 3) accumulators ["mean", "sum"]
// CHECK-LABEL: tile.program @var_V
// CHECK: tile.reduce sum over(%{{.*}}) : vector<4xf64> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index):
// CHECK-NEXT: tile.load %arg3
// CHECK-NEXT: %[[GRANULE:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[PARTS:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.ceildivui %arg6, %[[PARTS]]
// CHECK: %[[G:.*]] = arith.ceildivui %[[EVEN]], %[[GRANULE]]
// CHECK: %[[CHUNK:.*]] = arith.muli %{{.*}}, %[[GRANULE]]
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[S]], %[[CHUNK]]
// CHECK-NEXT: arith.subi %arg6, %[[START]]
// CHECK: %[[SOME:.*]] = arith.maxsi %arg6, %{{.*}} : index
// CHECK-NEXT: %[[TOTAL:.*]] = vector.broadcast %[[SOME]] : index to vector<4xindex>
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<4xf64>
tile.program @var_V attributes {arg_names = ["X", "Mu", "V"], output_dims = ["T"], schedule = #tile.schedule<tile = [4], threads = 1, reduce_split = 3>, sizes = ["T", "D"]} {
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
tile.plan @var {bindings = {T = 8 : i64}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T"], name = "Mu", role = "output", type = memref<?xf64>}, {dims = ["T"], name = "V", role = "output", type = memref<?xf64>}], programs = [@var_V], sizes = ["T", "D"]}

// -----

// A copy of a program for a range of sizes (launch_ranges: the
// auto-scheduler's copies, chosen at launch) split: its partial program
// launches where it does, and its workspaces are allocated only there
// (the plan's launch_ranges on them; the runtime's allocate_when).
// CHECK-LABEL: tile.program @attn_O_partial
// CHECK-SAME: launch_ranges = [#tile.size_range<size = "M", at_least = 2048>]
// CHECK: tile.plan @attn
// CHECK-SAME: {dims = [4, "N", "D"], launch_ranges = [#tile.size_range<size = "M", at_least = 2048>], name = "attn_O.partial0", role = "workspace"
tile.program @attn_O attributes {launch_ranges = [#tile.size_range<size = "M", at_least = 2048>], arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1, reduce_split = 4>, sizes = ["N", "D", "M"]} {
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
tile.plan @attn {bindings = {D = 16 : i64, N = 8 : i64}, buffers = [{dims = ["N", "M"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@attn_O], sizes = ["N", "D", "M"]}
