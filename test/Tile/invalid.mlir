// RUN: nautc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a tile of 24 elements does not divide among 16 threads}}
tile.program @p attributes {arg_names = [], output_dims = [], schedule = #tile.schedule<tile = [24], threads = 16>, sizes = []} {
^bb0:
}

// -----

// expected-error @+1 {{'tile.program' op the schedule tiles 1 dimensions but the output has 2}}
tile.program @p attributes {arg_names = [], output_dims = ["N", "N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.index' op expects the program's tile shape [16], found 'vector<8xindex>'}}
  %i = tile.index 0 : vector<8xindex>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.load' op map has 2 dims but 1 indices (output and reduced) are in scope}}
  %v = tile.load %x[affine_map<(d0, d1)[s0] -> (d0)>] : memref<?xf32> -> vector<16xf32>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.load' op loads 'f32' elements into a tile of 'f16'}}
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<16xf16>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.reduce' op the body must yield a tile of the result type}}
  %s = tile.reduce sum over(%n) : vector<16xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0] -> (d1)>] : memref<?xf32> -> vector<16xf32>
    %h = arith.truncf %v : vector<16xf32> to vector<16xf16>
    tile.yield %h : vector<16xf16>
  }
}

// -----

// expected-error @+1 {{'tile.program' op output dim 'M' is not one of its sizes}}
tile.program @p attributes {arg_names = [], output_dims = ["M"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{a tensor-core schedule with 8 warps has 256 threads, not 128}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{the 96 x 128 tile does not split into 16 x 8 instruction tiles over 2 x 4 warps}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [96, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{tile_k must be a positive multiple of 16}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 24, warps = [2, 2], stages = 3>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{unknown tensor-core instruction 'wmma' (mma_sync or wgmma)}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "wmma", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op contracts f16 or bf16 operands of one type, not 'f32' and 'f32'}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf32>, memref<?x?xf32> -> vector<64x64xf32>
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op maps take 3 dims (the output dimensions and the reduced index), not 2}}
  %acc = tile.contract %a[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>], %b[affine_map<(d0, d1)[s0, s1, s2] -> (d1, d0)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<64x64xf32>
}

// -----

// expected-error @+1 {{producers: 0, or 1 producer warpgroup with wgmma}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3, producers = 1>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{ping_pong: 0, or 1 with wgmma, a producer warpgroup and two consumer warpgroups (warps = [8, 1])}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 2, producers = 1, ping_pong = 1>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{overlap_softmax: 0, or 1 with wgmma and a producer warpgroup (producers = 1)}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 2, ping_pong = 0, overlap_softmax = 1>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{overlap_softmax needs 3 or more stages: a block's stage is released a step later (after its P V), so with 2 the producer cannot copy a block ahead}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 2, producers = 1, overlap_softmax = 1>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{group_m must be at least 1}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3, group_m = 0>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{persistent: 0, or 1 with a producer warpgroup}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 3, persistent = 1>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [1, 1], stages = 2>>, sizes = ["M", "N"]} {
^bb0(%x: memref<?x?xf32>, %m: index, %n: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x8xf32>
  // expected-error @+1 {{the layout does not place every element of the tile exactly once}}
  %w = tile.convert_layout %v : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [0, 0]], warp = []>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [1, 1], stages = 2>>, sizes = ["M", "N"]} {
^bb0(%x: memref<?x?xf32>, %m: index, %n: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x8xf32>
  // expected-error @+1 {{basis coordinate 16 lies outside the tile}}
  %w = tile.convert_layout %v : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [16, 0]], warp = []>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [1, 1], stages = 2>>, sizes = ["M", "N"]} {
^bb0(%x: memref<?x?xf32>, %m: index, %n: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x8xf32>
  // expected-error @+1 {{'tile.convert_layout' op layout over 64 threads in a program of 32}}
  %w = tile.convert_layout %v : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8, 0]]>
}

// -----

