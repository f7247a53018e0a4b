// RUN: nautc-opt %s -canonicalize | FileCheck %s

// A conversion of a conversion converts the original; converting back to
// the same layout twice is one conversion.
// CHECK-LABEL: tile.program @chain
// CHECK: %[[V:.*]] = tile.load
// CHECK-NEXT: %[[W:.*]] = tile.convert_layout %[[V]] : vector<16x8xf32> to <[16, 8], register = {{\[\[}}0, 1], [0, 2]]
// CHECK-NEXT: tile.store %[[W]]
tile.program @chain attributes {arg_names = ["X", "Y"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [1, 1], stages = 2>>, sizes = ["M", "N"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %m: index, %n: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x8xf32>
  %a = tile.convert_layout %v : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>
  %b = tile.convert_layout %a : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0]], warp = []>
  %c = tile.convert_layout %b : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0]], warp = []>
  tile.store %c, %y : vector<16x8xf32> -> memref<?x?xf32>
}
