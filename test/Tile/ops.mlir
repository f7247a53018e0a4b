// RUN: nautc-opt %s | nautc-opt | FileCheck %s

// CHECK-LABEL: tile.program @rowsum
// CHECK-SAME: schedule = #tile.schedule<tile = [8, 16], threads = 1>
tile.program @rowsum attributes {arg_names = ["X", "Y"], output_dims = ["R", 4], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x4xf32>, %r: index, %c: index):
  // CHECK: tile.index 0 : vector<8x16xindex>
  %i = tile.index 0 : vector<8x16xindex>
  // CHECK: tile.reduce sum over(%{{.*}}) : vector<8x16xf32>
  %s = tile.reduce sum over(%c) : vector<8x16xf32> {
  ^bb0(%k: index):
    // CHECK: tile.load %{{.*}}[#{{.*}}] : memref<?x?xf32> -> vector<8x16xf32>
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    tile.yield %v : vector<8x16xf32>
  }
  // CHECK: tile.store %{{.*}}, %{{.*}} : vector<8x16xf32> -> memref<?x4xf32>
  tile.store %s, %y : vector<8x16xf32> -> memref<?x4xf32>
}

// A CPU contraction whose rhs is packed into panels.
// CHECK-LABEL: tile.program @packed
// CHECK-SAME: schedule = #tile.schedule<tile = [8, 32], threads = 1, pack = true>
tile.program @packed attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [8, 32], threads = 1, pack = true>, sizes = ["M", "N", "K"]} {
^bb0(%a: memref<?x?xf32>, %bm: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %s = tile.reduce sum over(%k) : vector<8x32xf32> {
  ^bb0(%kk: index):
    %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x32xf32>
    %y = tile.load %bm[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x32xf32>
    %p = arith.mulf %x, %y : vector<8x32xf32>
    tile.yield %p : vector<8x32xf32>
  }
  tile.store %s, %c : vector<8x32xf32> -> memref<?x?xf32>
}

// And its reduction folded in blocks of 512 (reduce_block).
// CHECK-LABEL: tile.program @packed_in_blocks
// CHECK-SAME: schedule = #tile.schedule<tile = [6, 64], threads = 1, pack = true, reduce_block = 512>
tile.program @packed_in_blocks attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [6, 64], threads = 1, pack = true, reduce_block = 512>, sizes = ["M", "N", "K"]} {
^bb0(%a: memref<?x?xf32>, %bm: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %s = tile.reduce sum over(%k) : vector<6x64xf32> {
  ^bb0(%kk: index):
    %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<6x64xf32>
    %y = tile.load %bm[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<6x64xf32>
    %p = arith.mulf %x, %y : vector<6x64xf32>
    tile.yield %p : vector<6x64xf32>
  }
  tile.store %s, %c : vector<6x64xf32> -> memref<?x?xf32>
}

// A store into a buffer over part of the output's dimensions: the rows'
// values, from the instances at column 0.
// CHECK-LABEL: tile.program @row_and_rows
tile.program @row_and_rows attributes {arg_names = ["X", "Y", "Z"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %z: memref<?xf32>, %r: index, %c: index):
  %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
  %w = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, 0)>] : memref<?x?xf32> -> vector<8x16xf32>
  tile.store %v, %y : vector<8x16xf32> -> memref<?x?xf32>
  // CHECK: tile.store %{{.*}}, %{{.*}} along [0] : vector<8x16xf32> -> memref<?xf32>
  tile.store %w, %z along [0] : vector<8x16xf32> -> memref<?xf32>
}

// Groups of 64 threads share each reduction (reduce_threads); 1 is the
// default and not printed.
// CHECK-LABEL: tile.program @rowsum_shared
// CHECK-SAME: schedule = #tile.schedule<tile = [2], threads = 128, reduce_threads = 64>
tile.program @rowsum_shared attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [2], threads = 128, reduce_threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?xf32>, %r: index, %c: index):
  %s = tile.reduce sum over(%c) : vector<2xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<2xf32>
    tile.yield %v : vector<2xf32>
  }
  tile.store %s, %y : vector<2xf32> -> memref<?xf32>
}
// A reduction split across programs: the schedule asks for it, and a
// split reduction folds a chunk of its outermost index.
// CHECK-LABEL: tile.program @rowsum_split
// CHECK-SAME: schedule = #tile.schedule<tile = [1, 1], threads = 64, reduce_threads = 64, reduce_split = 8>
// CHECK: tile.reduce max over(%{{.*}}) chunks(4096 along 1) : vector<1x1xf32>
tile.program @rowsum_split attributes {arg_names = ["X", "Y"], output_dims = ["R", 8], schedule = #tile.schedule<tile = [1, 1], threads = 64, reduce_threads = 64, reduce_split = 8>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x8xf32>, %r: index, %c: index):
  %s = tile.reduce max over(%c) chunks(4096 along 1) : vector<1x1xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : memref<?x?xf32> -> vector<1x1xf32>
    tile.yield %v : vector<1x1xf32>
  }
  tile.store %s, %y : vector<1x1xf32> -> memref<?x8xf32>
}
// Interleaved groups print their kind; consecutive ones (the default) not.
// CHECK-LABEL: tile.program @colsum_interleaved
// CHECK-SAME: schedule = #tile.schedule<tile = [32], threads = 256, reduce_threads = 8, reduce_groups = "interleaved">
tile.program @colsum_interleaved attributes {arg_names = ["Y"], output_dims = ["C"], schedule = #tile.schedule<tile = [32], threads = 256, reduce_threads = 8, reduce_groups = "interleaved">, sizes = ["C"]} {
^bb0(%y: memref<?xf32>, %c: index):
}
// Runs of consecutive elements a thread (vector) print; vector = 1 not.
// CHECK-LABEL: tile.program @scaled_runs
// CHECK-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>
tile.program @scaled_runs attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xbf16>, %r: index, %c: index):
}
// With groups, runs of a shared reduction's iterations; printed last.
// CHECK-LABEL: tile.program @rows_runs
// CHECK-SAME: schedule = #tile.schedule<tile = [1], threads = 256, reduce_threads = 256, vector = 8>
tile.program @rows_runs attributes {arg_names = ["Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 256, vector = 8, reduce_threads = 256>, sizes = ["R"]} {
^bb0(%y: memref<?xbf16>, %r: index):
}
// CHECK-LABEL: tile.program @scaled_elements
// CHECK-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128>,
tile.program @scaled_elements attributes {arg_names = ["Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 1>, sizes = ["R", "C"]} {
^bb0(%y: memref<?x?xbf16>, %r: index, %c: index):
}
// CHECK-LABEL: tile.program @colsum_consecutive
// CHECK-SAME: schedule = #tile.schedule<tile = [32], threads = 256, reduce_threads = 8>,
tile.program @colsum_consecutive attributes {arg_names = ["Y"], output_dims = ["C"], schedule = #tile.schedule<tile = [32], threads = 256, reduce_threads = 8, reduce_groups = "consecutive">, sizes = ["C"]} {
^bb0(%y: memref<?xf32>, %c: index):
}
// CHECK-LABEL: tile.program @rowsum_unshared
// CHECK-SAME: schedule = #tile.schedule<tile = [2], threads = 2>,
tile.program @rowsum_unshared attributes {arg_names = ["Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [2], threads = 2, reduce_threads = 1>, sizes = ["R"]} {
^bb0(%y: memref<?xf32>, %r: index):
}

// CHECK-LABEL: tile.program @gather
tile.program @gather attributes {arg_names = ["W", "ids", "G"], output_dims = ["T", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "E", "D"]} {
^bb0(%w: memref<?x?xbf16>, %ids: memref<?xi32>, %g: memref<?x?xbf16>, %t: index, %e: index, %d: index):
  %i = tile.load %ids[affine_map<(d0, d1)[s0, s1, s2] -> (d0)>] : memref<?xi32> -> vector<16x64xi32>
  %ii = arith.index_cast %i : vector<16x64xi32> to vector<16x64xindex>
  // CHECK: tile.load %{{.*}}[#{{.*}}] indirect(%{{.*}}) at [0] : memref<?x?xbf16>, vector<16x64xindex> -> vector<16x64xbf16>
  %v = tile.load %w[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] indirect(%ii) at [0] : memref<?x?xbf16>, vector<16x64xindex> -> vector<16x64xbf16>
  tile.store %v, %g : vector<16x64xbf16> -> memref<?x?xbf16>
}

// CHECK: tile.plan @k {buffers = [{dims = ["N"], name = "X", role = "input", type = memref<?xf32>}], programs = [@rowsum], sizes = ["N"]}
tile.plan @k {buffers = [{dims = ["N"], name = "X", role = "input", type = memref<?xf32>}], programs = [@rowsum], sizes = ["N"]}

// A contraction on tensor cores: the mma schedule and tile.contract print
// and parse back.
// CHECK-LABEL: tile.program @gemm_C
// CHECK-SAME: schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>
// CHECK: %[[C:.*]] = tile.contract %{{.*}}[#{{.*}}], %{{.*}}[#{{.*}}] over(%{{.*}}) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x64xf32>
// CHECK: tile.store %[[C]]
tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<128x64xf32>
  tile.store %acc, %c : vector<128x64xf32> -> memref<?x?xf32>
}

// A schedule asking for split K, and a split contraction (each program
// along dimension 0 sums its chunk of 512 of K).
// CHECK-LABEL: tile.program @split_C_partial
// CHECK-SAME: mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3, split_k = 4>
// CHECK: tile.contract %{{.*}}[#{{.*}}], %{{.*}}[#{{.*}}] over(%{{.*}}) chunks(512 along 0) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<1x128x64xf32>
tile.program @split_C_partial attributes {arg_names = ["A", "B", "W"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [1, 128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3, split_k = 4>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %w: memref<?x?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) chunks(512 along 0) : memref<?x?xbf16>, memref<?x?xbf16> -> vector<1x128x64xf32>
  tile.store %acc, %w : vector<1x128x64xf32> -> memref<?x?x?xf32>
}

// A contraction whose lhs is computed by a region (attention's P = exp(S -
// Mx), rounded to bf16, times V): `computed`, the loaded operand's type, and
// the region after the result type.
// CHECK-LABEL: tile.program @pv
// CHECK: tile.contract computed, %{{.*}}[#{{.*}}] over(%{{.*}}) : memref<?x?xbf16> -> vector<128x64xf32> lhs {
// CHECK-NEXT: ^bb0(%[[K:.*]]: index):
// CHECK: math.exp
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : vector<128x64xf32> to vector<128x64xbf16>
// CHECK-NEXT: tile.yield %[[P]] : vector<128x64xbf16>
// CHECK-NEXT: }
tile.program @pv attributes {arg_names = ["S", "Mx", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [128, 64], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %mx: memref<?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<128x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x64xf32>
    %mxv = tile.load %mx[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0)>] : memref<?xf32> -> vector<128x64xf32>
    %y = arith.subf %x, %mxv : vector<128x64xf32>
    %e = math.exp %y : vector<128x64xf32>
    %p = arith.truncf %e : vector<128x64xf32> to vector<128x64xbf16>
    tile.yield %p : vector<128x64xbf16>
  }
  tile.store %acc, %o : vector<128x64xf32> -> memref<?x?xf32>
}

// Both operands computed: no buffer types before the arrow, two regions.
// CHECK-LABEL: tile.program @both_computed
// CHECK: tile.contract computed, computed over(%{{.*}}) : -> vector<64x64xf32> lhs {
// CHECK: } rhs {
tile.program @both_computed attributes {arg_names = ["O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["N", "M", "D"]} {
^bb0(%o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  %acc = tile.contract computed, computed over(%m) : -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    %c = arith.constant dense<1.0> : vector<64x64xbf16>
    tile.yield %c : vector<64x64xbf16>
  } rhs {
  ^bb0(%k: index):
    %c = arith.constant dense<2.0> : vector<64x64xbf16>
    tile.yield %c : vector<64x64xbf16>
  }
  tile.store %acc, %o : vector<64x64xf32> -> memref<?x?xf32>
}

// A tile moved to another distribution: the mma.sync accumulator layout of
// a 16 x 8 tile (one warp) and a row-per-lane-group layout.
// CHECK-LABEL: tile.program @relayout
// CHECK: tile.convert_layout %{{.*}} : vector<16x8xf32> to <[16, 8], register = {{\[\[}}0, 1], [0, 2]], lane = {{\[\[}}0, 4], [1, 0], [2, 0], [4, 0], [8, 0]], warp = []>
tile.program @relayout attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [16, 8], threads = 32, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [1, 1], stages = 2>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<16x8xf32>
  %rows = tile.convert_layout %acc : vector<16x8xf32> to #tile.linear<[16, 8], register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0]], warp = []>
  tile.store %rows, %c : vector<16x8xf32> -> memref<?x?xf32>
}

// A routing program; and a grouped GEMM's rhs reading its block's expert
// (`d0 floordiv 128`: the same over a 64-row tile).
// CHECK-LABEL: tile.program @route
// CHECK: tile.route %{{.*}} experts(%{{.*}}) block 128 -> order %{{.*}}, slot %{{.*}}, block_experts %{{.*}}, starts %{{.*}} : memref<?x?xi32>, memref<?xi32>, memref<?x?xi32>, memref<?xi32>, memref<?xi32>
tile.program @route attributes {arg_names = ["ids", "order", "slot", "blocks", "starts"], output_dims = [256], schedule = #tile.schedule<tile = [256], threads = 256>, sizes = ["E"]} {
^bb0(%ids: memref<?x?xi32>, %order: memref<?xi32>, %slot: memref<?x?xi32>, %blocks: memref<?xi32>, %starts: memref<?xi32>, %e: index):
  tile.route %ids experts(%e) block 128 -> order %order, slot %slot, block_experts %blocks, starts %starts : memref<?x?xi32>, memref<?xi32>, memref<?x?xi32>, memref<?xi32>, memref<?xi32>
}

// CHECK-LABEL: tile.program @grouped
// CHECK: tile.contract %{{.*}}[#{{.*}}], computed over
tile.program @grouped attributes {arg_names = ["X", "W", "B"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %m: index, %n: index, %k: index):
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], computed over(%k) : memref<?x?xbf16> -> vector<64x64xf32> rhs {
  ^bb0(%kk: index):
    %e = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 128)>] : memref<?xi32> -> vector<64x64xi32>
    %ei = arith.index_cast %e : vector<64x64xi32> to vector<64x64xindex>
    %v = tile.load %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] indirect(%ei) at [0] : memref<?x?x?xbf16>, vector<64x64xindex> -> vector<64x64xbf16>
    tile.yield %v : vector<64x64xbf16>
  }
}