tile.program @p attributes {arg_names = ["S", "V"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  // expected-error @+1 {{'tile.contract' op the computed lhs must yield a tile of type 'vector<64x64xbf16>'}}
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    %p = arith.truncf %x : vector<64x64xf32> to vector<64x64xf16>
    tile.yield %p : vector<64x64xf16>
  }
}

// -----

tile.program @p attributes {arg_names = ["S", "V"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    // expected-error @+1 {{'tile.load' op varies along output dimension 1, which the contraction's lhs cannot read}}
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d1, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    %p = arith.truncf %x : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
}

// -----

tile.program @p attributes {arg_names = ["S", "V"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  %outside = tile.load %s[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xf32> -> vector<64x64xf32>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    // expected-error @+1 {{'arith.addf' op uses a tile defined outside the computed lhs (the region must compute it from loads)}}
    %y = arith.addf %x, %outside : vector<64x64xf32>
    %p = arith.truncf %y : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
}

// -----

// An index tile from outside (CSE moves a region's copy there) may be used,
// but not along the other operand's dimension.
tile.program @p attributes {arg_names = ["S", "V"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  %column = tile.index 1 : vector<64x64xindex>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    // expected-error @+1 {{'arith.index_cast' op varies along output dimension 1, which the contraction's lhs cannot read}}
    %i = arith.index_cast %column : vector<64x64xindex> to vector<64x64xi32>
    %f = arith.sitofp %i : vector<64x64xi32> to vector<64x64xbf16>
    tile.yield %f : vector<64x64xbf16>
  }
}

// -----

tile.program @p attributes {arg_names = ["S", "V"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    // expected-error @+1 {{'tile.reduce' op cannot compute a contraction operand (only loads, indices and element-wise ops can)}}
    %x = tile.reduce sum over(%n) : vector<64x64xf32> {
    ^bb0(%j: index):
      %l = tile.load %s[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d3)>] : memref<?x?xf32> -> vector<64x64xf32>
      tile.yield %l : vector<64x64xf32>
    }
    %p = arith.truncf %x : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
}

// -----

// expected-error @+1 {{swizzle is 0, 32, 64 or 128 bytes, not 48}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3, swizzle = 48>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// A contraction's tile_k on wgmma is one swizzle span (a flash kernel's,
// its key block, may be 64 or 128).
// expected-error @+1 {{wgmma stages K-major rows of one swizzle span: tile_k = swizzle / 2 = 32 (16-bit elements), not 64}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 3, swizzle = 64>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{wgmma's operands come by TMA into swizzled stages: swizzle is 32, 64 or 128}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 3, swizzle = 0>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// A read of the other operand's dimension is allowed only where it is the
// same over the tile: `d0 floordiv 32` is not, over 64 rows.
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], computed over(%k) : memref<?x?xbf16> -> vector<64x64xf32> rhs {
  ^bb0(%kk: index):
    // expected-error @+1 {{'tile.load' op varies along output dimension 0, which the contraction's rhs cannot read}}
    %e = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 32)>] : memref<?xi32> -> vector<64x64xi32>
    %ei = arith.index_cast %e : vector<64x64xi32> to vector<64x64xindex>
    %v = tile.load %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] indirect(%ei) at [0] : memref<?x?x?xbf16>, vector<64x64xindex> -> vector<64x64xbf16>
    tile.yield %v : vector<64x64xbf16>
  }
}

// -----

tile.program @p attributes {arg_names = ["ids", "order", "slot", "blocks", "starts"], output_dims = [256], schedule = #tile.schedule<tile = [256], threads = 256>, sizes = ["E"]} {
^bb0(%ids: memref<?x?xi32>, %order: memref<?xi32>, %slot: memref<?xi32>, %blocks: memref<?xi32>, %starts: memref<?xi32>, %e: index):
  // expected-error @+1 {{'tile.route' op the slot of each row has the shape of ids: rank 2, not 1}}
  tile.route %ids experts(%e) block 128 -> order %order, slot %slot, block_experts %blocks, starts %starts : memref<?x?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
}

// -----

