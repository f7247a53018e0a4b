// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu,canonicalize,cse)' | FileCheck %s

// Attention's scores recomputed in the stream (sum[d] Q[n, d] * K[m, d],
// bf16). Q's column over the tile's 8 rows does not depend on the key: it
// is gathered once an instance, a point at a time, into a scratch [D, 8]
// (f32, widened), and each block's step loads it as one vector. K's
// element at each point is a key's own, contiguous along d and widened:
// each block widens its 8 keys' rows 16 values at a time into a scratch
// [8, D rounded up to 16], and the scores' loop reads one f32 a key and a
// point, broadcast to the column. Both buffers are allocated before the
// loop over the program ids and freed after it.
// CHECK-LABEL: func.func @attn_O(
// CHECK-DAG: %[[QS:.*]] = memref.alloc(%arg5) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK-DAG: %[[KS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<8x?xf32>
// CHECK: scf.for %{{.*}} = %arg7 to %arg8
// The staging of Q, once an instance: 8 clamped scalar loads a point.
// CHECK: scf.for %[[P:.*]] = %c0 to %arg5 step %c1
// CHECK-COUNT-8: memref.load %arg0
// CHECK: %[[COL:.*]] = arith.extf %{{.*}} : vector<8x1xbf16> to vector<8x1xf32>
// CHECK: %[[FLAT:.*]] = vector.shape_cast %[[COL]] : vector<8x1xf32> to vector<8xf32>
// CHECK: vector.store %[[FLAT]], %[[QS]][%[[P]], %c0] : memref<?x8xf32>, vector<8xf32>
// The blocks of 8 keys: K's rows widened, 16 values of each at a time.
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c8
// CHECK: scf.for %[[C:.*]] = %c0 to %arg5 step %c16
// CHECK-COUNT-8: vector.maskedload %{{.*}} : memref<?xbf16>, vector<16xi1>, vector<16xbf16> into vector<16xbf16>
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK: vector.store %[[WIDE]], %[[KS]][%c7, %[[C]]] : memref<8x?xf32>, vector<16xf32>
// The scores' loop: no gather, no load of Q or K.
// CHECK: scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args
// CHECK-NOT: memref.load %arg0
// CHECK-NOT: memref.load %arg1
// CHECK: %[[ROW:.*]] = vector.load %[[QS]][%[[D]], %c0] : memref<?x8xf32>, vector<8xf32>
// CHECK: memref.load %[[KS]][%c0, %[[D]]] : memref<8x?xf32>
// CHECK: math.fma
// CHECK-COUNT-7: memref.load %[[KS]][%c{{[1-7]}}, %[[D]]] : memref<8x?xf32>
// CHECK: scf.yield
// CHECK: memref.dealloc %[[QS]] : memref<?x8xf32>
// CHECK: memref.dealloc %[[KS]] : memref<8x?xf32>
tile.program @attn_O attributes {arg_names = ["Q", "K", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %l2e = arith.constant dense<1.44269502> : vector<8x16xf32>
  %nl2e = arith.constant dense<-1.44269502> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %s = tile.reduce sum over(%d) : vector<8x16xf32> {
    ^bb0(%point: index):
      %qv = tile.load %q[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d3)>] : memref<?x?xbf16> -> vector<8x16xbf16>
      %qw = arith.extf %qv : vector<8x16xbf16> to vector<8x16xf32>
      %kv = tile.load %k[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d2, d3)>] : memref<?x?xbf16> -> vector<8x16xbf16>
      %kw = arith.extf %kv : vector<8x16xbf16> to vector<8x16xf32>
      %qk = arith.mulf %qw, %kw : vector<8x16xf32>
      tile.yield %qk : vector<8x16xf32>
    }
    %scaled = arith.mulf %mx, %nl2e : vector<8x16xf32>
    %t = math.fma %s, %l2e, %scaled : vector<8x16xf32>
    %p = math.exp2 %t : vector<8x16xf32>
    %vv = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<8x16xbf16>
    %vw = arith.extf %vv : vector<8x16xbf16> to vector<8x16xf32>
    %pv = arith.mulf %p, %vw : vector<8x16xf32>
    tile.yield %s, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %nl2e : vector<8x16xf32>
    %f = math.exp2 %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %out = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %out, %o : vector<8x16xf32> -> memref<?x?xf32>
}

// In f32, K's element is one broadcast load from K itself (nothing to
// widen): only Q's column is staged.
// CHECK-LABEL: func.func @attn_f32_O(
// CHECK: %[[QS:.*]] = memref.alloc(%arg5) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args
// CHECK: vector.load %[[QS]][%[[D]], %c0] : memref<?x8xf32>, vector<8xf32>
// CHECK-COUNT-8: memref.load %arg1
// CHECK: memref.dealloc %[[QS]] : memref<?x8xf32>
tile.program @attn_f32_O attributes {arg_names = ["Q", "K", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%q: memref<?x?xf32>, %k: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %l2e = arith.constant dense<1.44269502> : vector<8x16xf32>
  %nl2e = arith.constant dense<-1.44269502> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %s = tile.reduce sum over(%d) : vector<8x16xf32> {
    ^bb0(%point: index):
      %qv = tile.load %q[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d3)>] : memref<?x?xf32> -> vector<8x16xf32>
      %kv = tile.load %k[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d2, d3)>] : memref<?x?xf32> -> vector<8x16xf32>
      %qk = arith.mulf %qv, %kv : vector<8x16xf32>
      tile.yield %qk : vector<8x16xf32>
    }
    %scaled = arith.mulf %mx, %nl2e : vector<8x16xf32>
    %t = math.fma %s, %l2e, %scaled : vector<8x16xf32>
    %p = math.exp2 %t : vector<8x16xf32>
    %vv = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pv = arith.mulf %p, %vv : vector<8x16xf32>
    tile.yield %s, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %nl2e : vector<8x16xf32>
    %f = math.exp2 %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %out = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %out, %o : vector<8x16xf32> -> memref<?x?xf32>
}
