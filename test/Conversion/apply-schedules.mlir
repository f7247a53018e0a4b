// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},tile-form-contractions,tile-apply-schedules{path=%S/Inputs/gemm-schedule.json})' | FileCheck %s

// The file's schedule replaces the one tile-form-contractions chose, and
// every tile of the program (the contraction, the bias, the epilogue's
// constant) takes its shape; a program the file does not name keeps its
// schedule.
// CHECK-LABEL: tile.program @gemm_C
// CHECK-SAME: schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [4, 2], stages = 2, swizzle = 32>>
// CHECK: arith.constant dense<2.000000e+00> : vector<128x64xf32>
// CHECK: tile.contract {{.*}} -> vector<128x64xf32>
// CHECK: tile.load %arg2[#{{.*}}] : memref<?xf32> -> vector<128x64xf32>
// CHECK-LABEL: tile.program @rowsum
// CHECK-SAME: schedule = #tile.schedule<tile = [16], threads = 16>
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

tile.program @rowsum attributes {arg_names = ["X", "Y"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 16>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %n: index):
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<16xf32>
  tile.store %v, %y : vector<16xf32> -> memref<?xf32>
}
