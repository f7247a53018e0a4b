// RUN: nautc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},convert-tile-to-gpu,canonicalize,cse)' | FileCheck %s

// The sm_90 pipeline of a contraction: the kernel takes a TMA tensor map
// for A and for B after its sizes; dynamic shared memory, 1024-byte
// aligned, holds 4 stages of 32 KiB (A 128 x 64, then B as two 64 x 64
// boxes, N being B's innermost index) and an mbarrier a stage. Thread 0
// initialises the mbarriers (fenced for the async proxy) and, 3 stages ahead, expects a stage's bytes
// and issues its copies (A one box at (k, m); B two at (n, k) and
// (n + 64, k)); every thread waits on the stage's parity, and each
// warpgroup issues 4 wgmma m64n128k16 (A K-major: row; B N-major: row),
// commits and waits before the block barrier that frees the stage.
// CHECK: llvm.mlir.global external @__nautilus_dynamic_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @gemm_C
// CHECK-SAME: %{{.*}}: index, %[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: llvm.mlir.addressof @__nautilus_dynamic_shared : !llvm.ptr<3>
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]], %{{.*}}, box[%c0_i32, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]], %{{.*}}, box[%{{.*}}, %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]], %{{.*}}, box[%{{.*}}, %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// CHECK: scf.for {{.*}} iter_args(
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: gpu.barrier
// CHECK-COUNT-64: memref.store %{{.*}}, %arg2
tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// B stored [N, K] (K innermost): one 128 x 64 box, K-major (col).
// CHECK-LABEL: gpu.func @bmm_nt_C
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
tile.program @bmm_nt_C attributes {arg_names = ["A", "B", "C"], output_dims = ["Z", "M", "N"], schedule = #tile.schedule<tile = [1, 64, 128], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4>>, sizes = ["Z", "M", "K", "N"]} {
^bb0(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>, %z: index, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0, d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0, d2, d3)>] over(%k) : memref<?x?x?xbf16>, memref<?x?x?xbf16> -> vector<1x64x128xf32>
  tile.store %acc, %c : vector<1x64x128xf32> -> memref<?x?x?xf32>
}

// -----

// Too many stages for a block's shared memory.
tile.program @deep attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 256], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 6>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op needs 294960 bytes of shared memory for its pipeline; a block may use 232448 bytes of shared memory on sm_90 (use fewer stages, a smaller tile_k or a smaller tile)}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x256xf32>
  tile.store %acc, %c : vector<128x256xf32> -> memref<?x?xf32>
}

// -----

