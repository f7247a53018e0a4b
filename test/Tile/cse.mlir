// RUN: nautc-opt %s -cse | FileCheck %s
// RUN: nautc-opt %s -cse -nautilus-attach-target=target=sm_80 -convert-tile-to-gpu | FileCheck %s --check-prefix=GPU

// CSE may replace a computed operand's constant by an identical one outside
// its region (the fold interface keeps the folder from hoisting it, CSE
// does not ask): the verifier accepts a splat constant or a broadcast of a
// scalar from outside, and the lowering clones them back into the region
// before evaluating it (tile::sinkIntoComputedOperands).
// CHECK-LABEL: tile.program @shared_constant
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<64x64xf32>
// CHECK: tile.contract computed
// CHECK-NOT: arith.constant
// CHECK: arith.addf %{{.*}}, %[[ONE]]
// GPU: gpu.func @shared_constant
// GPU: nvvm.mma.sync
tile.program @shared_constant attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  %one = arith.constant dense<1.0> : vector<64x64xf32>
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    %c = arith.constant dense<1.0> : vector<64x64xf32>
    %y = arith.addf %x, %c : vector<64x64xf32>
    %p = arith.truncf %y : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
  %r = arith.addf %acc, %one : vector<64x64xf32>
  tile.store %r, %o : vector<64x64xf32> -> memref<?x?xf32>
}
