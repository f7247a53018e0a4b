// RUN: nautc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_80},convert-tile-to-gpu,canonicalize,cse)' | FileCheck %s

// The sm_80 pipeline of a contraction: 3 stages of swizzled shared memory
// per operand (in the dynamic shared memory, the lhs's then the rhs's, as
// memrefs in NVVM's address space 3 built from its pointer), cp.async
// copies 16 bytes (8 f16) at a time with a zero-filling source count, one
// commit a step, a wait for all but the newest group and a barrier, then
// ldmatrix (A with K innermost: plain; B with N innermost: transposed) and
// mma.sync m16n8k16; the 64 x 32 part of each of the 2 x 4 warps is 4 x 4
// instruction tiles, 64 accumulators a thread, stored where the mma
// accumulator layout puts them: two adjacent columns at a time.
// CHECK: llvm.mlir.global external @__nautilus_dynamic_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @gemm_C
// CHECK-NOT: workgroup(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @__nautilus_dynamic_shared : !llvm.ptr<3>
// CHECK: llvm.insertvalue %[[BASE]]
// CHECK: %[[SA:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)> to memref<12288xf16, 3>
// CHECK: %[[B:.*]] = llvm.getelementptr %[[BASE]][24576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.insertvalue %[[B]]
// CHECK: %[[SB:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)> to memref<12288xf16, 3>
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[SA]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32,
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[SA]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[SB]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-16: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// No wait after the loop: the groups still pending copy nothing.
// CHECK-NOT: nvvm.cp.async.wait.group 0
// CHECK: vector.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<?x?xf32>, vector<2xf32>
tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// The pipeline must fit a block's shared memory (an A100's 163 KiB, which
// it keeps to on sm_90 too).
tile.program @big attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [2, 4], stages = 6>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op needs 196608 bytes of shared memory for its pipeline; a block may use 166912 bytes of shared memory with mma.sync (an A100's) (use fewer stages, a smaller tile_k or a smaller tile)}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// Too many accumulators for a thread's registers.
tile.program @wide attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 256], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [2, 2], stages = 2>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op keeps 256 accumulators per thread; at most 128 leave room in the 255 registers of a thread (use more warps or a smaller tile)}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x256xf32>
  tile.store %acc, %c : vector<128x256xf32> -> memref<?x?xf32>
}

// -----

// A conversion moves the tile through shared memory: each thread writes its
// accumulators where the mma layout puts them, a pair of columns as one
// 8-byte vector (row-major, 16-byte aligned, rows padded by 8 floats: the
// least padding under which neither the pairs' writes nor the 16-byte
// reads conflict in the banks), a barrier, then the epilogue after the
// conversion runs as the elements are read back: each thread reads 4
// consecutive elements of a row as one 16-byte vector and stores them at
// once; no barrier after the last reads (nothing writes the buffer again:
// one is made for a persistent program's next tile, or a later
// conversion).
// CHECK-LABEL: gpu.func @converted
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<2560xf32, 3> {llvm.align = 16 : i64})
// CHECK-COUNT-8: vector.store %{{.*}}, %[[STAGING]][%{{.*}}] {alignment = 8 : i64} : memref<2560xf32, 3>, vector<2xf32>
// CHECK: gpu.barrier
// CHECK: %[[READ:.*]] = vector.load %[[STAGING]][%{{.*}}] {alignment = 16 : i64} : memref<2560xf32, 3>, vector<4xf32>
// CHECK: vector.store %[[READ]], %arg2[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-COUNT-3: vector.load %[[STAGING]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.program @converted attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 32], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [2, 2], stages = 2>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<64x32xf32>
  %rows = tile.convert_layout %acc : vector<64x32xf32> to #tile.linear<[64, 32], register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]]>
  tile.store %rows, %c : vector<64x32xf32> -> memref<?x?xf32>
}

// -----