tile.program @p attributes {arg_names = ["ids", "order", "slot", "blocks", "starts"], output_dims = ["T"], schedule = #tile.schedule<tile = [256], threads = 256>, sizes = ["T", "E"]} {
^bb0(%ids: memref<?xi32>, %order: memref<?xi32>, %slot: memref<?xi32>, %blocks: memref<?xi32>, %starts: memref<?xi32>, %t: index, %e: index):
  // expected-error @+1 {{'tile.route' op runs in a program whose output is one tile (output dimensions [n], tile [n])}}
  tile.route %ids experts(%e) block 128 -> order %order, slot %slot, block_experts %blocks, starts %starts : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
}

// -----

// An offset table's entry is the same over the whole tile: not along K,
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  // expected-error @+1 {{'tile.contract' op the rhs's offset reads the reduced index; it must be the same for the whole tile}}
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d2, d1)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
}

// -----

// nor along M within a tile (`d0 floordiv 32` over 64 rows).
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  // expected-error @+1 {{'tile.contract' op the rhs's offset varies along output dimension 0 within a tile; it must be the same for the whole tile}}
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d2, d1)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 32)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
}

// -----

// The table holds i32 entries.
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi64>, %m: index, %n: index, %k: index):
  // expected-error @+1 {{'tile.contract' op the rhs's offset table holds i32, not 'i64'}}
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d2, d1)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 64)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi64> -> vector<64x64xf32>
}

// -----

// The offset goes to an index of the buffer.
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  // expected-error @+1 {{'tile.contract' op adds the rhs's offset to index 3 of a rank-3 buffer (it must be an index before the innermost)}}
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d2, d1)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 64)>] at 3) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
}

// -----

// The offset goes to a batch index, not to one that reads N (d1).
tile.program @p attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  // expected-error @+1 {{'tile.contract' op adds the rhs's offset to index 1, which reads M, N or K; it must be a batch index}}
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d1, d2)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 64)>] at 1) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
}

// -----

// A skipped tile skips all of it: the entry may not vary over the tile.
tile.program @p attributes {arg_names = ["blocks", "Y"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128>, sizes = ["R", "N"]} {
^bb0(%blocks: memref<?xi32>, %y: memref<?x?xf32>, %r: index, %n: index):
  // expected-error @+1 {{'tile.skip_if_negative' op reads an entry that varies over a tile along output dimension 0 (tile extent 64); it must be the same for the whole tile}}
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 32)>] : memref<?xi32>
}

// -----

// Its map takes the program's output indices and sizes.
tile.program @p attributes {arg_names = ["blocks", "Y"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128>, sizes = ["R", "N"]} {
^bb0(%blocks: memref<?xi32>, %y: memref<?x?xf32>, %r: index, %n: index):
  // expected-error @+1 {{'tile.skip_if_negative' op reads its rank-1 table at a map of the 2 output indices and 2 sizes of its program, not at affine_map<(d0, d1, d2)[s0, s1] -> (d0 floordiv 128)>}}
  tile.skip_if_negative %blocks[affine_map<(d0, d1, d2)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32>
}

// -----

// Nothing with side effects may come before it.
tile.program @p attributes {arg_names = ["blocks", "Y"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128>, sizes = ["R", "N"]} {
^bb0(%blocks: memref<?xi32>, %y: memref<?x?xf32>, %r: index, %n: index):
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  tile.store %zero, %y : vector<64x64xf32> -> memref<?x?xf32>
  // expected-error @+1 {{'tile.skip_if_negative' op must come before every op with side effects of its program, and be its only one (a skipped tile does nothing)}}
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?x?xf32>, %m: index, %n: index, %k: index):
  %r = tile.reduce sum over(%k) : vector<16x8xf32> {
  ^bb0(%kk: index):
    // expected-error @+1 {{'tile.load' op has a layout but is not in a program's body (a reduction's tiles are in the schedule's layout)}}
    %l = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d1, d2)>] {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<?x?x?xf32> -> vector<16x8xf32>
    tile.yield %l : vector<16x8xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X", "I"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32>, sizes = ["M", "N"]} {
^bb0(%x: memref<?x?xf32>, %ids: memref<?xindex>, %m: index, %n: index):
  %i = tile.index 0 : vector<16x8xindex>
  // expected-error @+1 {{'tile.load' op has a layout and gathered indices (the indices' tiles are in the schedule's layout)}}
  %l = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d1)>] indirect(%i) at [0] {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<?x?xf32>, vector<16x8xindex> -> vector<16x8xf32>
}

// -----

tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 64>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
  // expected-error @+1 {{'tile.index' op layout over 32 threads in a program of 64}}
  %i = tile.index 1 {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : vector<16x8xindex>
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op the lhs reads output dimension 0, along which the contraction is split}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) chunks(256 along 0) : memref<?x?x?xf16>, memref<?x?xf16> -> vector<1x64x64xf32>
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op is split along output dimension 0, which is not a batch dimension}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) chunks(256 along 0) : memref<?x?xf16>, memref<?x?xf16> -> vector<64x64xf32>
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op splits K into chunks of 0; they must be positive}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) chunks(0 along 0) : memref<?x?xf16>, memref<?x?xf16> -> vector<1x64x64xf32>
}

