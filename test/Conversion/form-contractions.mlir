// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80 multiprocessors=1},tile-form-contractions)' | FileCheck %s
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-form-contractions)' | FileCheck %s --check-prefix=CPU
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90 multiprocessors=1},tile-form-contractions)' | FileCheck %s --check-prefix=SM90
// The target's multiprocessors (108 on sm_80, 132 on sm_90) are filled:
// a 200 x 64 output makes 2 tiles of 128 x 64, and its tiles are halved,
// the larger first, while twice as many still fit in one wave, down to
// 32 x 32 (mma.sync, 14 tiles) or 64 x 64 (wgmma, 4 tiles); on 3
// multiprocessors the 2 tiles stay. An output of unbound extents keeps its
// tiles.
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},tile-form-contractions)' | FileCheck %s --check-prefix=FILL80
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},tile-form-contractions)' | FileCheck %s --check-prefix=FILL90
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90 multiprocessors=3},tile-form-contractions)' | FileCheck %s --check-prefix=FILL3
// FILL80-LABEL: tile.program @gemm_C
// FILL80-SAME: schedule = #tile.schedule<tile = [32, 32], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [2, 2], stages = 3, group_m = 8>>
// FILL80-LABEL: tile.program @pv attributes
// FILL80-SAME: tile = [128, 128], threads = 256
// FILL90-LABEL: tile.program @gemm_C
// FILL90-SAME: schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma"
// FILL3-LABEL: tile.program @gemm_C
// FILL3-SAME: schedule = #tile.schedule<tile = [128, 64], threads = 384, mma = #tile.mma<instr = "wgmma"

// A reduction of the product of two widened f16 loads, A reading (m, k)
// and B (k, n), becomes a tile.contract; the program takes a tensor-core
// schedule and every tile (the bias, the epilogue) its shape.
// CHECK-LABEL: tile.program @gemm_C
// CHECK-SAME: schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [2, 4], stages = 3, group_m = 8>>
// CHECK: arith.constant dense<2.000000e+00> : vector<128x64xf32>
// CHECK: %[[ACC:.*]] = tile.contract %arg0[#{{.*}}], %arg1[#{{.*}}] over(%arg5) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x64xf32>
// CHECK-NOT: tile.reduce
// CHECK: %[[BIAS:.*]] = tile.load %arg2[#{{.*}}] : memref<?xf32> -> vector<128x64xf32>
// CHECK: arith.addf %[[ACC]], %[[BIAS]] : vector<128x64xf32>
// CPU-LABEL: tile.program @gemm_C
// CPU-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128>
// CPU: tile.reduce sum
tile.program @gemm_C attributes {arg_names = ["A", "B", "bias", "C"], output_dims = [200, 64], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "K", "N"]} {
^bb0(%arg0: memref<?x?xf16>, %arg1: memref<?x?xf16>, %arg2: memref<?xf32>, %arg3: memref<?x?xf32>, %arg4: index, %arg5: index, %arg6: index):
  %two = arith.constant dense<2.0> : vector<16x64xf32>
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%k: index):
    %a = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf16> -> vector<16x64xf16>
    %ae = arith.extf %a : vector<16x64xf16> to vector<16x64xf32>
    %b = tile.load %arg1[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf16> -> vector<16x64xf16>
    %be = arith.extf %b : vector<16x64xf16> to vector<16x64xf32>
    %p = arith.mulf %ae, %be : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  %bias = tile.load %arg2[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] : memref<?xf32> -> vector<16x64xf32>
  %1 = arith.addf %0, %bias : vector<16x64xf32>
  %2 = arith.mulf %1, %two : vector<16x64xf32>
  tile.store %2, %arg3 : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// Batched, B stored [Z, N, K]: B reads (z, n, k); the batch dimension is
// tiled by 1.
// CHECK-LABEL: tile.program @bmm_C
// CHECK-SAME: tile = [1, 128, 128], threads = 256
// CHECK: tile.contract %arg0[#{{.*}}], %arg1[#{{.*}}] over(%arg5)
tile.program @bmm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["Z", "M", "N"], schedule = #tile.schedule<tile = [1, 16, 64], threads = 128>, sizes = ["Z", "M", "K", "N"]} {
^bb0(%arg0: memref<?x?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index):
  %0 = tile.reduce sum over(%arg5) : vector<1x16x64xf32> {
  ^bb0(%k: index):
    %a = tile.load %arg0[affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0, d1, d3)>] : memref<?x?x?xbf16> -> vector<1x16x64xbf16>
    %ae = arith.extf %a : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %b = tile.load %arg1[affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0, d2, d3)>] : memref<?x?x?xbf16> -> vector<1x16x64xbf16>
    %be = arith.extf %b : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %p = arith.mulf %ae, %be : vector<1x16x64xf32>
    tile.yield %p : vector<1x16x64xf32>
  }
  tile.store %0, %arg2 : vector<1x16x64xf32> -> memref<?x?x?xf32>
}