// A residual read in the converted layout (tile-assign-layouts): each run
// of 4 elements is read back from shared memory (one vector), R's 4
// elements at the same places are read from global memory, added, and
// stored, before the next run's.
// CHECK-LABEL: gpu.func @residual
// CHECK-SAME: %[[STAGING:[^ ]*]] : memref<2560xf32, 3> {llvm.align = 16 : i64})
// CHECK-COUNT-8: vector.store %{{.*}}, %[[STAGING]]
// CHECK: gpu.barrier
// CHECK: vector.load %[[STAGING]]
// CHECK-COUNT-4: memref.load %arg2
// CHECK-COUNT-4: arith.addf
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: vector.load %[[STAGING]]
// CHECK-COUNT-4: memref.load %arg2
tile.program @residual attributes {arg_names = ["A", "B", "R", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 32], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 16, warps = [2, 2], stages = 2>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %r: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<64x32xf32>
  %rows = tile.convert_layout %acc : vector<64x32xf32> to #tile.linear<[64, 32], register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]]>
  %res = tile.load %r[affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>] {layout = #tile.linear<[64, 32], register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]]>} : memref<?x?xf32> -> vector<64x32xf32>
  %sum = arith.addf %rows, %res : vector<64x32xf32>
  tile.store %sum, %c : vector<64x32xf32> -> memref<?x?xf32>
}

// -----

// A computed lhs (P = exp(S - Mx) as bf16, times V): only V is copied with
// cp.async; each thread reads the S elements of its two 8-element chunks of
// the next K tile before the step's mma.sync (two 16-byte vector loads a
// chunk where it lies inside S on a 16-byte boundary, else element by
// element; Mx once a chunk: it does not vary along K), then finishes them
// (exp, rounding, zero past the edges) and stores each chunk into the
// swizzled stage with one 16-byte store.
// CHECK-LABEL: gpu.func @pv
// CHECK: %[[SP:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<12288xbf16, 3>
// CHECK: %[[SV:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<6144xbf16, 3>
// CHECK-NOT: nvgpu.device_async_copy %{{.*}}, %[[SP]]
// CHECK: scf.for {{.*}} iter_args
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[SV]]
// CHECK: nvvm.cp.async.commit.group
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: memref.load %arg0
// CHECK: nvvm.mma.sync
// CHECK: math.exp %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.store %{{.*}}, %[[SP]][%{{.*}}] {alignment = 16 : i64} : memref<12288xbf16, 3>, vector<8xbf16>
// CHECK: scf.yield
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

// -----

// swizzle = 0: the stages are stored unswizzled (no XOR in any shared
// address: the only XORs are the accumulator layout's element positions,
// computed up front), the same pipeline otherwise.
// CHECK-LABEL: gpu.func @unswizzled
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: arith.xori
// CHECK: nvgpu.ldmatrix
// CHECK-NOT: arith.xori
// CHECK: gpu.return
tile.program @unswizzled attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 2, swizzle = 0>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<64x64xf32>
  tile.store %acc, %c : vector<64x64xf32> -> memref<?x?xf32>
}

// -----

// A grouped GEMM's weights W[e, k, n], the expert an offset table's entry
// (`experts[m floordiv 128]`): read once a tile (past the table's end, an
// offset that puts the tile outside W), added to W's first index, and W is
// copied with cp.async like any loaded operand; the interior copies also
// need the expert inside W.
// CHECK-LABEL: gpu.func @grouped_C
// CHECK: %[[BLOCK:.*]] = arith.floordivsi %{{.*}}, %c128 : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[BLOCK]], %{{.*}} : index
// CHECK: %[[EXPERT:.*]] = scf.if %[[INSIDE]] -> (index) {
// CHECK-NEXT: %[[ENTRY:.*]] = memref.load %arg2[%[[BLOCK]]] : memref<?xi32>
// CHECK-NEXT: %[[CAST:.*]] = arith.index_cast %[[ENTRY]] : i32 to index
// CHECK-NEXT: scf.yield %[[CAST]] : index
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %c-1073741824 : index
// CHECK: %[[EXPERTS:.*]] = memref.dim %arg1, %c0 : memref<?x?x?xbf16>
// CHECK: arith.cmpi ult, %[[EXPERT]], %[[EXPERTS]] : index
// CHECK: nvgpu.device_async_copy %arg1[%[[EXPERT]], %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], 8 {bypassL1} : memref<?x?x?xbf16>
tile.program @grouped_C attributes {arg_names = ["A", "W", "experts", "C"], output_dims = ["R", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 3>>, sizes = ["R", "K", "N", "E"]} {
^bb0(%a: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %experts: memref<?xi32>, %c: memref<?x?xf32>, %r: index, %k: index, %n: index, %e: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0, d2)>], %w[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (0, d2, d1)>] offset(%experts[affine_map<(d0, d1, d2)[s0, s1, s2, s3] -> (d0 floordiv 128)>] at 0) over(%k) : memref<?x?xbf16>, memref<?x?x?xbf16>, memref<?xi32> -> vector<128x128xf32>
  tile.store %acc, %c : vector<128x128xf32> -> memref<?x?xf32>
}