// Warp specialised (producers = 1): warpgroup 0 (chosen by a warpgroup
// index broadcast from lane 0, so the branch is uniform) runs the copies,
// waiting on a stage's "empty" mbarrier from the second round on; the two
// consumer warpgroups wait on "full", keep one wgmma group in flight and
// release the previous stage; only they run the epilogue. group_m = 8
// rasterises the grid.
// CHECK-LABEL: gpu.func @specialised
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-COUNT-8: nvvm.mbarrier.init
// CHECK: %[[WG:.*]] = nvvm.shfl.sync idx
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[WG]], %c0_i32
// CHECK: scf.if %[[PRODUCER]]
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: } else {
// CHECK: scf.for {{.*}} iter_args(
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
// The last wait passes the accumulators through (inline PTX, each register
// tied in and out) so that the epilogue cannot read them before it.
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "{{(=f,)+}}0,1,{{.*}},63" %{{.*}} : (f32, {{.*}}) -> !llvm.struct<(f32,
// CHECK: %[[COMPUTING:.*]] = arith.cmpi uge, %{{.*}}, %c128
// CHECK: scf.if %[[COMPUTING]] {
// CHECK: memref.store
tile.program @specialised attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// Persistent: each block loops over the tiles block id + i x grid size;
// the producer thread's loop runs over its tiles and their K steps, the
// consumers' loop places each tile (rasterised coordinates) and runs the
// main loop and the epilogue for it.
// CHECK-LABEL: gpu.func @persistent
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: %[[BLOCKS:.*]] = gpu.grid_dim x
// CHECK: %[[WG:.*]] = nvvm.shfl.sync idx
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: vector.store
tile.program @persistent attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// A computed lhs (P = exp(S - Mx) as bf16) under a warp-specialised wgmma
// schedule: the kernel takes one tensor map (V's); the whole producer
// warpgroup (threads below 128) runs the producer loop: it evaluates P into
// the stage (16-byte stores), fences its writes for wgmma's async proxy,
// meets at named barrier 2, then its thread 0 announces only V's bytes
// (64 x 64 bf16 = 8192 of a 24576-byte stage) and copies V.
// CHECK-LABEL: gpu.func @pv
// CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?x?xbf16>, %{{.*}}: memref<?x?xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[VMAP:.*]]: !llvm.ptr)
// CHECK: %[[PRODUCING:.*]] = arith.cmpi ult, %{{.*}}, %c128
// CHECK: scf.if %[[PRODUCING]] {
// CHECK: scf.for
// CHECK: math.exp
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier id = %c2_i32 number_of_threads = %c128_i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[VMAP]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: } else {
// CHECK: nvvm.wgmma.mma_async
tile.program @pv attributes {arg_names = ["S", "Mx", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [128, 64], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, producers = 1>>, sizes = ["N", "M", "D"]} {
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

// -----

// Without a producer warpgroup, nothing evaluates a computed operand.
tile.program @pv_unspecialised attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [4, 1], stages = 4>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  // expected-error @+1 {{'tile.contract' op has a computed operand, which a wgmma schedule evaluates in its producer warpgroup (use producers = 1)}}
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<64x64xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<64x64xf32>
    %p = arith.truncf %x : vector<64x64xf32> to vector<64x64xbf16>
    tile.yield %p : vector<64x64xbf16>
  }
  tile.store %acc, %o : vector<64x64xf32> -> memref<?x?xf32>
}

// -----

// The same grouped GEMM on wgmma (persistent, warp specialised): the
// producer reads the tile's expert once, before its loop over K, and puts
// it in the outermost TMA coordinate of W's boxes (two 64-column boxes of
// the N-major operand).
// A block of rows with no expert (entry -1, or past the table) is skipped:
// the producer's and the consumers' loops over their tiles count the tiles
// that run, and number the pipeline's steps by that count, so that stages
// and mbarrier phases carry on over skipped tiles.
// CHECK-LABEL: gpu.func @grouped_C
// CHECK: nvvm.fence.proxy.acquire <sys> %arg8, %{{.*}}
// CHECK-NEXT: nvvm.fence.proxy.acquire <sys> %arg9, %{{.*}}
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[RAN:.*]] = %c0) -> (index) {
// CHECK: %[[ENTRY:.*]] = scf.if %{{.*}} -> (index) {
// CHECK: memref.load %arg2
// CHECK: scf.yield %c-1 : index
// CHECK: %[[RUNS:.*]] = arith.cmpi sge, %[[ENTRY]], %c0 : index
// CHECK: scf.if %[[RUNS]] {
// CHECK: %[[EXPERT:.*]] = scf.if %{{.*}} -> (index) {
// CHECK: memref.load %arg2[%{{.*}}] : memref<?xi32>
// CHECK: %[[FIRST:.*]] = arith.muli %[[RAN]], %{{.*}} : index
// CHECK: scf.for %[[STEP:.*]] = %c0
// CHECK: arith.addi %[[FIRST]], %[[STEP]] : index
// CHECK: %[[E32:.*]] = arith.index_cast %[[EXPERT]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg9, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[E32]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg9, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[E32]]]
// CHECK: %[[ONE:.*]] = arith.select %[[RUNS]], %c1, %c0 : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[RAN]], %[[ONE]] : index
// CHECK: scf.yield %[[NEXT]] : index
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %c0) -> (index) {
// CHECK: arith.cmpi sge, %{{.*}}, %c0 : index
tile.program @grouped_C attributes {arg_names = ["A", "W", "experts", "C"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4, group_m = 8, producers = 1, persistent = 1>>, sizes = ["R", "K", "N", "E"]} {
^bb0(%a: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %experts: memref<?xi32>, %c: memref<?x?xf32>, %r: index, %k: index, %n: index, %e: index):
  tile.skip_if_negative %experts[affine_map<(d0, d1)[s0, s1, s2, s3] -> (d0 floordiv 128)>] : memref<?xi32>
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (0, d2, d1)>] offset(%experts[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0 floordiv 128)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// A 128 x 256 tile keeps 128 accumulators a consumer thread: with a
// producer that computes an operand (and so keeps its registers), the 168
// registers of an even split leave room for 72.
tile.program @pv attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [128, 256], threads = 384, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 3, group_m = 8, producers = 1, persistent = 1>>, sizes = ["N", "M", "D"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %m: index, %d: index):
  // expected-error @+1 {{'tile.contract' op keeps 128 accumulators per thread; at most 72 leave room in the 168 registers of a thread (use more warps or a smaller tile; only a persistent producer warpgroup that just copies gives its registers to the consumers)}}
  %acc = tile.contract computed, %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%m) : memref<?x?xbf16> -> vector<128x256xf32> lhs {
  ^bb0(%k: index):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<128x256xf32>
    %e = math.exp %x : vector<128x256xf32>
    %p = arith.truncf %e : vector<128x256xf32> to vector<128x256xbf16>
    tile.yield %p : vector<128x256xbf16>
  }
  tile.store %acc, %o : vector<128x256xf32> -> memref<?x?xf32>
}
