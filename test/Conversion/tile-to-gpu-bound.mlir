// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},convert-tile-to-gpu,canonicalize,cse)' | FileCheck %s

// Sizes the plan binds become constants in the kernel, a buffer whose
// dimensions are bound is read through a static view of it (its shape and
// row-major strides), and the grid (a block a tile: 4 x 2 here) is known,
// so that LLVM folds the grid, the strides, and the bounds and alignment
// checks (the rows of 128 are whole 16-byte vectors and the 16 x 64 tiles
// divide the output, so the element-by-element fallback left here goes:
// vector-runs-emu.test checks the PTX). The size arguments stay in the
// signature (the launch passes them).
// CHECK-LABEL: gpu.func @scale_Y
// CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xbf16>, %[[W:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?x?xbf16>, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 8, 1, 1>
// CHECK-DAG: %[[XS:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [64, 128], strides: [128, 1] : memref<?x?xbf16> to memref<64x128xbf16, strided<[128, 1]>>
// CHECK-DAG: %[[WS:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [64], strides: [1] : memref<?xf32> to memref<64xf32, strided<[1]>>
// CHECK-DAG: %[[YS:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [64, 128], strides: [128, 1] : memref<?x?xbf16> to memref<64x128xbf16, strided<[128, 1]>>
// CHECK-NOT: memref.dim
// CHECK: vector.load %[[XS]]
// CHECK: memref.load %[[WS]]
// CHECK: vector.store %{{.*}}, %[[YS]]
// CHECK: gpu.return

// Unbound sizes: the buffers as they come, no known grid.
// CHECK-LABEL: gpu.func @scale_free_Y
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>} {
// CHECK-NOT: reinterpret_cast
// CHECK: memref.dim
// CHECK: gpu.return
tile.program @scale_Y attributes {arg_names = ["X", "W", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?xf32>, %y: memref<?x?xbf16>, %r: index, %c: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
  %vf = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
  %g = tile.load %w[affine_map<(d0, d1)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<16x64xf32>
  %p = arith.mulf %vf, %g : vector<16x64xf32>
  %t = arith.truncf %p : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %t, %y : vector<16x64xbf16> -> memref<?x?xbf16>
}
tile.plan @scale {bindings = {C = 128 : i64, R = 64 : i64}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["R"], name = "W", role = "input", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xbf16>}], programs = [@scale_Y], sizes = ["R", "C"]}

tile.program @scale_free_Y attributes {arg_names = ["X", "W", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?xf32>, %y: memref<?x?xbf16>, %r: index, %c: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
  tile.store %v, %y : vector<16x64xbf16> -> memref<?x?xbf16>
}
tile.plan @scale_free {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["R"], name = "W", role = "input", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xbf16>}], programs = [@scale_free_Y], sizes = ["R", "C"]}