// -----

// expected-error @+1 {{split_k must be at least 1}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3, split_k = 0>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op a split contraction needs both split_dim and split_chunk}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) {split_dim = 0 : i64} : memref<?x?xf16>, memref<?x?xf16> -> vector<1x64x64xf32>
}

// -----

tile.program @p attributes {arg_names = ["A", "B"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [2, 64, 64], threads = 128>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op is split along output dimension 0, which its tile must take one at a time}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) chunks(256 along 0) : memref<?x?xf16>, memref<?x?xf16> -> vector<2x64x64xf32>
}

// -----

tile.program @p attributes {arg_names = ["S", "V"], output_dims = [2, "N", "D"], schedule = #tile.schedule<tile = [1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %n: index, %m: index, %d: index):
  // expected-error @+1 {{'tile.contract' op the computed lhs reads output dimension 0, along which the contraction is split}}
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%m) chunks(256 along 0) : memref<?x?xbf16> -> vector<1x64x64xf32> lhs {
  ^bb0(%mm: index):
    %x = tile.load %s[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d3)>] : memref<?x?xf32> -> vector<1x64x64xf32>
    %p = arith.truncf %x : vector<1x64x64xf32> to vector<1x64x64xbf16>
    tile.yield %p : vector<1x64x64xbf16>
  }
}

// -----

// expected-error @+1 {{reduce_threads must be a power of two that divides threads (128), not 48}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 128, reduce_threads = 48>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{reduce_threads must be a power of two that divides threads (32), not 64}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 32, reduce_threads = 64>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{a tile of 2 elements does not divide among 4 groups of threads}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [2], threads = 128, reduce_threads = 32>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{reduce_threads is for programs on the CUDA cores; a tensor-core schedule (mma) has none}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>, reduce_threads = 2>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{expected 'mma', 'vector', 'reduce_threads', 'reduce_split', 'reduce_groups', 'pack' or 'reduce_block', not 'reduce'}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 32, reduce = 2>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// A flash kernel's tile may hold several heads on mma_sync (their rows
// stacked): not a contraction's.
// expected-error @+1 {{tiles dimension 0 by 4 on tensor cores: only a flash kernel (a stream) folds the dimension before its rows into them (tile it by 1)}}
tile.program @p attributes {arg_names = [], output_dims = ["H", "N", "D"], schedule = #tile.schedule<tile = [4, 4, 64], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [1, 1], stages = 2>>, sizes = ["H", "N", "D"]} {
^bb0(%h: index, %n: index, %d: index):
}

// -----

// expected-error @+1 {{a tensor-core schedule tiles batch dimensions by 1 (on mma_sync, the dimension before the rows may take a power of two: a flash kernel's heads)}}
tile.program @p attributes {arg_names = [], output_dims = ["H", "N", "D"], schedule = #tile.schedule<tile = [2, 32, 64], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 2>>, sizes = ["H", "N", "D"]} {
^bb0(%h: index, %n: index, %d: index):
}

