// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-gpu,canonicalize,cse)' | FileCheck %s

// 16x64 tile, 128 threads: 8 elements a thread, at positions t + 128 e, so
// consecutive threads hold consecutive columns.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @nautilus_kernels
// CHECK: gpu.func @gemm_C(%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>, %{{.*}}: index, %[[K:.*]]: index, %{{.*}}: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-DAG: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]] {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
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
