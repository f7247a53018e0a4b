// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-alg-to-tile{target=cpu})' | FileCheck %s --check-prefix=CPU
// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-alg-to-tile{target=sm_90})' | FileCheck %s --check-prefix=GPU

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

// GPU: schedule = #tile.schedule<tile = [16, 64], threads = 128>
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
