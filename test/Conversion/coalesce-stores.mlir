// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(tile-coalesce-stores)' | FileCheck %s

// A bf16 tile of a wgmma program: its store goes through a layout in which
// each thread holds 8 consecutive bf16 (16 bytes) of a row and 16 lanes
// cover a 128-element row (the move takes 33 KiB of the 48 KiB of static
// shared memory).
// CHECK-LABEL: tile.program @narrow
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} : vector<128x128xbf16> to <[128, 128], register = {{\[\[}}0, 1], [0, 2], [0, 4], [16, 0], [32, 0], [64, 0]], lane = {{\[\[}}0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], warp = {{\[\[}}2, 0], [4, 0], [8, 0]]>
// CHECK: tile.store %[[C]]
tile.program @narrow attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  tile.store %t, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}

// -----

// An f32 tile of 128 x 128 needs 66 KiB to move: it is converted all the
// same (4 consecutive f32 a thread, a warp a row), and its lowering moves
// it in two bands of 64 rows.
// CHECK-LABEL: tile.program @wide
// CHECK: tile.convert_layout %{{.*}} : vector<128x128xf32> to <[128, 128], register = {{\[\[}}0, 1], [0, 2], [8, 0], [16, 0], [32, 0], [64, 0]], lane = {{\[\[}}0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = {{\[\[}}1, 0], [2, 0], [4, 0]]>
tile.program @wide attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// The mma.sync pipeline already takes the 48 KiB: nothing is added.
// CHECK-LABEL: tile.program @full
// CHECK-NOT: tile.convert_layout
tile.program @full attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  tile.store %t, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}
