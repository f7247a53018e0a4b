// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},tile-materialize-computed-operands)' | FileCheck %s

// exp(S) as the lhs of a contraction whose N spans 4 tiles of 128: computed
// once, by a CUDA-core program launched first, into a bf16 workspace over
// [M, K] (named after the program and the operand), then loaded there.
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>
// CHECK-LABEL: tile.program @wide_O_lhs_materialized
// CHECK-SAME: arg_names = ["S", "V", "O", "wide_O.lhs"], output_dims = ["M", "K"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>
// CHECK: %[[X:.*]] = tile.load %arg0[#[[MK]]] : memref<?x?xf32> -> vector<16x64xf32>
// CHECK: %[[E:.*]] = math.exp %[[X]] : vector<16x64xf32>
// CHECK: %[[P:.*]] = arith.truncf %[[E]] : vector<16x64xf32> to vector<16x64xbf16>
// CHECK: tile.store %[[P]], %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
// CHECK-LABEL: tile.program @wide_O
// CHECK: tile.contract %arg3[#[[LHS]]], %arg1[#{{.*}}] over(%arg5) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x128xf32>
// CHECK-NOT: computed
// CHECK: tile.plan @wide
// CHECK-SAME: {dims = ["M", "K"], name = "wide_O.lhs", role = "workspace", type = memref<?x?xbf16>}
// CHECK-SAME: programs = [@wide_O_lhs_materialized, @wide_O]
tile.program @wide_O attributes {arg_names = ["S", "V", "O"], output_dims = ["M", 512], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m: index, %k: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x128xf32>
    %e = math.exp %x : vector<128x128xf32>
    %p = arith.truncf %e : vector<128x128xf32> to vector<128x128xbf16>
    tile.yield %p : vector<128x128xbf16>
  }
  tile.store %acc, %o : vector<128x128xf32> -> memref<?x?xf32>
}
tile.plan @wide {buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["K", 512], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["M", 512], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@wide_O], sizes = ["M", "K"]}

// -----

// N of 2 tiles: computing it twice costs less than a workspace.
// CHECK-LABEL: tile.program @narrow_O
// CHECK: tile.contract computed
// CHECK: tile.plan @narrow
// CHECK-SAME: programs = [@narrow_O]
tile.program @narrow_O attributes {arg_names = ["S", "V", "O"], output_dims = ["M", 256], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m: index, %k: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x128xf32>
    %e = math.exp %x : vector<128x128xf32>
    %p = arith.truncf %e : vector<128x128xf32> to vector<128x128xbf16>
    tile.yield %p : vector<128x128xbf16>
  }
  tile.store %acc, %o : vector<128x128xf32> -> memref<?x?xf32>
}
tile.plan @narrow {buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["K", 256], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["M", 256], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@narrow_O], sizes = ["M", "K"]}

// -----

// N unbound: recomputing is bounded by the tiles, a workspace might not be
// (attention's P before P V with the head dimension unbound).
// CHECK-LABEL: tile.program @unbound_O
// CHECK: tile.contract computed
// CHECK: tile.plan @unbound
// CHECK-SAME: programs = [@unbound_O]
tile.program @unbound_O attributes {arg_names = ["S", "V", "O"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x128xf32>
    %e = math.exp %x : vector<128x128xf32>
    %p = arith.truncf %e : vector<128x128xf32> to vector<128x128xbf16>
    tile.yield %p : vector<128x128xbf16>
  }
  tile.store %acc, %o : vector<128x128xf32> -> memref<?x?xf32>
}
tile.plan @unbound {buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["K", "N"], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@unbound_O], sizes = ["M", "K", "N"]}

// -----

