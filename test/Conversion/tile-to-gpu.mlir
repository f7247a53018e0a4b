// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},convert-tile-to-gpu,canonicalize,cse)' | FileCheck %s

// 16x64 tile, 128 threads: 8 elements a thread, at positions t + 128 e, so
// consecutive threads hold consecutive columns. Each thread's sums over K
// fold blocks of 64 into fresh partials, added to its 8 totals with
// Kahan's compensation (8 more carried values).
// CHECK: module attributes {gpu.container_module, tile.target = #tile.target<name = "sm_80">}
// CHECK: gpu.module @nautilus_kernels
// CHECK: gpu.func @gemm_C(%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>, %{{.*}}: index, %[[K:.*]]: index, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-DAG: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[BLOCK:.*]] = %{{.*}} to %[[K]] step %c64 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: %[[STOP:.*]] = arith.minsi %{{.*}}, %[[K]] : index
// CHECK: scf.for %{{.*}} = %[[BLOCK]] to %[[STOP]] step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-8: scf.if %{{.*}} -> (f32)
// CHECK: memref.load %[[A]]
// CHECK: scf.yield
// CHECK-COUNT-8: memref.store %{{.*}}, %[[C]]
tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.reduce sum over(%k) : vector<16x64xf32> {
  ^bb0(%kk: index):
    %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %y = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<16x64xf32>
    %p = arith.mulf %x, %y : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  tile.store %acc, %c : vector<16x64xf32> -> memref<?x?xf32>
}

// A program that skips tiles (`tile.skip_if_negative`) reads the tile's
// entry, -1 past the table, and runs the tile only when it is not negative.
// CHECK-LABEL: gpu.func @skipping_Y
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

// reduce_threads = 64: the 128 threads are 2 groups of 64, each holding
// one element of the [2] tile. Thread r of a group takes iterations r,
// r + 64, ...; the group combines by 5 butterfly shuffles within each warp,
// then through shared memory across its 2 warps (4 slots: 2 groups x 2
// warps). The block still has 128 threads; the group's first thread stores.
// CHECK-LABEL: gpu.func @rowsum_S
// CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xf32>
// CHECK-SAME: workgroup(%[[PARTIALS:.*]] : memref<4xf32, 3>)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[LANE:.*]] = arith.remui %[[TID]], %c64
// CHECK-DAG: %[[GROUP:.*]] = arith.divui %[[TID]], %c64
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: %[[STORES:.*]] = arith.andi %{{.*}}, %[[FIRST]]
// Its main loop takes 4 of the thread's iterations a step, their loads
// without branches (the buffer is checked not to be empty, else the main
// loop has no steps), so that all 4 are in flight together; the rest, one
// at a time with guarded loads. The branch-free loads clamp the linear
// offset into the flattened buffer (the row's part of it stays invariant).
// CHECK: %[[MAIN:.*]] = scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %c256 iter_args(%{{.*}} = %cst) -> (f32) {
// CHECK-NOT: scf.if
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK-COUNT-4: memref.load %[[FLAT]]
// CHECK-NOT: scf.if
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64 iter_args(%{{.*}} = %[[MAIN]]) -> (f32)
// CHECK: scf.if
// CHECK: memref.load %[[X]]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.load %[[PARTIALS]]
// CHECK: scf.if %[[STORES]]
// CHECK-NEXT: memref.store
tile.program @rowsum_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [2], threads = 128, reduce_threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<2xf32> {
  ^bb0(%cc: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<2xf32>
    tile.yield %v : vector<2xf32>
  }
  tile.store %acc, %s : vector<2xf32> -> memref<?xf32>
}

// Groups within a warp (reduce_threads = 8) combine by shuffles alone; a
// 64-bit accumulator moves as two 32-bit words, a 16-bit one as an f32.
// CHECK-LABEL: gpu.func @rowmax_M
// CHECK-NOT: workgroup
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8 iter_args
// CHECK-COUNT-6: gpu.shuffle xor %{{.*}} : i32
// CHECK-NOT: gpu.barrier
// CHECK-LABEL: gpu.func @rowmax_H
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-COUNT-3: gpu.shuffle xor %{{.*}} : f32
tile.program @rowmax_M attributes {arg_names = ["X", "M"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 32, reduce_threads = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xi64>, %m: memref<?xi64>, %r: index, %c: index):
  %acc = tile.reduce max over(%c) : vector<4xi64> {
  ^bb0(%cc: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xi64> -> vector<4xi64>
    tile.yield %v : vector<4xi64>
  }
  tile.store %acc, %m : vector<4xi64> -> memref<?xi64>
}
tile.program @rowmax_H attributes {arg_names = ["X", "M"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 8, reduce_threads = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf16>, %m: memref<?xf16>, %r: index, %c: index):
  %acc = tile.reduce max over(%c) : vector<1xf16> {
  ^bb0(%cc: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf16> -> vector<1xf16>
    tile.yield %v : vector<1xf16>
  }
  tile.store %acc, %m : vector<1xf16> -> memref<?xf16>
}

// A split reduction (`chunks(2500 along 1)`): the program at index s along
// dimension 1 folds [2500 s, min(C, 2500 (s + 1))), its group's threads
// starting there, one apart.
// CHECK-LABEL: gpu.func @chunked_P
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: %[[S:.*]] = arith.remsi %[[BLOCK]], %c4
// CHECK: %[[FIRST:.*]] = arith.muli %[[S]], %c2500
// CHECK: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c2500
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %[[NEXT]]
// CHECK: %[[START:.*]] = arith.addi %[[FIRST]], %{{.*}}
// CHECK: scf.for %{{.*}} = %[[START]] to %{{.*}} step %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END]] step %c8
tile.program @chunked_P attributes {arg_names = ["X", "P"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [1, 1], threads = 8, reduce_threads = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %p: memref<?x?xf32>, %r: index, %c: index):
  %acc = tile.reduce max over(%c) chunks(2500 along 1) : vector<1x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<1x1xf32>
    tile.yield %v : vector<1x1xf32>
  }
  tile.store %acc, %p : vector<1x1xf32> -> memref<?x?xf32>
}

// Interleaved groups (a column sum): 256 threads, 8 groups of 32; thread t
// is thread t / 8 of group t % 8, so a warp holds 4 threads of each group,
// 8 lanes apart: 2 butterfly steps (xor 8, 16), then shared memory across
// the 8 warps (8 groups x 8 warps slots).
// CHECK-LABEL: gpu.func @columns_S
// CHECK-SAME: workgroup(%[[WARPS:.*]] : memref<64xf32, 3>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[LANE:.*]] = arith.divui %[[TID]], %c8
// CHECK-DAG: %[[GROUP:.*]] = arith.remui %[[TID]], %c8
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load %[[WARPS]]
tile.program @columns_S attributes {arg_names = ["X", "S"], output_dims = ["C"], schedule = #tile.schedule<tile = [8], threads = 256, reduce_threads = 32, reduce_groups = "interleaved">, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%r) : vector<8xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d1, d0)>] : memref<?x?xf32> -> vector<8xf32>
    tile.yield %v : vector<8xf32>
  }
  tile.store %acc, %s : vector<8xf32> -> memref<?xf32>
}

