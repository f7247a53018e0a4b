// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},tile-group-routed-contractions,canonicalize,cse)' | FileCheck %s
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-group-routed-contractions)' | FileCheck %s --check-prefix=CPU
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},tile-group-routed-contractions,tile-form-contractions)' | FileCheck %s --check-prefix=FORMED

// G[t, j, f] = sum[d](X[t, d] * W[ids[t, j], d, f]), then Y[t, f] =
// sum[j](G[t, j, f]). The rows (t, j) are bucketed by expert: a routing
// program runs first, G is computed over the bucketed rows (X's row from
// `order`, the expert from the block's entry), and Y reads row (t, j) of G
// at its slot.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d0)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d2)>
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d0 floordiv 128)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d2, d1)>
// CHECK-DAG: #[[TJ:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d0, d2)>
// CHECK-DAG: #[[N:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d1)>
// CHECK-DAG: #[[TILE_BLOCK:.*]] = affine_map<(d0, d1)[s0, s1, s2, s3, s4, s5] -> (d0 floordiv 128)>
// CHECK-LABEL: tile.program @routed_route_ids
// CHECK-SAME: arg_names = ["X", "W", "ids", "G", "Y", "ids.order", "ids.slot", "ids.block_experts", "ids.starts"], output_dims = [256], schedule = #tile.schedule<tile = [256], threads = 256>, sizes = ["T", "D", "E", "F", "J", "routed(ids)"]
// CHECK: ^bb0({{.*}}%[[IDS:arg2]]: memref<?x?xi32>, %[[G:arg3]]: memref<?x?xf32>, {{.*}}, %[[ORDER:arg5]]: memref<?xi32>, %[[SLOT:arg6]]: memref<?x?xi32>, %[[BLOCKS:arg7]]: memref<?xi32>, %[[STARTS:arg8]]: memref<?xi32>, %{{.*}}: index, %{{.*}}: index, %[[E:arg11]]: index, %{{.*}}: index, %[[J:arg13]]: index, %{{.*}}: index)
// CHECK: tile.route %[[IDS]] experts(%[[E]]) block 128 -> order %[[ORDER]], slot %[[SLOT]], block_experts %[[BLOCKS]], starts %[[STARTS]]
// CHECK-LABEL: tile.program @routed_G
// CHECK-SAME: output_dims = ["routed(ids)", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>
// A block past the last expert's holds no row: its tiles do nothing.
// CHECK: tile.skip_if_negative %[[BLOCKS]][#[[TILE_BLOCK]]] : memref<?xi32>
// CHECK-NEXT: tile.reduce sum
// CHECK: %[[P:.*]] = tile.load %[[ORDER]][#[[ROW]]] : memref<?xi32> -> vector<16x64xi32>
// CHECK: %[[PI:.*]] = arith.index_cast %[[P]]
// CHECK: %[[JS:.*]] = vector.broadcast %[[J]] : index to vector<16x64xindex>
// CHECK: %[[T:.*]] = arith.divui %[[PI]], %[[JS]]
// CHECK: tile.load %arg0[#[[K]]] indirect(%[[T]]) at [0] : memref<?x?xbf16>
// CHECK: %[[EX:.*]] = tile.load %[[BLOCKS]][#[[BLOCK]]] : memref<?xi32>
// CHECK: %[[EXI:.*]] = arith.index_cast %[[EX]]
// CHECK: tile.load %arg1[#[[KN]]] indirect(%[[EXI]]) at [0] : memref<?x?x?xbf16>
// CHECK: tile.store %{{.*}}, %[[G]] : vector<16x64xf32> -> memref<?x?xf32>
// CHECK-LABEL: tile.program @routed_Y
// CHECK: %[[S:.*]] = tile.load %[[SLOT]][#[[TJ]]] : memref<?x?xi32>
// CHECK: %[[SI:.*]] = arith.index_cast %[[S]]
// CHECK: tile.load %[[G]][#[[N]]] indirect(%[[SI]]) at [0] : memref<?x?xf32>
// CHECK: tile.plan @routed
// CHECK-SAME: {dims = ["routed(ids)", "F"], name = "G", role = "workspace", type = memref<?x?xf32>}
// CHECK-SAME: {dims = ["routed(ids)"], name = "ids.order", role = "workspace", type = memref<?xi32>}, {dims = ["T", "J"], name = "ids.slot", role = "workspace", type = memref<?x?xi32>}, {dims = ["routed(ids)"], name = "ids.block_experts", role = "workspace", type = memref<?xi32>}, {dims = ["E"], name = "ids.starts", role = "workspace", type = memref<?xi32>}
// CHECK-SAME: derived_sizes = {"routed(ids)" = {{\[\[}}1, "T", "J"], [127, "E"]]}
// CHECK-SAME: programs = [@routed_route_ids, @routed_G, @routed_Y]
// CHECK-SAME: sizes = ["T", "D", "E", "F", "J", "routed(ids)"]
// CPU-NOT: tile.route
// CPU: output_dims = ["T", "J", "F"]
// Then the grouped GEMM forms: the gathered rows are computed by the tile,
// the block's expert's weights are loaded, the expert an offset read from
// block_experts once a tile (`d0 floordiv 128`: one expert a tile).
// FORMED-DAG: #[[WMAP:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (0, d2, d1)>
// FORMED-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d0 floordiv 128)>
// FORMED-LABEL: tile.program @routed_G
// FORMED-SAME: output_dims = ["routed(ids)", "F"]
// FORMED-SAME: mma = #tile.mma<instr = "wgmma"
// FORMED: tile.contract computed, %arg1[#[[WMAP]]] offset(%arg7[#[[BLOCK]]] at 0) over(%{{.*}}) : memref<?x?x?xbf16>, memref<?xi32> -> vector<128x128xf32> lhs {
// FORMED: tile.load %{{.*}} indirect(%{{.*}}) at [0] : memref<?x?xbf16>
// FORMED: tile.yield %{{.*}} : vector<128x128xbf16>
// FORMED-NEXT: }
// FORMED-NOT: rhs {
#map = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d3)>
#map1 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d3, d2)>
#map3 = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4] -> (d0, d2, d1)>
tile.program @routed_G attributes {arg_names = ["X", "W", "ids", "G", "Y"], output_dims = ["T", "J", "F"], schedule = #tile.schedule<tile = [1, 16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?xi32>, %arg3: memref<?x?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index):
  %0 = tile.reduce sum over(%arg6) : vector<1x16x64xf32> {
  ^bb0(%arg10: index):
    %1 = tile.load %arg0[#map] : memref<?x?xbf16> -> vector<1x16x64xbf16>
    %2 = arith.extf %1 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %3 = tile.load %arg2[#map1] : memref<?x?xi32> -> vector<1x16x64xi32>
    %4 = arith.index_cast %3 : vector<1x16x64xi32> to vector<1x16x64xindex>
    %5 = tile.load %arg1[#map2] indirect(%4) at [0] : memref<?x?x?xbf16>, vector<1x16x64xindex> -> vector<1x16x64xbf16>
    %6 = arith.extf %5 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %7 = arith.mulf %2, %6 : vector<1x16x64xf32>
    tile.yield %7 : vector<1x16x64xf32>
  }
  tile.store %0, %arg3 : vector<1x16x64xf32> -> memref<?x?x?xf32>
}
tile.program @routed_Y attributes {arg_names = ["X", "W", "ids", "G", "Y"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?xi32>, %arg3: memref<?x?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index):
  %0 = tile.reduce sum over(%arg9) : vector<16x64xf32> {
  ^bb0(%arg10: index):
    %1 = tile.load %arg3[#map3] : memref<?x?x?xf32> -> vector<16x64xf32>
    tile.yield %1 : vector<16x64xf32>
  }
  tile.store %0, %arg4 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @routed {buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["E", "D", "F"], name = "W", role = "input", type = memref<?x?x?xbf16>}, {dims = ["T", "J"], name = "ids", role = "input", type = memref<?x?xi32>}, {dims = ["T", "J", "F"], name = "G", role = "workspace", type = memref<?x?x?xf32>}, {dims = ["T", "F"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@routed_G, @routed_Y], sizes = ["T", "D", "E", "F", "J"]}


// -----

// G is the kernel's output: its rows cannot move, so the program stays as
// it is (on CUDA cores).
// CHECK-LABEL: tile.program @direct_G
// CHECK-SAME: output_dims = ["T", "J", "F"]
// CHECK-NOT: tile.route
#map = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d3)>
#map1 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d3, d2)>
tile.program @direct_G attributes {arg_names = ["X", "W", "ids", "G"], output_dims = ["T", "J", "F"], schedule = #tile.schedule<tile = [1, 16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?xi32>, %arg3: memref<?x?x?xf32>, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index):
  %0 = tile.reduce sum over(%arg5) : vector<1x16x64xf32> {
  ^bb0(%arg9: index):
    %1 = tile.load %arg0[#map] : memref<?x?xbf16> -> vector<1x16x64xbf16>
    %2 = arith.extf %1 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %3 = tile.load %arg2[#map1] : memref<?x?xi32> -> vector<1x16x64xi32>
    %4 = arith.index_cast %3 : vector<1x16x64xi32> to vector<1x16x64xindex>
    %5 = tile.load %arg1[#map2] indirect(%4) at [0] : memref<?x?x?xbf16>, vector<1x16x64xindex> -> vector<1x16x64xbf16>
    %6 = arith.extf %5 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %7 = arith.mulf %2, %6 : vector<1x16x64xf32>
    tile.yield %7 : vector<1x16x64xf32>
  }
  tile.store %0, %arg3 : vector<1x16x64xf32> -> memref<?x?x?xf32>
}
tile.plan @direct {buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["E", "D", "F"], name = "W", role = "input", type = memref<?x?x?xbf16>}, {dims = ["T", "J"], name = "ids", role = "input", type = memref<?x?xi32>}, {dims = ["T", "J", "F"], name = "G", role = "output", type = memref<?x?x?xf32>}], programs = [@direct_G], sizes = ["T", "D", "E", "F", "J"]}

// -----

// Two routed contractions in a row (a mixture of experts' up and down
// projections): G is grouped first, and the second program, grouped by the
// same routing, reads its own bucketed row q of G directly rather than
// through slot[order[q]] (which is q).
// CHECK-DAG: #[[QK:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (d0, d2)>
// CHECK-LABEL: tile.program @routed2_route_ids
// CHECK-LABEL: tile.program @routed2_G
// CHECK-SAME: output_dims = ["routed(ids)", "F"]
// CHECK-LABEL: tile.program @routed2_Y_sum0
// CHECK-SAME: output_dims = ["routed(ids)", "C"]
// CHECK: ^bb0({{.*}}%[[G:arg4]]: memref<?x?xf32>, {{.*}}, %[[SLOT:arg8]]: memref<?x?xi32>, %[[BLOCKS2:arg9]]: memref<?xi32>
// Both skip the blocks that hold no row: neither reads them back.
// CHECK: tile.skip_if_negative %[[BLOCKS2]]
// CHECK-NOT: tile.load %[[SLOT]]
// CHECK: tile.load %[[G]][#[[QK]]] : memref<?x?xf32> -> vector<16x64xf32>
// CHECK-NOT: tile.load %[[SLOT]]
// CHECK: tile.store
// The last program reads both through slots.
// CHECK-LABEL: tile.program @routed2_Y
// CHECK: tile.load %[[SLOT]]
// CHECK: tile.plan @routed2
// CHECK-SAME: programs = [@routed2_route_ids, @routed2_G, @routed2_Y_sum0, @routed2_Y]
#map = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d0, d3)>
#map1 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d3, d2)>
#map3 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d0, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5] -> (d3, d1)>
#map6 = affine_map<(d0, d1, d2)[s0, s1, s2, s3, s4, s5] -> (d0, d1, d2)>
tile.program @routed2_G attributes {arg_names = ["X", "W", "V", "ids", "G", "Y_sum0", "Y"], output_dims = ["T", "J", "F"], schedule = #tile.schedule<tile = [1, 16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "C", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?x?xbf16>, %arg3: memref<?x?xi32>, %arg4: memref<?x?x?xf32>, %arg5: memref<?x?x?xf32>, %arg6: memref<?x?xf32>, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index):
  %0 = tile.reduce sum over(%arg8) : vector<1x16x64xf32> {
  ^bb0(%arg13: index):
    %1 = tile.load %arg0[#map] : memref<?x?xbf16> -> vector<1x16x64xbf16>
    %2 = arith.extf %1 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %3 = tile.load %arg3[#map1] : memref<?x?xi32> -> vector<1x16x64xi32>
    %4 = arith.index_cast %3 : vector<1x16x64xi32> to vector<1x16x64xindex>
    %5 = tile.load %arg1[#map2] indirect(%4) at [0] : memref<?x?x?xbf16>, vector<1x16x64xindex> -> vector<1x16x64xbf16>
    %6 = arith.extf %5 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %7 = arith.mulf %2, %6 : vector<1x16x64xf32>
    tile.yield %7 : vector<1x16x64xf32>
  }
  tile.store %0, %arg4 : vector<1x16x64xf32> -> memref<?x?x?xf32>
}
tile.program @routed2_Y_sum0 attributes {arg_names = ["X", "W", "V", "ids", "G", "Y_sum0", "Y"], output_dims = ["T", "C", "J"], schedule = #tile.schedule<tile = [1, 16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "C", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?x?xbf16>, %arg3: memref<?x?xi32>, %arg4: memref<?x?x?xf32>, %arg5: memref<?x?x?xf32>, %arg6: memref<?x?xf32>, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index):
  %0 = tile.reduce sum over(%arg10) : vector<1x16x64xf32> {
  ^bb0(%arg13: index):
    %1 = tile.load %arg4[#map3] : memref<?x?x?xf32> -> vector<1x16x64xf32>
    %2 = tile.load %arg3[#map4] : memref<?x?xi32> -> vector<1x16x64xi32>
    %3 = arith.index_cast %2 : vector<1x16x64xi32> to vector<1x16x64xindex>
    %4 = tile.load %arg2[#map5] indirect(%3) at [0] : memref<?x?x?xbf16>, vector<1x16x64xindex> -> vector<1x16x64xbf16>
    %5 = arith.extf %4 : vector<1x16x64xbf16> to vector<1x16x64xf32>
    %6 = arith.mulf %1, %5 : vector<1x16x64xf32>
    tile.yield %6 : vector<1x16x64xf32>
  }
  tile.store %0, %arg5 : vector<1x16x64xf32> -> memref<?x?x?xf32>
}
tile.program @routed2_Y attributes {arg_names = ["X", "W", "V", "ids", "G", "Y_sum0", "Y"], output_dims = ["T", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "D", "E", "F", "C", "J"]} {
^bb0(%arg0: memref<?x?xbf16>, %arg1: memref<?x?x?xbf16>, %arg2: memref<?x?x?xbf16>, %arg3: memref<?x?xi32>, %arg4: memref<?x?x?xf32>, %arg5: memref<?x?x?xf32>, %arg6: memref<?x?xf32>, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index):
  %0 = tile.reduce sum over(%arg12) : vector<16x64xf32> {
  ^bb0(%arg13: index):
    %1 = tile.load %arg5[#map6] : memref<?x?x?xf32> -> vector<16x64xf32>
    tile.yield %1 : vector<16x64xf32>
  }
  tile.store %0, %arg6 : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @routed2 {buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["E", "D", "F"], name = "W", role = "input", type = memref<?x?x?xbf16>}, {dims = ["E", "F", "C"], name = "V", role = "input", type = memref<?x?x?xbf16>}, {dims = ["T", "J"], name = "ids", role = "input", type = memref<?x?xi32>}, {dims = ["T", "J", "F"], name = "G", role = "workspace", type = memref<?x?x?xf32>}, {dims = ["T", "C", "J"], name = "Y_sum0", role = "workspace", type = memref<?x?x?xf32>}, {dims = ["T", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@routed2_G, @routed2_Y_sum0, @routed2_Y], sizes = ["T", "D", "E", "F", "C", "J"]}
