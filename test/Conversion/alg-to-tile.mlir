// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},convert-alg-to-tile)' | FileCheck %s --check-prefix=CPU
// RUN: nautc-opt %s -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},convert-alg-to-tile)' | FileCheck %s --check-prefix=GPU

// CPU-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>
// CPU-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>
// CPU-LABEL: tile.program @gemm_C
// CPU-SAME: arg_names = ["A", "B", "bias", "C"], output_dims = ["M", "N"]
// CPU-SAME: schedule = #tile.schedule<tile = [{{[0-9]+}}, {{[0-9]+}}], threads = 1>
// CPU: ^bb0(%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[BIAS:.*]]: memref<?xf32>, %[[C:.*]]: memref<?x?xf32>, %{{.*}}: index, %[[K:.*]]: index, %{{.*}}: index):
// CPU: %[[ACC:.*]] = tile.reduce sum over(%[[K]]) : vector<[[T:.*]]xf32> {
// CPU: tile.load %[[A]][#[[MA]]] : memref<?x?xf16> -> vector<[[T]]xf16>
// CPU: tile.load %[[B]][#[[MB]]] : memref<?x?xf16> -> vector<[[T]]xf16>
// CPU: arith.mulf {{.*}} : vector<[[T]]xf32>
// CPU: tile.yield
// CPU: %[[BV:.*]] = tile.load %[[BIAS]]
// CPU: %[[SUM:.*]] = arith.addf %[[ACC]], %[[BV]] : vector<[[T]]xf32>
// CPU: tile.store %[[SUM]], %[[C]] : vector<[[T]]xf32> -> memref<?x?xf32>
// CPU: tile.plan @gemm {buffers = [{dims = ["M", "K"], name = "A", role = "input", type = memref<?x?xf16>}, {dims = ["K", "N"], name = "B", role = "input", type = memref<?x?xf16>}, {dims = ["N"], name = "bias", role = "input", type = memref<?xf32>}, {dims = ["M", "N"], name = "C", role = "output", type = memref<?x?xf32>}], programs = [@gemm_C], sizes = ["M", "K", "N"]}

// On a GPU each thread holds runs of 8 consecutive elements of a row
// (vector = 8: 16 bytes of B's f16 row a load; A's element is the same
// for a whole run).
// GPU: schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>
alg.kernel @gemm sizes ["M", "K", "N"] {
  %a = alg.input "A" dims ["M", "K"] : tensor<?x?xf16>
  %b = alg.input "B" dims ["K", "N"] : tensor<?x?xf16>
  %bias = alg.input "bias" dims ["N"] : tensor<?xf32>
  %c = alg.define "C" dims ["M", "N"] reduce sum over ["K"] : tensor<?x?xf32> {
  ^bb0(%m: index, %n: index, %k: index):
    %x = alg.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf16> -> f16
    %y = alg.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : tensor<?x?xf16> -> f16
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    alg.yield %p : f32
  } epilogue {
  ^bb0(%m: index, %n: index, %acc: f32):
    %v = alg.load %bias[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] : tensor<?xf32> -> f32
    %s = arith.addf %acc, %v : f32
    alg.yield %s : f32
  }
  alg.return %c : tensor<?x?xf32>
}