// Rows gathered through R, for two contractions (a mixture of experts' gate
// and up projections): gathered once, by one program, into one workspace
// both load (each would otherwise gather them again for each of N's 4
// tiles, by the threads rather than by copies).
// CHECK-LABEL: tile.program @gather_P1_lhs_materialized
// CHECK-SAME: arg_names = ["S", "V", "W", "O", "P", "R", "gather_P1.lhs"], output_dims = ["M", "K"]
// CHECK: tile.load %arg0[#{{.*}}] indirect(%{{.*}}) at [0] : memref<?x?xbf16>
// CHECK: tile.store %{{.*}}, %arg6 : vector<16x64xbf16> -> memref<?x?xbf16>
// CHECK-NOT: _materialized
// CHECK-LABEL: tile.program @gather_P1
// CHECK: tile.contract %arg6[#{{.*}}], %arg1[#{{.*}}] over
// CHECK-LABEL: tile.program @gather_P2
// CHECK: tile.contract %arg6[#{{.*}}], %arg2[#{{.*}}] over
// CHECK: tile.plan @gather
// CHECK-SAME: programs = [@gather_P1_lhs_materialized, @gather_P1, @gather_P2]
tile.program @gather_P1 attributes {arg_names = ["S", "V", "W", "O", "P", "R"], output_dims = ["M", 512], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xbf16>, %v: memref<?x?xbf16>, %w: memref<?x?xbf16>, %o: memref<?x?xf32>, %p: memref<?x?xf32>, %rows: memref<?xi32>, %m: index, %k: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %r = tile.load %rows[affine_map<(d0, d1, d2)[s0, s1] -> (d0)>] : memref<?xi32> -> vector<128x128xi32>
    %ri = arith.index_cast %r : vector<128x128xi32> to vector<128x128xindex>
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d2)>] indirect(%ri) at [0] : memref<?x?xbf16>, vector<128x128xindex> -> vector<128x128xbf16>
    tile.yield %x : vector<128x128xbf16>
  }
  tile.store %acc, %o : vector<128x128xf32> -> memref<?x?xf32>
}
tile.program @gather_P2 attributes {arg_names = ["S", "V", "W", "O", "P", "R"], output_dims = ["M", 512], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xbf16>, %v: memref<?x?xbf16>, %w: memref<?x?xbf16>, %o: memref<?x?xf32>, %p: memref<?x?xf32>, %rows: memref<?xi32>, %m: index, %k: index):
  %acc = tile.contract computed, %w[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %r = tile.load %rows[affine_map<(d0, d1, d2)[s0, s1] -> (d0)>] : memref<?xi32> -> vector<128x128xi32>
    %ri = arith.index_cast %r : vector<128x128xi32> to vector<128x128xindex>
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d2)>] indirect(%ri) at [0] : memref<?x?xbf16>, vector<128x128xindex> -> vector<128x128xbf16>
    tile.yield %x : vector<128x128xbf16>
  }
  tile.store %acc, %p : vector<128x128xf32> -> memref<?x?xf32>
}
tile.plan @gather {buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xbf16>}, {dims = ["K", 512], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["K", 512], name = "W", role = "input", type = memref<?x?xbf16>}, {dims = ["M", 512], name = "O", role = "output", type = memref<?x?xf32>}, {dims = ["M", 512], name = "P", role = "output", type = memref<?x?xf32>}, {dims = ["M"], name = "R", role = "input", type = memref<?xi32>}], programs = [@gather_P1, @gather_P2], sizes = ["M", "K"]}

// -----

// A program that skips blocks of rows (a grouped GEMM's blocks past the last
// expert's) needs no operand for them: the new program skips them too. The
// second program skips by its columns, which the new program does not
// have: it computes every row, into a workspace of its own.
// CHECK-LABEL: tile.program @skipping_P1_lhs_materialized
// CHECK: tile.skip_if_negative %arg3[#{{.*}}] : memref<?xi32>
// CHECK: tile.store %{{.*}}, %arg5
// CHECK-LABEL: tile.program @skipping_P1
// CHECK: tile.skip_if_negative
// CHECK-LABEL: tile.program @skipping_P2_lhs_materialized
// CHECK-NOT: tile.skip_if_negative
// CHECK: tile.store %{{.*}}, %arg6
// CHECK-LABEL: tile.program @skipping_P2
// CHECK: tile.skip_if_negative
// CHECK: tile.contract %arg6
tile.program @skipping_P1 attributes {arg_names = ["S", "V", "O", "B", "P"], output_dims = ["M", 512], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %blocks: memref<?xi32>, %p: memref<?x?xf32>, %m: index, %k: index):
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x128xf32>
    %t = arith.truncf %x : vector<128x128xf32> to vector<128x128xbf16>
    tile.yield %t : vector<128x128xbf16>
  }
  tile.store %acc, %o : vector<128x128xf32> -> memref<?x?xf32>
}
tile.program @skipping_P2 attributes {arg_names = ["S", "V", "O", "B", "P"], output_dims = ["M", 512], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %blocks: memref<?xi32>, %p: memref<?x?xf32>, %m: index, %k: index):
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d1 floordiv 128)>] : memref<?xi32>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x128xf32>
    %t = arith.truncf %x : vector<128x128xf32> to vector<128x128xbf16>
    tile.yield %t : vector<128x128xbf16>
  }
  tile.store %acc, %p : vector<128x128xf32> -> memref<?x?xf32>
}
tile.plan @skipping {buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["K", 512], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["M", 512], name = "O", role = "output", type = memref<?x?xf32>}, {dims = [4], name = "B", role = "input", type = memref<?xi32>}, {dims = ["M", 512], name = "P", role = "output", type = memref<?x?xf32>}], programs = [@skipping_P1, @skipping_P2], sizes = ["M", "K"]}