// A loaded operand with an offset table (a grouped GEMM's expert, one a
// block of 128 rows), printed after its map and typed after its buffer.
// CHECK-LABEL: tile.program @grouped_offset
// CHECK: tile.contract %{{.*}}[#{{.*}}], %[[W:.*]][#{{.*}}] offset(%[[B:.*]][#{{.*}}] at 0) over(%{{.*}}) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
tile.program @grouped_offset attributes {arg_names = ["X", "W", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "N", "K"]} {
^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %b: memref<?xi32>, %c: memref<?x?xf32>, %m: index, %n: index, %k: index):
  %acc = tile.contract %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (0, d2, d1)>] offset(%b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 floordiv 128)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}

// A program over bucketed rows skips the blocks that hold none: constants
// and loads may come first, the entry is the same over a 64-row tile.
// CHECK-LABEL: tile.program @skips_unrouted_blocks
// CHECK: tile.skip_if_negative %{{.*}}[#{{.*}}] : memref<?xi32>
// CHECK-NEXT: tile.load
tile.program @skips_unrouted_blocks attributes {arg_names = ["blocks", "Y"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128>, sizes = ["R", "N"]} {
^bb0(%blocks: memref<?xi32>, %y: memref<?x?xf32>, %r: index, %n: index):
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  tile.skip_if_negative %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32>
  %e = tile.load %blocks[affine_map<(d0, d1)[s0, s1] -> (d0 floordiv 128)>] : memref<?xi32> -> vector<64x64xi32>
  tile.store %zero, %y : vector<64x64xf32> -> memref<?x?xf32>
}

// A row's elements written after its reduction, at each point of C.
// CHECK-LABEL: tile.program @swept
// CHECK: tile.sweep over(%{{.*}}) into %{{.*}}[#{{.*}}] : memref<?x?xf32> {
// CHECK: tile.yield %{{.*}} : vector<4xf32>
tile.program @swept attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 128, reduce_threads = 32>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %r: index, %c: index):
  %s = tile.reduce sum over(%c) : vector<4xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
  tile.sweep over(%c) into %y[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %q = arith.divf %v, %s : vector<4xf32>
    tile.yield %q : vector<4xf32>
  }
}

