// RUN: nautc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},tile-split-contractions)' | FileCheck %s

// K = 1000 split 4 ways in steps of 64: 16 steps, 4 a chunk (256 of K),
// 4 chunks. The partial program contracts each chunk on the tensor cores
// (its maps take the chunk index first) into an f32 workspace [4, M, N];
// the program then sums the 4 partials and runs its epilogue on the CUDA
// cores, with the default schedule's tiles made smaller until its
// programs outnumber the multiprocessors (4 x 64: 64; 1 x 64: 256).
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>
// CHECK-DAG: #[[PARTIAL:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d0, d1)>
// CHECK-LABEL: tile.program @gemm_C_partial
// CHECK-SAME: arg_names = ["A", "B", "bias", "C", "gemm_C.partial"], output_dims = [4, "M", "N"]
// CHECK-SAME: schedule = #tile.schedule<tile = [1, 64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1>>
// CHECK: %[[C:.*]] = tile.contract %arg0[#[[LHS]]], %arg1[#[[RHS]]] over(%arg6) chunks(256 along 0) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<1x64x64xf32>
// CHECK-NEXT: tile.store %[[C]], %arg4 : vector<1x64x64xf32> -> memref<?x?x?xf32>
// CHECK-LABEL: tile.program @gemm_C
// CHECK-SAME: schedule = #tile.schedule<tile = [1, 64], threads = 64>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[SUM:.*]] = tile.reduce sum over(%[[FOUR]]) : vector<1x64xf32> {
// CHECK: tile.load %arg4[#[[PARTIAL]]] : memref<?x?x?xf32> -> vector<1x64xf32>
// CHECK: %[[BIAS:.*]] = tile.load %arg2
// CHECK: arith.addf %[[SUM]], %[[BIAS]] : vector<1x64xf32>
// CHECK: tile.plan @gemm
// CHECK-SAME: {dims = [4, "M", "N"], name = "gemm_C.partial", role = "workspace", type = memref<?x?x?xf32>}
// CHECK-SAME: programs = [@gemm_C_partial, @gemm_C]
tile.program @gemm_C attributes {arg_names = ["A", "B", "bias", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 4>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %bias: memref<?xf32>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  %v = tile.load %bias[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] : memref<?xf32> -> vector<64x64xf32>
  %r = arith.addf %acc, %v : vector<64x64xf32>
  tile.store %r, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @gemm {bindings = {K = 1000 : i64, M = 128 : i64, N = 128 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["N"], name = "bias", role = "input", type = memref<?xf32>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@gemm_C], sizes = ["M", "K", "N"]}

// -----

// 16 steps of K asked to split 6 ways: chunks of 3 steps (192), and 6 of
// them (the last holds one step); 7 ways would also give 6 chunks, not an
// empty seventh.
// CHECK-LABEL: tile.program @uneven_C_partial
// CHECK-SAME: output_dims = [6, "M", "N"]
// CHECK: chunks(192 along 0)
// CHECK-LABEL: tile.program @uneven_C
// CHECK-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128>
// CHECK: %[[SIX:.*]] = arith.constant 6 : index
// CHECK: tile.reduce sum over(%[[SIX]])
tile.program @uneven_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 7>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @uneven {bindings = {K = 1024 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@uneven_C], sizes = ["M", "K", "N"]}

// -----

// K of one step (40 < tile_k = 64): one chunk, nothing to split; the
// schedule drops split_k.
// CHECK-LABEL: tile.program @short_C
// CHECK-SAME: persistent = 1>>
// CHECK-NOT: chunks
// CHECK: tile.plan @short
// CHECK-SAME: programs = [@short_C]
tile.program @short_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 4>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @short {bindings = {K = 40 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@short_C], sizes = ["M", "K", "N"]}

// -----

// Without split_k, nothing changes.
// CHECK-LABEL: tile.program @whole_C
// CHECK: tile.contract
// CHECK-NOT: chunks
// CHECK: tile.plan @whole
// CHECK-SAME: programs = [@whole_C]
tile.program @whole_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @whole {bindings = {K = 1024 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@whole_C], sizes = ["M", "K", "N"]}

// -----

// expected-error @+1 {{cannot split the contraction's K 2 ways: the reduced extent must be bound at compile time (--shape)}}
tile.program @unbound_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 2>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @unbound {buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@unbound_C], sizes = ["M", "K", "N"]}

// -----

// Partial sums past the 1 GiB a split's workspace may take: 16 chunks of
// K = 4096 (256 steps of 16) over a bound 8192 x 8192 output would be
// 4 GiB of f32.
// expected-error @+1 {{cannot split the contraction's K 16 ways: its partial results would take a 4.0 GiB workspace (16 x 8192 x 8192 elements of 4 bytes), more than the 1.0 GiB a split may take: split at most 4 ways}}
tile.program @huge_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 16>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @huge {bindings = {K = 4096 : i64, M = 8192 : i64, N = 8192 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xbf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@huge_C], sizes = ["M", "K", "N"]}

// -----

// A computed operand (attention's P = exp(S - Mx) for P V, at a decoding
// step: one query row, a long key sequence) splits too: its region moves
// with the contraction, its reads and indices taking the chunk index
// first, and the scalars and splats it uses from outside come along.
// CHECK-DAG: #[[SREAD:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1] -> (d1, d3)>
// CHECK-DAG: #[[MXREAD:.*]] = affine_map<(d0, d1, d2, d3)[s0, s1] -> (d1)>
// CHECK-LABEL: tile.program @computed_O_partial
// CHECK-SAME: output_dims = [2, "M", 64]
// CHECK: %[[C:.*]] = tile.contract computed, %arg1[#{{.*}}] over(%arg6) chunks(2048 along 0) : memref<?x?xbf16> -> vector<1x64x64xf32> lhs {
// CHECK: tile.index 1 : vector<1x64x64xindex>
// CHECK: tile.load %arg0[#[[SREAD]]] : memref<?x?xf32> -> vector<1x64x64xf32>
// CHECK: tile.load %arg3[#[[MXREAD]]] : memref<?xf32> -> vector<1x64x64xf32>
// CHECK: tile.yield %{{.*}} : vector<1x64x64xbf16>
// CHECK: tile.store %[[C]], %arg4
// CHECK-LABEL: tile.program @computed_O
// CHECK: tile.reduce sum
tile.program @computed_O attributes {arg_names = ["S", "V", "O", "Mx"], output_dims = ["M", 64], schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, producers = 1, persistent = 1, split_k = 2>>, sizes = ["M", "K"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %mx: memref<?xf32>, %m: index, %k: index):
  %rows = tile.index 0 : vector<64x64xindex>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] over(%k) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%kk: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    %mxv = tile.load %mx[affine_map<(d0, d1, d2)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<64x64xf32>
    %d = arith.subf %x, %mxv : vector<64x64xf32>
    %ri = arith.index_cast %rows : vector<64x64xindex> to vector<64x64xi32>
    %rf = arith.sitofp %ri : vector<64x64xi32> to vector<64x64xf32>
    %b = arith.addf %d, %rf : vector<64x64xf32>
    %e = math.exp %b : vector<64x64xf32>
    %p = arith.truncf %e : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
  tile.store %acc, %o : vector<64x64xf32> -> memref<?x?xf32>
}
tile.plan @computed {bindings = {K = 4096 : i64}, buffers = [{dims = ["M", "K"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["K", 64], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["M", 64], name = "O", role = "output", type = memref<?x?xf32>}, {dims = ["M"], name = "Mx", role = "input", type = memref<?xf32>}], programs = [@computed_O], sizes = ["M", "K"]}