// -----

// A move in two bands of columns (warps along M: each register's column
// block is known; 9 stages of 32 of K, 144 KiB, leave 19 KiB of the
// block's shared memory for the 34 KiB tile): each thread writes each element once, in its band, just
// after rounding it (32 a band, in pairs, no condition; rows of 64, their
// 16-byte chunks XOR-swizzled against bank conflicts, no padding), and the
// stores of a band follow its barrier; a barrier between the bands, none
// after the last; bands of rows would write all 64 in each band under a
// condition.
// CHECK-LABEL: gpu.func @column_bands
// CHECK-SAME: %[[STAGING:[^ ]*]] : memref<8192xbf16, 3> {llvm.align = 16 : i64})
// CHECK-COUNT-16: vector.store %{{.*}}, %[[STAGING]]{{.*}} vector<2xbf16>
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.store %{{.*}} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: gpu.barrier
// CHECK-COUNT-16: vector.store %{{.*}}, %[[STAGING]]{{.*}} vector<2xbf16>
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.store %{{.*}} : memref<?x?xbf16>, vector<8xbf16>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: vector.store %{{.*}}, %[[STAGING]]
// CHECK: gpu.return
tile.program @column_bands attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [8, 1], stages = 9>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  %blocks = tile.convert_layout %t : vector<128x128xbf16> to #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0], [0, 64]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0], [16, 0]]>
  tile.store %blocks, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}

// -----

// The same move with warps along N (and the same 19 KiB left): a
// register's column block depends on the warp, so the tile moves in two bands of 64 rows, each thread writing
// every element in each band under a condition (64 a band, one by one).
// CHECK-LABEL: gpu.func @row_bands
// CHECK-SAME: %[[STAGING:[^ ]*]] : memref<8192xbf16, 3> {llvm.align = 16 : i64})
// CHECK-COUNT-64: memref.store %{{.*}}, %[[STAGING]]
// CHECK: gpu.barrier
// CHECK-COUNT-64: memref.store %{{.*}}, %[[STAGING]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.store %{{.*}}, %[[STAGING]]
tile.program @row_bands attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [128, 128], threads = 256, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 4], stages = 9>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>, %m: index, %k: index, %n: index):
  %acc = tile.contract %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>], %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] over(%k) : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
  %t = arith.truncf %acc : vector<128x128xf32> to vector<128x128xbf16>
  %rows = tile.convert_layout %t : vector<128x128xbf16> to #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0], [64, 0]], lane = [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], warp = [[2, 0], [4, 0], [8, 0]]>
  tile.store %rows, %c : vector<128x128xbf16> -> memref<?x?xbf16>
}

// -----

// A split contraction steps through its chunk of K a stage at a time: the
// chunk must be whole steps.
tile.program @ragged_chunks attributes {arg_names = ["A", "B", "W"], output_dims = [4, "M", "N"], schedule = #tile.schedule<tile = [1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>>, sizes = ["M", "K", "N"]} {
^bb0(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %w: memref<?x?x?xf32>, %m: index, %k: index, %n: index):
  // expected-error @+1 {{'tile.contract' op splits K into chunks of 100, not a multiple of tile_k = 32}}
  %acc = tile.contract %a[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d1, d3)>], %b[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d3, d2)>] over(%k) chunks(100 along 0) : memref<?x?xf16>, memref<?x?xf16> -> vector<1x64x64xf32>
  tile.store %acc, %w : vector<1x64x64xf32> -> memref<?x?x?xf32>
}