// -----

// expected-error @+1 {{reduce_split is for programs on the CUDA cores and flash kernels (streams); a tensor-core schedule splits K with split_k}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>, reduce_split = 2>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{reduce_split must be at least 1, not 0}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 32, reduce_split = 0>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [2, 1], threads = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.reduce' op is split along output dimension 0, which its tile must take one at a time}}
  %s = tile.reduce sum over(%c) chunks(64 along 0) : vector<2x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<2x1xf32>
    tile.yield %v : vector<2x1xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [2, 1], threads = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.reduce' op is split along output dimension 2 of a rank-2 tile}}
  %s = tile.reduce sum over(%c) chunks(64 along 2) : vector<2x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<2x1xf32>
    tile.yield %v : vector<2x1xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [2, 1], threads = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.reduce' op splits its reduction into chunks of 0; they must be positive}}
  %s = tile.reduce sum over(%c) chunks(0 along 1) : vector<2x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<2x1xf32>
    tile.yield %v : vector<2x1xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [2, 1], threads = 2>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.reduce' op the body reads output dimension 1, along which the reduction is split}}
  %s = tile.reduce sum over(%c) chunks(64 along 1) : vector<2x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2 + d1)>] : memref<?x?xf32> -> vector<2x1xf32>
    tile.yield %v : vector<2x1xf32>
  }
}

// -----

tile.program @p attributes {arg_names = [], output_dims = ["R", 4], schedule = #tile.schedule<tile = [2, 1], threads = 2>, sizes = ["R"]} {
^bb0(%r: index):
  // expected-error @+1 {{'tile.reduce' op is split but has no reduced index}}
  %s = tile.reduce sum over() chunks(64 along 1) : vector<2x1xf32> {
  ^bb0:
    %v = arith.constant dense<1.0> : vector<2x1xf32>
    tile.yield %v : vector<2x1xf32>
  }
}

// -----

// expected-error @+1 {{reduce_groups = "interleaved" needs groups of threads (reduce_threads > 1)}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [32], threads = 32, reduce_groups = "interleaved">, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{reduce_groups is "consecutive" or "interleaved", not "strided"}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [32], threads = 64, reduce_threads = 2, reduce_groups = "strided">, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{'reduce_threads' is given twice}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [32], threads = 64, reduce_threads = 2, reduce_threads = 4>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{'tile_k' is given twice}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3, tile_k = 64>>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{a tile of more than 1048576 elements (the tile's extents multiply to that or overflow)}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [4294967296, 4294967296], threads = 128>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{vector must be a power of two dividing the tile's innermost extent (64) and the elements a thread holds (8), not 3}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 3>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// A run must fit the elements a thread holds.
// expected-error @+1 {{vector must be a power of two dividing the tile's innermost extent (64) and the elements a thread holds (8), not 16}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 16>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// A run must stay in a row.
// expected-error @+1 {{vector must be a power of two dividing the tile's innermost extent (4) and the elements a thread holds (8), not 8}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 4], threads = 32, vector = 8>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// Runs of a shared reduction's iterations need consecutive groups of one
// element each.
// expected-error @+1 {{vector runs of a shared reduction's iterations (with reduce_threads) need consecutive groups holding one element each, and a power of two, not 2}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [8], threads = 128, reduce_threads = 32, vector = 2>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{vector runs are for programs on the CUDA cores; a tensor-core schedule (mma) has its own layout}}
tile.program @p attributes {arg_names = [], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>, vector = 2>, sizes = ["M", "N"]} {
^bb0(%m: index, %n: index):
}

// -----

// expected-error @+1 {{vector runs of a shared reduction's iterations (with reduce_threads) need consecutive groups holding one element each, and a power of two, not 4}}
tile.program @p attributes {arg_names = [], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 128, reduce_threads = 32, reduce_groups = "interleaved", vector = 4>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["R", "C"]} {
^bb0(%y: memref<?xf32>, %r: index, %c: index):
  %zero = arith.constant dense<0.0> : vector<8x16xf32>
  // expected-error @+1 {{'tile.store' op `along` lists increasing output dimensions below 2}}
  tile.store %zero, %y along [1, 0] : vector<8x16xf32> -> memref<?xf32>
}

