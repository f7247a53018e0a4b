// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(tile-assign-layouts)' | FileCheck %s

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
// same, in two blocks of 64 columns (4 consecutive f32 a thread, 16 lanes
// a block's row, the block the top register bit), which its lowering
// moves one after the other.
// CHECK-LABEL: tile.program @wide
// CHECK: tile.convert_layout %{{.*}} : vector<128x128xf32> to <[128, 128], register = {{\[\[}}0, 1], [0, 2], [16, 0], [32, 0], [64, 0], [0, 64]], lane = {{\[\[}}0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = {{\[\[}}2, 0], [4, 0], [8, 0]]>
tile.program @wide attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// The mma.sync pipeline's stages are in dynamic shared memory too: the
// bf16 move takes 33 KiB of static shared memory beside them, as with
// wgmma (the accumulator layout would store 4 bytes a thread, half
// sectors).
// CHECK-LABEL: tile.program @mma_sync
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} : vector<128x128xbf16> to <[128, 128], register = {{\[\[}}0, 1], [0, 2], [0, 4], [16, 0], [32, 0], [64, 0]], lane = {{\[\[}}0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], warp = {{\[\[}}2, 0], [4, 0], [8, 0]]>
// CHECK: tile.store %[[C]]
tile.program @mma_sync attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  tile.store %t, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}

// -----