// Bound sizes shrink the tile to the extent (rounded up to a power of two),
// and a workspace holds an intermediate.
// CPU-LABEL: tile.program @small_T
// CPU-SAME: schedule = #tile.schedule<tile = [4], threads = 1>
// CPU: tile.index 0 : vector<4xindex>
// CPU: tile.plan @small {bindings = {N = 3 : i64}, buffers = [{dims = ["N"], name = "X", role = "input", type = memref<?xf32>}, {dims = ["N"], name = "T", role = "workspace", type = memref<?xf32>}, {dims = ["N"], name = "Y", role = "output", type = memref<?xf32>}]
alg.kernel @small sizes ["N"] attributes {bindings = {N = 3 : i64}} {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  %t = alg.define "T" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %v, %f : f32
    alg.yield %s : f32
  }
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %t[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// A row reduction over a bound extent of 4096 on a GPU takes groups of 256
// threads (4096 / 16 iterations, at most 256) share each row; the tile
// shrinks to one row so that its group fits a block of 256 (and the 8
// rows make 8 programs); each thread takes runs of 4 consecutive f32 of
// the row (vector = 4: one 16-byte load). The CPU takes the plain default.
// GPU-LABEL: tile.program @rows_S
// GPU-SAME: schedule = #tile.schedule<tile = [1], threads = 256, reduce_threads = 256, vector = 4>
// GPU-LABEL: tile.program @rows_Short
// GPU-SAME: schedule = #tile.schedule<tile = [8], threads = 8>
// A bound GEMM (A's row is shared by the tile's columns): no groups.
// GPU-LABEL: tile.program @rows_G
// GPU-SAME: schedule = #tile.schedule<tile = [8, 16], threads = 128>
// A column sum over 4096 rows of 16 columns: interleaved groups of 16 (a
// warp reads 16 consecutive columns of two rows), the one program split
// 16 ways (each thread then 16 rows).
// GPU-LABEL: tile.program @rows_Cols
// GPU-SAME: schedule = #tile.schedule<tile = [16], threads = 256, reduce_threads = 16, reduce_split = 16, reduce_groups = "interleaved">
// CPU-LABEL: tile.program @rows_S
// CPU-SAME: schedule = #tile.schedule<tile = [{{[0-9]+}}], threads = 1>
alg.kernel @rows sizes ["R", "C"] attributes {bindings = {C = 4096 : i64, R = 8 : i64}} {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  %w = alg.input "W" dims ["C", 16] : tensor<?x16xf32>
  %s = alg.define "S" dims ["R"] reduce sum over ["C"] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  // Rows of 32: fewer than the 64 elements a shared reduction needs.
  %short = alg.define "Short" dims ["R"] reduce max over [32] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  %g = alg.define "G" dims ["R", 16] reduce sum over ["C"] : tensor<?x16xf32> {
  ^bb0(%r: index, %n: index, %c: index):
    %a = alg.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d0, d2)>] : tensor<?x?xf32> -> f32
    %b = alg.load %w[affine_map<(d0, d1, d2)[s0, s1] -> (d2, d1)>] : tensor<?x16xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  %cols = alg.define "Cols" dims [16] reduce sum over ["C"] : tensor<16xf32> {
  ^bb0(%n: index, %c: index):
    %v = alg.load %w[affine_map<(d0, d1)[s0, s1] -> (d1, d0)>] : tensor<?x16xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %s, %short, %g, %cols : tensor<?xf32>, tensor<?xf32>, tensor<?x16xf32>, tensor<16xf32>
}

// One row of 131072 (a softmax over a vocabulary at a decoding step): a
// group of 256 threads would take 512 iterations each, so the reduction is
// also split across 32 programs (each thread then 16 iterations; 32
// programs within 4 a multiprocessor).
// GPU-LABEL: tile.program @vocab_M
// GPU-SAME: schedule = #tile.schedule<tile = [1], threads = 256, reduce_threads = 256, reduce_split = 32, vector = 4>
alg.kernel @vocab sizes ["R", "C"] attributes {bindings = {C = 131072 : i64, R = 1 : i64}} {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  %m = alg.define "M" dims ["R"] reduce max over ["C"] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %m : tensor<?xf32>
}

// Runs for elementwise programs: 16 bytes of the narrowest element read or
// written along the rows (bf16: 8, f32: 4), as many as a thread holds
// (the row's f32 weight W is one load a run); none when a
// read runs across the rows (a transpose), where runs would spread a
// warp's reads; none on the CPU.
// GPU-LABEL: tile.program @runs_Scaled
// GPU-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 8>
// GPU-LABEL: tile.program @runs_Wide
// GPU-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 4>
// GPU-LABEL: tile.program @runs_Transposed
// GPU-SAME: schedule = #tile.schedule<tile = [16, 64], threads = 128>
// CPU-LABEL: tile.program @runs_Scaled
// CPU-NOT: vector =
// CPU: tile.plan @runs
alg.kernel @runs sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xbf16>
  %w = alg.input "W" dims ["R"] : tensor<?xf32>
  %y = alg.input "Y" dims ["R", "C"] : tensor<?x?xf32>
  %scaled = alg.define "Scaled" dims ["R", "C"] : tensor<?x?xbf16> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xbf16> -> bf16
    %vf = arith.extf %v : bf16 to f32
    %g = alg.load %w[affine_map<(d0, d1)[s0, s1] -> (d0)>] : tensor<?xf32> -> f32
    %p = arith.mulf %vf, %g : f32
    %t = arith.truncf %p : f32 to bf16
    alg.yield %t : bf16
  }
  %wide = alg.define "Wide" dims ["R", "C"] : tensor<?x?xf32> {
  ^bb0(%r: index, %c: index):
    %v = alg.load %y[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %d = arith.addf %v, %v : f32
    alg.yield %d : f32
  }
  %transposed = alg.define "Transposed" dims ["C", "R"] : tensor<?x?xbf16> {
  ^bb0(%c: index, %r: index):
    %v = alg.load %scaled[affine_map<(d0, d1)[s0, s1] -> (d1, d0)>] : tensor<?x?xbf16> -> bf16
    alg.yield %v : bf16
  }
  alg.return %wide, %transposed : tensor<?x?xf32>, tensor<?x?xbf16>
}