// -----

tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xf32>, %r: index, %c: index):
  %zero = arith.constant dense<0.0> : vector<8x16xf32>
  // expected-error @+1 {{'tile.store' op the buffer's rank differs from the number of dimensions it keeps (`along`)}}
  tile.store %zero, %y along [0] : vector<8x16xf32> -> memref<?x?xf32>
}

// -----

// expected-error @+1 {{pack is for programs on the CPU (one thread, no mma)}}
tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 32, pack = true>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xf32>, %r: index, %c: index):
}

// -----

// expected-error @+1 {{pack is true or false, not 'yes'}}
tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1, pack = yes>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xf32>, %r: index, %c: index):
}

// -----

// expected-error @+1 {{reduce_block blocks a packed contraction's reduction: it needs pack = true}}
tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1, reduce_block = 256>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xf32>, %r: index, %c: index):
}

// -----

// expected-error @+1 {{reduce_block must be positive, not -4}}
tile.program @p attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1, pack = true, reduce_block = -4>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xf32>, %r: index, %c: index):
}

// -----

tile.program @p attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf16>, %r: index, %c: index):
  // expected-error @+1 {{'tile.sweep' op stores a tile of 'f32' into a buffer of 'f16'}}
  tile.sweep over(%c) into %y[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf16> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.sweep' op its map takes the 1 output dimensions and the swept index}}
  tile.sweep over(%c) into %y[affine_map<(d0)[s0, s1] -> (d0, d0)>] : memref<?x?xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
}

// -----

tile.program @p attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.sweep' op its map has 3 symbols but the program has 2 sizes}}
  tile.sweep over(%c) into %y[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
}

// -----

// expected-error @+1 {{'tile.program' op launch_ranges: 'M' is not one of its sizes}}
tile.program @p attributes {arg_names = [], launch_ranges = [#tile.size_range<size = "M", below = 4>], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{the range of 'N' is empty (at_least = 8, below = 8)}}
tile.program @p attributes {arg_names = [], launch_ranges = [#tile.size_range<size = "N", at_least = 8, below = 8>], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{the range of 'N' holds every value: give at_least or below}}
tile.program @p attributes {arg_names = [], launch_ranges = [#tile.size_range<size = "N">], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{at_least = -1: a size is never negative}}
tile.program @p attributes {arg_names = [], launch_ranges = [#tile.size_range<size = "N", at_least = -1>], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{'tile.program' op launch_ranges: 'N' has two ranges}}
tile.program @p attributes {arg_names = [], launch_ranges = [#tile.size_range<size = "N", below = 4>, #tile.size_range<size = "N", at_least = 2>], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// expected-error @+1 {{'tile.program' op launch_ranges: 0 ranges; a copy is launched for ranges of one or two sizes}}
tile.program @p attributes {arg_names = [], launch_ranges = [], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

// A stream split in parts takes as many as its split dimension counts.
tile.program @p attributes {arg_names = ["X"], output_dims = [3, "R"], schedule = #tile.schedule<tile = [1, 4], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %r: index, %c: index):
  // expected-error @+1 {{'tile.online_reduce' op is split in 4 parts along output dimension 0, whose extent must be that many (a literal)}}
  %m:2 = tile.online_reduce over(%c) chunks(64 along 0 in 4) accumulators ["max", "sum"] : vector<1x4xf32>, vector<1x4xf32> {
  ^bb0(%k: index, %mx: vector<1x4xf32>):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d1, d2)>] : memref<?x?xf32> -> vector<1x4xf32>
    %e = arith.subf %v, %mx : vector<1x4xf32>
    tile.yield %v, %e : vector<1x4xf32>, vector<1x4xf32>
  } repairs {
  ^bb0(%old: vector<1x4xf32>, %new: vector<1x4xf32>):
    tile.yield %old : vector<1x4xf32>
  }
}