// Copies of a program launched where sizes are in ranges (the
// auto-scheduler's choice at launch among schedules).
// CHECK-LABEL: tile.program @scaled_N_from_8
// CHECK-SAME: launch_ranges = [#tile.size_range<size = "N", at_least = 8>]
tile.program @scaled_N_from_8 attributes {arg_names = ["X", "Y"], launch_ranges = [#tile.size_range<size = "N", at_least = 8>], output_dims = ["N"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %n: index):
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<8xf32>
  tile.store %v, %y : vector<8xf32> -> memref<?xf32>
}
// CHECK-LABEL: tile.program @scaled_N_below_8
// CHECK-SAME: launch_ranges = [#tile.size_range<size = "N", below = 8>]
tile.program @scaled_N_below_8 attributes {arg_names = ["X", "Y"], launch_ranges = [#tile.size_range<size = "N", below = 8>], output_dims = ["N"], schedule = #tile.schedule<tile = [1], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %n: index):
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<1xf32>
  tile.store %v, %y : vector<1xf32> -> memref<?xf32>
}
// CHECK-LABEL: tile.program @scaled_N_2_to_8
// CHECK-SAME: launch_ranges = [#tile.size_range<size = "N", at_least = 2, below = 8>]
tile.program @scaled_N_2_to_8 attributes {arg_names = ["X", "Y"], launch_ranges = [#tile.size_range<size = "N", at_least = 2, below = 8>], output_dims = ["N"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %n: index):
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<4xf32>
  tile.store %v, %y : vector<4xf32> -> memref<?xf32>
}
// CHECK-LABEL: tile.program @scaled_N_from_8_M_below_4
// CHECK-SAME: launch_ranges = [#tile.size_range<size = "N", at_least = 8>, #tile.size_range<size = "M", below = 4>]
tile.program @scaled_N_from_8_M_below_4 attributes {arg_names = ["X", "Y"], launch_ranges = [#tile.size_range<size = "N", at_least = 8>, #tile.size_range<size = "M", below = 4>], output_dims = ["N"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["N", "M"]} {
^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %n: index, %m: index):
  %v = tile.load %x[affine_map<(d0)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<8xf32>
  tile.store %v, %y : vector<8xf32> -> memref<?xf32>
}