// vector = 8: thread t holds runs of 8 consecutive elements of a row
// (positions 8t .. 8t + 7, then 8(t + 8) ..), each read and written as one
// 16-byte vector where the run lies inside its buffer (else element by
// element, guarded), and the row's weight W read once a run.
// CHECK-LABEL: gpu.func @scale_Y
// CHECK-SAME: (%[[SX:[^:]*]]: memref<?x?xbf16>, %[[SW:[^:]*]]: memref<?xf32>, %[[SY:[^:]*]]: memref<?x?xbf16>
// CHECK: %[[STID:.*]] = gpu.thread_id x
// CHECK: arith.muli %[[STID]], %c8 : index
// CHECK: vector.load %[[SX]][%[[ROW0:.*]], %[[COL0:.*]]] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK-COUNT-8: memref.load %[[SX]]
// CHECK: memref.load %[[SW]][%[[ROW0]]] : memref<?xf32>
// CHECK-NOT: memref.load %[[SW]]
// CHECK: vector.store %{{.*}}, %[[SY]][%[[ROW0]], %[[COL0]]] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: vector.load %[[SX]][%[[ROW1:.*]], %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: memref.load %[[SW]][%[[ROW1]]] : memref<?xf32>
// CHECK-NOT: memref.load %[[SW]]
// CHECK: vector.store
// CHECK: gpu.return
tile.program @scale_Y attributes {arg_names = ["X", "W", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 32], threads = 8, vector = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?xf32>, %y: memref<?x?xbf16>, %r: index, %c: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<4x32xbf16>
  %vf = arith.extf %v : vector<4x32xbf16> to vector<4x32xf32>
  %g = tile.load %w[affine_map<(d0, d1)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<4x32xf32>
  %p = arith.mulf %vf, %g : vector<4x32xf32>
  %t = arith.truncf %p : vector<4x32xf32> to vector<4x32xbf16>
  tile.store %t, %y : vector<4x32xbf16> -> memref<?x?xbf16>
}

// reduce_threads with vector = 4: thread r of the group takes runs of 4
// consecutive iterations (4r .. 4r + 3, then 256 further on): a main-loop
// step is one run, read as one 16-byte load where it lies inside the row,
// aligned (else 4 branch-free clamped loads); the rest, run by run, one
// iteration at a time with guarded loads.
// CHECK-LABEL: gpu.func @rowsum_runs_S
// CHECK-SAME: (%[[RX:[^:]*]]: memref<?x?xf32>
// CHECK: %[[RTID:.*]] = gpu.thread_id x
// CHECK: %[[RLANE:.*]] = arith.remui %[[RTID]], %c64 : index
// CHECK: %[[RSTART:.*]] = arith.muli %[[RLANE]], %c4 : index
// CHECK: %[[RMAIN:.*]] = scf.for %{{.*}} = %[[RSTART]] to %{{.*}} step %c256 iter_args(%{{.*}} = %cst) -> (f32) {
// CHECK: vector.load %[[RX]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.load %{{.*}} : memref<?xf32>
// CHECK: scf.for %[[RBLOCK:.*]] = %{{.*}} to %{{.*}} step %c256 iter_args(%{{.*}} = %[[RMAIN]]) -> (f32) {
// CHECK: %[[RUNEND:.*]] = arith.minsi
// CHECK: scf.for %{{.*}} = %[[RBLOCK]] to %[[RUNEND]] step %c1
// CHECK: memref.load %[[RX]]
// CHECK-COUNT-5: gpu.shuffle xor
tile.program @rowsum_runs_S attributes {arg_names = ["X", "S"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 64, reduce_threads = 64, vector = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %s: memref<?xf32>, %r: index, %c: index):
  %acc = tile.reduce sum over(%c) : vector<1xf32> {
  ^bb0(%cc: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %acc, %s : vector<1xf32> -> memref<?xf32>
}