// -----

// B's index is not a plain dimension (k + n): no copy (cp.async, TMA)
// follows it row by row, so the tile computes B (a computed operand the
// threads read element by element), without rounding (it is f16 already);
// A is still copied.
// CHECK-LABEL: tile.program @skewed
// CHECK-SAME: tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync"
// CHECK: tile.contract %arg0[#{{.*}}], computed over(%arg4) : memref<?x?xf16> -> vector<128x128xf32> rhs {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[B:.*]] = tile.load %arg1[#{{.*}}] : memref<?x?xf16> -> vector<128x128xf16>
// CHECK-NEXT: tile.yield %[[B]] : vector<128x128xf16>
// CHECK-NOT: tile.reduce
tile.program @skewed attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "K", "N"]} {
^bb0(%arg0: memref<?x?xf16>, %arg1: memref<?x?xf16>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index):
  %0 = tile.reduce sum over(%arg4) : vector<16x64xf32> {
  ^bb0(%k: index):
    %a = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf16> -> vector<16x64xf16>
    %ae = arith.extf %a : vector<16x64xf16> to vector<16x64xf32>
    %b = tile.load %arg1[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1 + d2)>] : memref<?x?xf16> -> vector<16x64xf16>
    %be = arith.extf %b : vector<16x64xf16> to vector<16x64xf32>
    %p = arith.mulf %ae, %be : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  tile.store %0, %arg2 : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// Grouped-query attention's scores: K's head is h / (H / G), an expression
// of the batch dimension h and the sizes alone, the same for the whole
// tile: still a contraction.
// CHECK-LABEL: tile.program @gqa_S
// CHECK-SAME: tile = [1, 1, 128, 128], threads = 256
// CHECK: tile.contract %arg0[#{{.*}}], %arg1[#{{.*}}] over(%arg7)
// CHECK-NOT: tile.reduce
tile.program @gqa_S attributes {arg_names = ["Q", "K", "S"], output_dims = ["B", "H", "N", "M"], schedule = #tile.schedule<tile = [1, 1, 16, 64], threads = 128>, sizes = ["B", "H", "N", "D", "G", "M"]} {
^bb0(%arg0: memref<?x?x?x?xbf16>, %arg1: memref<?x?x?x?xbf16>, %arg2: memref<?x?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg7) : vector<1x1x16x64xf32> {
  ^bb0(%d: index):
    %q = tile.load %arg0[affine_map<(d0, d1, d2, d3, d4)[s0, s1, s2, s3, s4, s5] -> (d0, d1, d2, d4)>] : memref<?x?x?x?xbf16> -> vector<1x1x16x64xbf16>
    %qe = arith.extf %q : vector<1x1x16x64xbf16> to vector<1x1x16x64xf32>
    %k = tile.load %arg1[affine_map<(d0, d1, d2, d3, d4)[s0, s1, s2, s3, s4, s5] -> (d0, d1 floordiv (s1 floordiv s4), d3, d4)>] : memref<?x?x?x?xbf16> -> vector<1x1x16x64xbf16>
    %ke = arith.extf %k : vector<1x1x16x64xbf16> to vector<1x1x16x64xf32>
    %p = arith.mulf %qe, %ke : vector<1x1x16x64xf32>
    tile.yield %p : vector<1x1x16x64xf32>
  }
  tile.store %0, %arg2 : vector<1x1x16x64xf32> -> memref<?x?x?x?xf32>
}

// -----

// Not a contraction: K's head depends on the row n (d2), which varies
// across the tile.
// CHECK-LABEL: tile.program @row_dependent_batch
// CHECK: tile.reduce sum
// CHECK-NOT: tile.contract
tile.program @row_dependent_batch attributes {arg_names = ["Q", "K", "S"], output_dims = ["B", "H", "N", "M"], schedule = #tile.schedule<tile = [1, 1, 16, 64], threads = 128>, sizes = ["B", "H", "N", "D", "G", "M"]} {
^bb0(%arg0: memref<?x?x?x?xbf16>, %arg1: memref<?x?x?x?xbf16>, %arg2: memref<?x?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg7) : vector<1x1x16x64xf32> {
  ^bb0(%d: index):
    %q = tile.load %arg0[affine_map<(d0, d1, d2, d3, d4)[s0, s1, s2, s3, s4, s5] -> (d0, d1, d2, d4)>] : memref<?x?x?x?xbf16> -> vector<1x1x16x64xbf16>
    %qe = arith.extf %q : vector<1x1x16x64xbf16> to vector<1x1x16x64xf32>
    %k = tile.load %arg1[affine_map<(d0, d1, d2, d3, d4)[s0, s1, s2, s3, s4, s5] -> (d0, d2 floordiv 2, d3, d4)>] : memref<?x?x?x?xbf16> -> vector<1x1x16x64xbf16>
    %ke = arith.extf %k : vector<1x1x16x64xbf16> to vector<1x1x16x64xf32>
    %p = arith.mulf %qe, %ke : vector<1x1x16x64xf32>
    tile.yield %p : vector<1x1x16x64xf32>
  }
  tile.store %0, %arg2 : vector<1x1x16x64xf32> -> memref<?x?x?x?xf32>
}

// -----

// The computed lhs uses an index tile of the rows (ALiBi-like, S - 0.5 n):
// the program makes index tiles once, outside the reduction, and the
// region takes its own copy (it must compute its operand from what it
// holds). An index tile along the other dimension (d) varies along it: no
// contraction, the reduction stays.
// CHECK-LABEL: tile.program @pv_row_index
// CHECK: tile.contract computed, %arg2[#{{.*}}] over(%arg5) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-DAG: %[[I:.*]] = tile.index 0 : vector<128x128xindex>
// CHECK-DAG: %[[S:.*]] = tile.load %arg0
// CHECK: arith.index_cast %[[I]]
// CHECK: math.exp
// CHECK: tile.yield
// CHECK-NOT: tile.reduce
tile.program @pv_row_index attributes {arg_names = ["S", "L", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xbf16>, %arg4: index, %arg5: index, %arg6: index):
  %half = arith.constant dense<0.5> : vector<16x64xf32>
  %row = tile.index 0 : vector<16x64xindex>
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %ri = arith.index_cast %row : vector<16x64xindex> to vector<16x64xi64>
    %rf = arith.sitofp %ri : vector<16x64xi64> to vector<16x64xf32>
    %bias = arith.mulf %rf, %half : vector<16x64xf32>
    %x = arith.subf %s, %bias : vector<16x64xf32>
    %p = math.exp %x : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  %1 = arith.truncf %0 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %1, %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
}

// -----

// CHECK-LABEL: tile.program @pv_column_index
// CHECK-NOT: tile.contract
// CHECK: tile.reduce
tile.program @pv_column_index attributes {arg_names = ["S", "L", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xbf16>, %arg4: index, %arg5: index, %arg6: index):
  %half = arith.constant dense<0.5> : vector<16x64xf32>
  %column = tile.index 1 : vector<16x64xindex>
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %ci = arith.index_cast %column : vector<16x64xindex> to vector<16x64xi64>
    %cf = arith.sitofp %ci : vector<16x64xi64> to vector<16x64xf32>
    %bias = arith.mulf %cf, %half : vector<16x64xf32>
    %x = arith.subf %s, %bias : vector<16x64xf32>
    %p = math.exp %x : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  %1 = arith.truncf %0 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %1, %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
}

// -----

// Attention's P V: one factor a widened bf16 load (V, reading N and K), the
// other an f32 value computed from loads that do not vary along N (P =
// exp(S - Mx)). The result reaches memory only as bf16, so P is rounded to
// bf16 (what FlashAttention does) in the contraction's computed lhs; the
// scale constant, defined outside the reduction, moves into the region.
// On sm_90 the computed operand takes wgmma (its producer warpgroup
// evaluates it).
// CHECK-LABEL: tile.program @pv
// CHECK-SAME: tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync"
// CHECK: tile.contract computed, %arg2[#{{.*}}] over(%arg5) : memref<?x?xbf16> -> vector<128x128xf32> lhs {
// CHECK-NEXT: ^bb0(%[[K:.*]]: index):
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<128x128xf32>
// CHECK-DAG: %[[S:.*]] = tile.load %arg0[#{{.*}}] : memref<?x?xf32> -> vector<128x128xf32>
// CHECK: %[[X:.*]] = arith.mulf %[[S]], %[[HALF]]
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK: %[[P:.*]] = arith.truncf %[[E]] : vector<128x128xf32> to vector<128x128xbf16>
// CHECK: tile.yield %[[P]] : vector<128x128xbf16>
// CHECK-NOT: tile.reduce
// CHECK: arith.divf
// SM90-LABEL: tile.program @pv
// SM90-SAME: mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>
// SM90: tile.contract computed
tile.program @pv attributes {arg_names = ["S", "L", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xbf16>, %arg4: index, %arg5: index, %arg6: index):
  %half = arith.constant dense<0.5> : vector<16x64xf32>
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %x = arith.mulf %s, %half : vector<16x64xf32>
    %p = math.exp %x : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  %l = tile.load %arg1[affine_map<(d0, d1)[s0, s1, s2] -> (d0)>] : memref<?xf32> -> vector<16x64xf32>
  %1 = arith.divf %0, %l : vector<16x64xf32>
  %2 = arith.truncf %1 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %2, %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
}

// -----

// P V with bound extents, 40 tiles of 128 x 128: one halving fills the
// machine, and it halves M, since the computed P is evaluated once a tile
// of N (halving N would evaluate it twice as often).
// FILL80-LABEL: tile.program @pv_bound
// FILL80-SAME: tile = [64, 128], threads = 256
// FILL90-LABEL: tile.program @pv_bound
// FILL90-SAME: tile = [64, 128], threads = 256, mma = #tile.mma<instr = "wgmma"
// CHECK-LABEL: tile.program @pv_bound
// SM90-LABEL: tile.program @pv_bound
tile.program @pv_bound attributes {arg_names = ["S", "L", "V", "O"], output_dims = [5120, 128], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xbf16>, %arg4: index, %arg5: index, %arg6: index):
  %half = arith.constant dense<0.5> : vector<16x64xf32>
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %x = arith.mulf %s, %half : vector<16x64xf32>
    %p = math.exp %x : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  %l = tile.load %arg1[affine_map<(d0, d1)[s0, s1, s2] -> (d0)>] : memref<?xf32> -> vector<16x64xf32>
  %1 = arith.divf %0, %l : vector<16x64xf32>
  %2 = arith.truncf %1 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %2, %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
}

