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

// A constant of a computed operand stays in its region (the tile dialect's
// fold interface): the folder must not hoist it to the program, where the
// region could no longer compute the operand from what it holds alone.
// CHECK-LABEL: tile.program @computed_constant
// CHECK: tile.contract computed
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<128x64xf32>
// CHECK: arith.addf %{{.*}}, %[[ONE]]
// CHECK: tile.yield
tile.program @computed_constant attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<128x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x64xf32>
    %one = arith.constant dense<1.0> : vector<128x64xf32>
    %y = arith.addf %x, %one : vector<128x64xf32>
    %p = arith.truncf %y : vector<128x64xf32> to vector<128x64xbf16>
    tile.yield %p : vector<128x64xbf16>
  }
  tile.store %acc, %o : vector<128x64xf32> -> memref<?x?xf32>
}