// A residual added in f32: the conversion the store wants moves to the
// accumulators, and R is read in the coalesced layout (16 bytes a thread)
// rather than moved.
// CHECK-LABEL: tile.program @residual
// CHECK: %[[ACC:.*]] = tile.contract
// CHECK: %[[R:.*]] = tile.load %{{.*}} {layout = #tile.linear<[128, 128], register = {{\[\[}}0, 1], [0, 2], [16, 0], [32, 0], [64, 0], [0, 64]], lane = {{\[\[}}0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = {{\[\[}}2, 0], [4, 0], [8, 0]]>}
// CHECK: %[[C:.*]] = tile.convert_layout %[[ACC]] : vector<128x128xf32> to <[128, 128], register = {{\[\[}}0, 1], [0, 2], [16, 0]
// CHECK: %[[SUM:.*]] = arith.addf %[[C]], %[[R]]
// CHECK: tile.store %[[SUM]]
tile.program @residual attributes {arg_names = ["A", "B", "R", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %r: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  %res = tile.load %r[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xf32> -> vector<128x128xf32>
  %sum = arith.addf %acc, %res : vector<128x128xf32>
  tile.store %sum, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// The same in bf16: moving the conversion before the rounding would move
// f32, so it stays after it; R is still read in the stored layout.
// CHECK-LABEL: tile.program @rounded
// CHECK: %[[ACC:.*]] = tile.contract
// CHECK: %[[T:.*]] = arith.truncf %[[ACC]]
// CHECK: %[[R:.*]] = tile.load %{{.*}} {layout = #tile.linear<[128, 128], register = {{\[\[}}0, 1], [0, 2], [0, 4], [16, 0]
// CHECK: %[[C:.*]] = tile.convert_layout %[[T]] : vector<128x128xbf16>
// CHECK: %[[SUM:.*]] = arith.addf %[[C]], %[[R]]
// CHECK: tile.store %[[SUM]]
tile.program @rounded attributes {arg_names = ["A", "B", "R", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %r: memref<?x?xbf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  %res = tile.load %r[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xbf16> -> vector<128x128xbf16>
  %sum = arith.addf %t, %res : vector<128x128xbf16>
  tile.store %sum, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}

// -----

// A conversion of what loads and index tiles compute vanishes: they are
// produced in the target layout. X has another user in the schedule's
// layout, so a copy of its load (next to it) takes the target layout; a
// conversion of a splat constant goes.
// CHECK-LABEL: tile.program @recomputed
// CHECK: %[[X:.*]] = tile.load %arg0{{.*}} : memref<?xf32> -> vector<16x64xf32>
// CHECK: %[[XL:.*]] = tile.load %arg0{{.*}} {layout = #tile.linear<[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: %[[Y:.*]] = tile.load %arg1{{.*}} {layout = #tile.linear<[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: %[[I:.*]] = tile.index 1 {layout = #tile.linear<[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: tile.store %[[I]]
// CHECK: %[[SUM:.*]] = arith.addf %[[XL]], %[[Y]]
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[SUM]]
// CHECK: arith.mulf %[[X]], %[[X]]
tile.program @recomputed attributes {arg_names = ["X", "Y", "C", "D", "E"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "N"]} {
^bb0(%x: memref<?xf32>, %y: memref<?x?xf32>, %c: memref<?x?xf32>, %d: memref<?x?xf32>, %e: memref<?x?xindex>, %m: index, %n: index):
  %lx = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d1)>] : memref<?xf32> -> vector<16x64xf32>
  %ly = tile.load %y[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x64xf32>
  %i = tile.index 1 : vector<16x64xindex>
  %ci = tile.convert_layout %i : vector<16x64xindex> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  tile.store %ci, %e : vector<16x64xindex> -> memref<?x?xindex>
  %sum = arith.addf %lx, %ly : vector<16x64xf32>
  %csum = tile.convert_layout %sum : vector<16x64xf32> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  tile.store %csum, %c : vector<16x64xf32> -> memref<?x?xf32>
  %sq = arith.mulf %lx, %lx : vector<16x64xf32>
  %b = arith.constant dense<2.0> : vector<16x64xf32>
  %cb = tile.convert_layout %b : vector<16x64xf32> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  %scaled = arith.mulf %sq, %cb : vector<16x64xf32>
  tile.store %scaled, %d : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// A conversion to the layout the tile already has (the schedule's
// row-major blocked layout) goes; an element-wise op with operands in two
// layouts gets the second converted to the first's.
// CHECK-LABEL: tile.program @unified
// CHECK: %[[R:.*]] = tile.reduce
// CHECK-NEXT: ^bb0
// CHECK: %[[C:.*]] = tile.convert_layout %[[R]] : vector<16x64xf32> to <[16, 64], register = {{\[\[}}1, 0]
// CHECK: %[[R2:.*]] = tile.convert_layout %[[R]] : vector<16x64xf32> to <[16, 64], register = {{\[\[}}1, 0]
// CHECK: %[[SUM:.*]] = arith.addf %[[C]], %[[R2]]
// CHECK: tile.store %[[SUM]], %arg1
// CHECK: tile.store %[[R]], %arg2
tile.program @unified attributes {arg_names = ["X", "C", "D"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?x?xf32>, %c: memref<?x?xf32>, %d: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %r = tile.reduce sum over(%k) : vector<16x64xf32> {
  ^bb0(%kk: index):
    %l = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d1, d2)>] : memref<?x?x?xf32> -> vector<16x64xf32>
    tile.yield %l : vector<16x64xf32>
  }
  %c1 = tile.convert_layout %r : vector<16x64xf32> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  %sum = arith.addf %c1, %r : vector<16x64xf32>
  tile.store %sum, %c : vector<16x64xf32> -> memref<?x?xf32>
  %same = tile.convert_layout %r : vector<16x64xf32> to <[16, 64], register = [[2, 0], [4, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [1, 0]]>
  tile.store %same, %d : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// A conversion of a conversion converts the original; a residual widened
// from bf16 (an element-wise op of a load) is produced in the target
// layout, its load and extension copied for the other user; a tile used
// twice by one op is produced in the target layout for both operands.
// CHECK-LABEL: tile.program @chains
// CHECK: %[[R:.*]] = tile.reduce
// CHECK: %[[W:.*]] = tile.load %arg1{{.*}} : memref<?x?xbf16> -> vector<16x64xbf16>
// CHECK: %[[WL:.*]] = tile.load %arg1{{.*}} {layout = #tile.linear<[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: %[[E:.*]] = arith.extf %[[W]]
// CHECK: %[[EL:.*]] = arith.extf %[[WL]]
// CHECK: %[[C:.*]] = tile.convert_layout %[[R]] : vector<16x64xf32> to <[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: %[[SUM:.*]] = arith.addf %[[C]], %[[EL]]
// CHECK: tile.store %[[SUM]], %arg2
// CHECK: tile.store %[[E]], %arg3
// CHECK: %[[Y:.*]] = tile.load %arg1{{.*}} {layout = #tile.linear<[16, 64], register = {{\[\[}}1, 0], [2, 0], [4, 0]]
// CHECK: %[[YE:.*]] = arith.extf %[[Y]]
// CHECK: %[[SQ:.*]] = arith.mulf %[[YE]], %[[YE]]
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[SQ]], %arg4
tile.program @chains attributes {arg_names = ["X", "W", "C", "D", "E"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?x?xf32>, %w: memref<?x?xbf16>, %c: memref<?x?xf32>, %d: memref<?x?xf32>, %e: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %r = tile.reduce sum over(%k) : vector<16x64xf32> {
  ^bb0(%kk: index):
    %l = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d1, d2)>] : memref<?x?x?xf32> -> vector<16x64xf32>
    tile.yield %l : vector<16x64xf32>
  }
  %lw = tile.load %w[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
  %ew = arith.extf %lw : vector<16x64xbf16> to vector<16x64xf32>
  %sum = arith.addf %r, %ew : vector<16x64xf32>
  %c1 = tile.convert_layout %sum : vector<16x64xf32> to <[16, 64], register = [[0, 1], [0, 2], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], warp = [[0, 16], [0, 32]]>
  %c2 = tile.convert_layout %c1 : vector<16x64xf32> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  tile.store %c2, %c : vector<16x64xf32> -> memref<?x?xf32>
  tile.store %ew, %d : vector<16x64xf32> -> memref<?x?xf32>
  %y = tile.load %w[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
  %ye = arith.extf %y : vector<16x64xbf16> to vector<16x64xf32>
  %sq = arith.mulf %ye, %ye : vector<16x64xf32>
  %csq = tile.convert_layout %sq : vector<16x64xf32> to <[16, 64], register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [8, 0]]>
  tile.store %csq, %e : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// An f32 128 x 128 tile of mma.sync with warps along N: its move would go
// in two bands of rows, every write repeated under a predicate, and the
// accumulator layout's 8-byte stores already fill whole sectors: it is
// stored as it is.
// CHECK-LABEL: tile.program @mma_sync_f32
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store
tile.program @mma_sync_f32 attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}