// -----

// The same product stored as f32: rounding P to bf16 would be seen, so the
// reduction stays on CUDA cores.
// CHECK-LABEL: tile.program @pv_f32
// CHECK: tile.reduce sum
// CHECK-NOT: tile.contract
tile.program @pv_f32 attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xf32>, %arg4: index, %arg5: index, %arg6: index):
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %p = math.exp %s : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  tile.store %0, %arg3 : vector<16x64xf32> -> memref<?x?xf32>
}


// -----

// The product stored to a workspace that the next program reads back only
// to sum it (over j, weighted) and round the sum to bf16: the result is
// still only seen at 16 bits (a mixture of experts' down projection before
// the weighted combine), so P is rounded to bf16 on tensor cores.
// CHECK-LABEL: tile.program @pv_workspace_P
// CHECK-SAME: mma = #tile.mma<instr = "mma_sync"
// CHECK: tile.contract computed, %arg1[#{{.*}}] over(%arg6)
// CHECK: arith.truncf %{{.*}} : vector<128x128xf32> to vector<128x128xbf16>
// CHECK-LABEL: tile.program @pv_workspace_read
// CHECK: tile.reduce sum
tile.program @pv_workspace_P attributes {arg_names = ["S", "V", "P", "C", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D", "J"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>, %arg3: memref<?xf32>, %arg4: memref<?x?xbf16>, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg6) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %p = math.exp %s : vector<16x64xf32>
    %v = tile.load %arg1[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  tile.store %0, %arg2 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.program @pv_workspace_read attributes {arg_names = ["S", "V", "P", "C", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D", "J"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>, %arg3: memref<?xf32>, %arg4: memref<?x?xbf16>, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg8) : vector<16x64xf32> {
  ^bb0(%j: index):
    %w = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x64xf32>
    %c = tile.load %arg3[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d2)>] : memref<?xf32> -> vector<16x64xf32>
    %wc = arith.mulf %w, %c : vector<16x64xf32>
    tile.yield %wc : vector<16x64xf32>
  }
  %1 = arith.truncf %0 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %1, %arg4 : vector<16x64xbf16> -> memref<?x?xbf16>
}
tile.plan @pv_workspace {buffers = [{dims = ["N", "M"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["N", "D"], name = "P", role = "workspace", type = memref<?x?xf32>}, {dims = ["J"], name = "C", role = "input", type = memref<?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xbf16>}], programs = [@pv_workspace_P, @pv_workspace_read], sizes = ["N", "M", "D", "J"]}

// -----

// Read back into an f32 output: the rounding would be seen; CUDA cores.
// CHECK-LABEL: tile.program @pv_workspace_f32_P
// CHECK-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128>,
// CHECK: tile.reduce sum
// CHECK-NOT: tile.contract
tile.program @pv_workspace_f32_P attributes {arg_names = ["S", "V", "P", "C", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D", "J"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>, %arg3: memref<?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg6) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %p = math.exp %s : vector<16x64xf32>
    %v = tile.load %arg1[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  tile.store %0, %arg2 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.program @pv_workspace_f32_read attributes {arg_names = ["S", "V", "P", "C", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D", "J"]} {
^bb0(%arg0: memref<?x?xf32>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>, %arg3: memref<?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg8) : vector<16x64xf32> {
  ^bb0(%j: index):
    %w = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d1)>] : memref<?x?xf32> -> vector<16x64xf32>
    %c = tile.load %arg3[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d2)>] : memref<?xf32> -> vector<16x64xf32>
    %wc = arith.mulf %w, %c : vector<16x64xf32>
    tile.yield %wc : vector<16x64xf32>
  }
  tile.store %0, %arg4 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @pv_workspace_f32 {buffers = [{dims = ["N", "M"], name = "S", role = "input", type = memref<?x?xf32>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["N", "D"], name = "P", role = "workspace", type = memref<?x?xf32>}, {dims = ["J"], name = "C", role = "input", type = memref<?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@pv_workspace_f32_P, @pv_workspace_f32_read], sizes = ["N", "M", "D", "J"]}
// -----

// The computed factor varies along N (it reads S at (n, d)): not an
// operand of this contraction.
// CHECK-LABEL: tile.program @pv_reads_n
// CHECK: tile.reduce sum
// CHECK-NOT: tile.contract
tile.program @pv_reads_n attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["N", "M", "D"]} {
^bb0(%arg0: memref<?x?xf32>, %arg2: memref<?x?xbf16>, %arg3: memref<?x?xbf16>, %arg4: index, %arg5: index, %arg6: index):
  %0 = tile.reduce sum over(%arg5) : vector<16x64xf32> {
  ^bb0(%m: index):
    %s = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d1, d2)>] : memref<?x?xf32> -> vector<16x64xf32>
    %p = math.exp %s : vector<16x64xf32>
    %v = tile.load %arg2[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %pv = arith.mulf %p, %ve : vector<16x64xf32>
    tile.yield %pv : vector<16x64xf32>
  }
  %1 = arith.truncf %0 : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %1, %arg3 : vector<16x64xbf16> -> memref<?x?xbf16>
}

// -----

// Weights gathered through a table read the same over any tile (a grouped
// GEMM's expert, one a block of 128 rows): a loaded operand, the table's
// entry added to W's first index (`0` in the map), copied like any other.
// CHECK-LABEL: tile.program @expert_weights
// CHECK: tile.contract %arg0[#{{.*}}], %arg1[#[[W:.*]]] offset(%arg2[#[[E:.*]]] at 0) over(%arg6) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<128x128xf32>
// CHECK-NOT: tile.reduce
tile.program @expert_weights attributes {arg_names = ["X", "W", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %c: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %0 = tile.reduce sum over(%k) : vector<16x64xf32> {
  ^bb0(%kk: index):
    %a = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ae = arith.extf %a : vector<16x64xbf16> to vector<16x64xf32>
    %e = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 128)>] : memref<?xi32> -> vector<16x64xi32>
    %ei = arith.index_cast %e : vector<16x64xi32> to vector<16x64xindex>
    %v = tile.load %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] indirect(%ei) at [0] : memref<?x?x?xbf16>, vector<16x64xindex> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %p = arith.mulf %ae, %ve : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  tile.store %0, %c : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// One expert a row (`B[m]`): the rows of a tile read different experts'
// weights, which no operand can (tile-group-routed-contractions buckets
// such rows by expert first); the reduction stays on CUDA cores.
// CHECK-LABEL: tile.program @row_experts
// CHECK: tile.reduce sum
// CHECK-NOT: tile.contract
tile.program @row_experts attributes {arg_names = ["X", "W", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %c: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %0 = tile.reduce sum over(%k) : vector<16x64xf32> {
  ^bb0(%kk: index):
    %a = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xbf16> -> vector<16x64xbf16>
    %ae = arith.extf %a : vector<16x64xbf16> to vector<16x64xf32>
    %e = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0)>] : memref<?xi32> -> vector<16x64xi32>
    %ei = arith.index_cast %e : vector<16x64xi32> to vector<16x64xindex>
    %v = tile.load %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] indirect(%ei) at [0] : memref<?x?x?xbf16>, vector<16x64xindex> -> vector<16x64xbf16>
    %ve = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
    %p = arith.mulf %ae, %ve : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  tile.store %0, %c : vector<16x64xf32> -> memref<?x?xf32>
}

// -----

// 128 x 128 x 16384: even the smallest tiles leave most multiprocessors
// idle (4 of 64 x 64 on sm_90, 16 of 32 x 32 on sm_80), so K is split into
// the most chunks, a power of two, whose programs fit in one wave: 32 (128
// programs, chunks of 8 steps) and 4 (64 programs). On 3 multiprocessors 2
// tiles already fill them; on 1 nothing changes.
// CHECK-LABEL: tile.program @long_C
// CHECK-NOT: split_k
// CHECK: tile.plan @long
// FILL80-LABEL: tile.program @long_C
// FILL80-SAME: schedule = #tile.schedule<tile = [32, 32], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [2, 2], stages = 3, group_m = 8, split_k = 4>>
// FILL90-LABEL: tile.program @long_C
// FILL90-SAME: schedule = #tile.schedule<tile = [64, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4, group_m = 8, producers = 1, persistent = 1, split_k = 32>>
// FILL3-LABEL: tile.program @long_C
// FILL3-NOT: split_k
// FILL3: tile.plan @long
tile.program @long_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["M", "K", "N"]} {
^bb0(%arg0: memref<?x?xf16>, %arg1: memref<?x?xf16>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index):
  %0 = tile.reduce sum over(%arg4) : vector<16x64xf32> {
  ^bb0(%k: index):
    %a = tile.load %arg0[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf16> -> vector<16x64xf16>
    %ae = arith.extf %a : vector<16x64xf16> to vector<16x64xf32>
    %b = tile.load %arg1[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf16> -> vector<16x64xf16>
    %be = arith.extf %b : vector<16x64xf16> to vector<16x64xf32>
    %p = arith.mulf %ae, %be : vector<16x64xf32>
    tile.yield %p : vector<16x64xf32>
  }
  tile.store %0, %arg2 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @long {bindings = {K = 16384 : i64, M = 128 : i64, N = 128 : i64}, buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xf16>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@long_C], sizes = ["M", "K", "N"]}
