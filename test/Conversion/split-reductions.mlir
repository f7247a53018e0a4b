// RUN: nautc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},tile-split-reductions)' | FileCheck %s

// A row maximum over C = 10000 split 4 ways: chunks of 2500, 4 of them.
// The partial program folds each chunk (its reduction taking `chunks(2500
// along 1)`, the chunk index a new last output dimension, so the body's
// reduced index moves from d1 to d2) into a workspace [R, 4]; the program
// then folds a row's 4 partials, a thread of a group each (a group of a
// warp, 28 of its threads idle), and runs its epilogue (the exp) as before.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>
// CHECK-DAG: #[[PARTIALS:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
// CHECK-LABEL: tile.program @rows_M_partial
// CHECK-SAME: arg_names = ["X", "M", "rows_M.partial"], output_dims = ["R", 4]
// CHECK-SAME: schedule = #tile.schedule<tile = [1, 1], threads = 256, reduce_threads = 256>
// CHECK: %[[FOLD:.*]] = tile.reduce max over(%arg4) chunks(2500 along 1) : vector<1x1xf32> {
// CHECK: tile.load %arg0[#[[ROW]]] : memref<?x?xf32> -> vector<1x1xf32>
// CHECK: tile.store %[[FOLD]], %arg2 : vector<1x1xf32> -> memref<?x?xf32>
// CHECK-LABEL: tile.program @rows_M
// CHECK-SAME: schedule = #tile.schedule<tile = [1], threads = 32, reduce_threads = 32>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[MAX:.*]] = tile.reduce max over(%[[FOUR]]) : vector<1xf32> {
// CHECK: tile.load %arg2[#[[PARTIALS]]] : memref<?x?xf32> -> vector<1xf32>
// CHECK: math.exp %[[MAX]] : vector<1xf32>
// CHECK: tile.plan @rows
// CHECK-SAME: {dims = ["R", 4], name = "rows_M.partial", role = "workspace", type = memref<?x?xf32>}
// CHECK-SAME: programs = [@rows_M_partial, @rows_M]
tile.program @rows_M attributes {arg_names = ["X", "M"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 256, reduce_threads = 256, reduce_split = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %m: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce max over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  %e = math.exp %acc : vector<1xf32>
  tile.store %e, %m : vector<1xf32> -> memref<?xf32>
}
tile.plan @rows {bindings = {C = 10000 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "M", role = "output", type = memref<?xf32>}], programs = [@rows_M], sizes = ["R", "C"]}

// -----

// 10 elements asked to split 7 ways: chunks of ceil(10 / 7) = 2, and 5 of
// them (none empty), not 7.
// CHECK-LABEL: tile.program @uneven_S_partial
// CHECK-SAME: output_dims = ["R", 5]
// CHECK: tile.reduce sum over(%arg4) chunks(2 along 1)
tile.program @uneven_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 2, reduce_threads = 2, reduce_split = 7>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %acc, %s : vector<1xf32> -> memref<?xf32>
}
tile.plan @uneven {bindings = {C = 10 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}], programs = [@uneven_S], sizes = ["R", "C"]}

// -----

// One element: one chunk, so the schedule just drops reduce_split.
// CHECK-LABEL: tile.program @single_S
// CHECK-SAME: schedule = #tile.schedule<tile = [1], threads = 1>
// CHECK-NOT: chunks
// CHECK: tile.plan @single
// CHECK-SAME: programs = [@single_S]
tile.program @single_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %acc, %s : vector<1xf32> -> memref<?xf32>
}
tile.plan @single {bindings = {C = 1 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}], programs = [@single_S], sizes = ["R", "C"]}

// -----

// An unbound extent cannot be cut into chunks at compile time.
// expected-error @+1 {{cannot split the reduction 4 ways: the reduced extent must be bound at compile time (--shape)}}
tile.program @unbound_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %acc, %s : vector<1xf32> -> memref<?xf32>
}
tile.plan @unbound {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}], programs = [@unbound_S], sizes = ["R", "C"]}

// -----

// Partials past the 1 GiB a split's workspace may take: 1000 chunks of 8
// of C = 8000 for 2^20 f64 rows are 7.8 GiB; an output of 8 MiB fits 128.
// expected-error @+1 {{cannot split the reduction 1000 ways: its partial results would take a 7.8 GiB workspace (1000 x 1048576 elements of 8 bytes), more than the 1.0 GiB a split may take: split at most 128 ways}}
tile.program @huge_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 1000>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf64>, %s: memref<?xf64>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xf64> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf64> -> vector<1xf64>
    tile.yield %v : vector<1xf64>
  }
  tile.store %acc, %s : vector<1xf64> -> memref<?xf64>
}
tile.plan @huge {bindings = {C = 8000 : i64, R = 1048576 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf64>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf64>}], programs = [@huge_S], sizes = ["R", "C"]}

// -----

// Two reductions at the top level: which to split is not the schedule's
// to say.
// expected-error @+1 {{cannot split the reduction 2 ways: the program must have exactly one reduction at its top level}}
tile.program @two_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %a = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  %b = tile.reduce max over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  %t = arith.addf %a, %b : vector<1xf32>
  tile.store %t, %s : vector<1xf32> -> memref<?xf32>
}
tile.plan @two {bindings = {C = 100 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}], programs = [@two_S], sizes = ["R", "C"]}

// -----

// A tile loaded outside the reduction and used in it moves into the partial
// program with the reduction, its map taking the new dimension too.
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0)>
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>
// CHECK-LABEL: tile.program @shifted_S_partial
// CHECK: %[[SHIFTS:.*]] = tile.load %arg1[#[[SHIFT]]] : memref<?xf32> -> vector<1x1xf32>
// CHECK: tile.reduce sum over(%arg5) chunks(50 along 1) : vector<1x1xf32> {
// CHECK: %[[X:.*]] = tile.load %arg0[#[[ROWS]]]
// CHECK: arith.subf %[[X]], %[[SHIFTS]]
tile.program @shifted_S attributes {arg_names = ["X", "B", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %b: memref<?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %shift = tile.load %b[affine_map<(d0)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<1xf32>
  %acc = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    %d = arith.subf %v, %shift : vector<1xf32>
    tile.yield %d : vector<1xf32>
  }
  tile.store %acc, %s : vector<1xf32> -> memref<?xf32>
}
tile.plan @shifted {bindings = {C = 100 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "B", role = "input", type = memref<?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}], programs = [@shifted_S], sizes = ["R", "C"]}

// -----

// Partials of a type no buffer has (i16) cannot go to a workspace.
// expected-error @+1 {{cannot split the reduction 2 ways: its partial results (i16) would need a workspace of a type buffers do not have}}
tile.program @narrow_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 1, reduce_split = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xi16>, %s: memref<?xi16>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xi16> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xi16> -> vector<1xi16>
    tile.yield %v : vector<1xi16>
  }
  tile.store %acc, %s : vector<1xi16> -> memref<?xi16>
}
tile.plan @narrow {bindings = {C = 100 : i64, R = 3 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xi16>}, {dims = ["R"], name = "S", role = "output", type = memref<?xi16>}], programs = [@narrow_S], sizes = ["R", "C"]}
