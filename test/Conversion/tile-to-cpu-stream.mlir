// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu,canonicalize,cse)' | FileCheck %s

// A stream (attention's P V, its denominator and its row maximum, scores
// read from S) steps 8 keys at a time, then the keys left one at a time.
// Each accumulator is kept at the shape it varies along: the maximum and
// the denominator are columns over the rows (8x1), carried by the loops;
// P V spans the tile, and is kept in a scratch buffer of its rows
// (allocated before the loop over the program ids), set to 0 at each
// instance's start. Per block: 8 scores and 8 rows of V (neither reads
// the leader), one leader update, 8 exps of P at 8x1, one repair exp
// (shared by both sums), then a loop over P V's rows: each row loaded,
// rescaled by its row's repair, its 8 terms added as fused multiply-adds
// (a row of P's column, broadcast, times V's row), and stored. After the
// keys, the rows are loaded as the tile.
// CHECK-LABEL: func.func @attn_O(
// CHECK: %[[SLOT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
// CHECK: scf.for %{{.*}} = %arg6 to %arg7 step %c1
// CHECK: vector.store %{{.*}}, %[[SLOT]][%c0] : memref<128xf32>, vector<128xf32>
// CHECK: %[[END:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[BLOCKED:.*]]:2 = scf.for %[[KEY:.*]] = %c0 to %[[END]] step %c8 iter_args(%[[MX:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}) -> (vector<8x1xf32>, vector<8x1xf32>)
// CHECK-COUNT-64: memref.load %arg0
// CHECK-COUNT-8: vector.maskedload %{{.*}} : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-COUNT-8: arith.maximumf %{{.*}} : vector<8x1xf32>
// CHECK-COUNT-8: math.exp %{{.*}} : vector<8x1xf32>
// CHECK: %[[REPAIR:.*]] = math.exp %{{.*}} : vector<8x1xf32>
// CHECK: %[[P0:.*]] = vector.shape_cast %{{.*}} : vector<8x1xf32> to vector<8xf32>
// CHECK-COUNT-7: vector.shape_cast %{{.*}} : vector<8x1xf32> to vector<8xf32>
// CHECK: %[[FACTORS:.*]] = vector.shape_cast %[[REPAIR]] : vector<8x1xf32> to vector<8xf32>
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[AT:.*]] = arith.muli %[[ROW]], %c16 : index
// CHECK: %[[PARTIAL:.*]] = vector.load %[[SLOT]][%[[AT]]] : memref<128xf32>, vector<16xf32>
// CHECK: %[[FACTOR:.*]] = vector.extract %[[FACTORS]][%[[ROW]]] : f32 from vector<8xf32>
// CHECK: %[[WIDE:.*]] = vector.broadcast %[[FACTOR]] : f32 to vector<16xf32>
// CHECK: %[[RESCALED:.*]] = arith.mulf %[[PARTIAL]], %[[WIDE]] : vector<16xf32>
// CHECK: vector.extract %[[P0]][%[[ROW]]] : f32 from vector<8xf32>
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[RESCALED]] : vector<16xf32>
// CHECK-COUNT-7: math.fma %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[SLOT]][%[[AT]]] : memref<128xf32>, vector<16xf32>
// CHECK-NEXT: }
// CHECK: arith.mulf %[[L]], %[[REPAIR]] : vector<8x1xf32>
// CHECK-COUNT-8: arith.addf %{{.*}} : vector<8x1xf32>
// CHECK: scf.yield
// CHECK: %[[TAIL:.*]]:2 = scf.for %{{.*}} = %[[END]] to %{{.*}} step %c1 iter_args(%{{.*}} = %[[BLOCKED]]#0, %{{.*}} = %[[BLOCKED]]#1) -> (vector<8x1xf32>, vector<8x1xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-COUNT-1: math.fma
// CHECK: vector.store
// CHECK-NEXT: }
// CHECK: %[[ROWS:.*]] = vector.load %[[SLOT]][%c0] : memref<128xf32>, vector<128xf32>
// CHECK: %[[PV:.*]] = vector.shape_cast %[[ROWS]] : vector<128xf32> to vector<8x16xf32>
// CHECK: %[[DENOMINATOR:.*]] = vector.broadcast %[[TAIL]]#1 : vector<8x1xf32> to vector<8x16xf32>
// CHECK: arith.divf %[[PV]], %[[DENOMINATOR]] : vector<8x16xf32>
// CHECK: memref.dealloc %[[SLOT]] : memref<128xf32>
tile.program @attn_O attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %neg = arith.constant dense<-1.000000e+00> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %t = arith.subf %x, %mx : vector<8x16xf32>
    %p = math.exp %t : vector<8x16xf32>
    %y = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pv = arith.mulf %p, %y : vector<8x16xf32>
    tile.yield %x, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %neg : vector<8x16xf32>
    %f = math.exp %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}

// A causal mask (key <= row): a key past the tile's last row is masked for
// every element (its scores -inf, its terms 0), so the stream ends there:
// the largest row of the tile, plus one, bounds the keys.
// CHECK-LABEL: func.func @causal_O(
// CHECK: %[[LAST:.*]] = vector.reduction <maxsi>, %{{.*}} : vector<128xindex> into index
// CHECK: %[[PAST:.*]] = arith.addi %[[LAST]], %c1 : index
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %[[PAST]] : index
// CHECK: %[[NONEMPTY:.*]] = arith.maxsi %[[END]], %c0 : index
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c8
// The mask's compares and selects, and P's exps, are columns over the
// rows (8x1), as the scores are: the rows' tile.index, lowered at the
// tile's shape outside the stream, is made anew inside at its own shape
// (at the tile's, every exp of P would span the tile).
// CHECK-COUNT-8: arith.cmpi sle, %{{.*}}, %{{.*}} : vector<8x1xindex>
// CHECK-COUNT-8: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8x1xi1>, vector<8x1xf32>
// CHECK-NOT: vector<8x16xi1>
// CHECK-COUNT-8: math.exp %{{.*}} : vector<8x1xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NONEMPTY]] step %c1
tile.program @causal_O attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %neg = arith.constant dense<-1.000000e+00> : vector<8x16xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<8x16xf32>
  %rows = tile.index 0 : vector<8x16xindex>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %keys = vector.broadcast %key : index to vector<8x16xindex>
    %seen = arith.cmpi sle, %keys, %rows : vector<8x16xindex>
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %masked = arith.select %seen, %x, %ninf : vector<8x16xi1>, vector<8x16xf32>
    %t = arith.subf %masked, %mx : vector<8x16xf32>
    %p = math.exp %t : vector<8x16xf32>
    %y = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pv = arith.mulf %p, %y : vector<8x16xf32>
    tile.yield %masked, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %neg : vector<8x16xf32>
    %f = math.exp %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}

// The same mask in the form alg-exp-to-exp2 writes the term, with the scale
// alg-sink-scales moved out of the scores: exp2(fma(S, k, Mx * -k)) with
// k = rsqrt(D) log2(e), positive for every size D (-inf times k is -inf).
// CHECK-LABEL: func.func @causal_exp2_O(
// CHECK: %[[LAST:.*]] = vector.reduction <maxsi>, %{{.*}} : vector<128xindex> into index
// CHECK: %[[PAST:.*]] = arith.addi %[[LAST]], %c1 : index
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %[[PAST]] : index
tile.program @causal_exp2_O attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %l2e = arith.constant dense<1.44269502> : vector<8x16xf32>
  %nl2e = arith.constant dense<-1.44269502> : vector<8x16xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<8x16xf32>
  %rows = tile.index 0 : vector<8x16xindex>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %keys = vector.broadcast %key : index to vector<8x16xindex>
    %seen = arith.cmpi sle, %keys, %rows : vector<8x16xindex>
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %masked = arith.select %seen, %x, %ninf : vector<8x16xi1>, vector<8x16xf32>
    %ds = vector.broadcast %d : index to vector<8x16xindex>
    %di = arith.index_cast %ds : vector<8x16xindex> to vector<8x16xi64>
    %df = arith.sitofp %di : vector<8x16xi64> to vector<8x16xf32>
    %c = math.rsqrt %df : vector<8x16xf32>
    %k = arith.mulf %c, %l2e : vector<8x16xf32>
    %nk = arith.mulf %c, %nl2e : vector<8x16xf32>
    %b = arith.mulf %mx, %nk : vector<8x16xf32>
    %t = math.fma %masked, %k, %b : vector<8x16xf32>
    %p = math.exp2 %t : vector<8x16xf32>
    %y = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pv = arith.mulf %p, %y : vector<8x16xf32>
    tile.yield %masked, %pv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %ds = vector.broadcast %d : index to vector<8x16xindex>
    %di = arith.index_cast %ds : vector<8x16xindex> to vector<8x16xi64>
    %df = arith.sitofp %di : vector<8x16xi64> to vector<8x16xf32>
    %c = math.rsqrt %df : vector<8x16xf32>
    %nk = arith.mulf %c, %nl2e : vector<8x16xf32>
    %arg = arith.mulf %diff, %nk : vector<8x16xf32>
    %f = math.exp2 %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}

// A follower whose terms span the tile (P times a tile W[n, d] that does
// not depend on the key) is carried by the loops, updated a row at a time
// in registers (the rows then joined into the tile).
// CHECK-LABEL: func.func @wide_term_O(
// CHECK-NOT: memref.alloc
// CHECK: %[[BLOCKED:.*]]:3 = scf.for %{{.*}} = %c0 to %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}, %[[O:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8x1xf32>, vector<8x16xf32>, vector<8x1xf32>)
// CHECK-COUNT-8: math.exp %{{.*}} : vector<8x1xf32>
// CHECK: %[[REPAIR:.*]] = math.exp %{{.*}} : vector<8x1xf32>
// CHECK: %[[WIDE:.*]] = vector.broadcast %[[REPAIR]] : vector<8x1xf32> to vector<8x16xf32>
// CHECK: %[[ROW0:.*]] = vector.extract %[[O]][0] : vector<16xf32> from vector<8x16xf32>
// CHECK: %[[FACTOR0:.*]] = vector.extract %[[WIDE]][0] : vector<16xf32> from vector<8x16xf32>
// CHECK: %[[RESCALED:.*]] = arith.mulf %[[ROW0]], %[[FACTOR0]] : vector<16xf32>
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[RESCALED]] : vector<16xf32>
// CHECK-COUNT-7: math.fma %{{.*}} : vector<16xf32>
// CHECK: vector.extract %[[O]][1] : vector<16xf32> from vector<8x16xf32>
// CHECK-COUNT-8: math.fma %{{.*}} : vector<16xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 31] : vector<16xf32>, vector<16xf32>
// CHECK: vector.shape_cast %{{.*}} : vector<128xf32> to vector<8x16xf32>
tile.program @wide_term_O attributes {arg_names = ["S", "W", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %w: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %neg = arith.constant dense<-1.000000e+00> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %t = arith.subf %x, %mx : vector<8x16xf32>
    %p = math.exp %t : vector<8x16xf32>
    %y = tile.load %w[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %pw = arith.mulf %p, %y : vector<8x16xf32>
    tile.yield %x, %pw, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %neg : vector<8x16xf32>
    %f = math.exp %arg : vector<8x16xf32>
    tile.yield %f, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}

// A row follower no leader rescales (its repair the constant 1, defined
// outside the stream and lowered there at the tile's shape) is kept in
// memory too: its factor made anew at a row's shape (then a product by 1,
// folded away).
// CHECK-LABEL: func.func @unrescaled_O(
// CHECK: %[[SLOT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8x1xf32>, vector<8x1xf32>)
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[PARTIAL:.*]] = vector.load %[[SLOT]][%{{.*}}] : memref<128xf32>, vector<16xf32>
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[PARTIAL]] : vector<16xf32>
// CHECK-COUNT-7: math.fma %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[SLOT]][%{{.*}}] : memref<128xf32>, vector<16xf32>
tile.program @unrescaled_O attributes {arg_names = ["S", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [8, 16], threads = 1>, sizes = ["N", "D", "M"]} {
^bb0(%s: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
  %neg = arith.constant dense<-1.000000e+00> : vector<8x16xf32>
  %one = arith.constant dense<1.000000e+00> : vector<8x16xf32>
  %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32> {
  ^bb0(%key: index, %mx: vector<8x16xf32>):
    %x = tile.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<8x16xf32>
    %t = arith.subf %x, %mx : vector<8x16xf32>
    %p = math.exp %t : vector<8x16xf32>
    %y = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xf32> -> vector<8x16xf32>
    %xv = arith.mulf %x, %y : vector<8x16xf32>
    tile.yield %x, %xv, %p : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
  } repairs {
  ^bb0(%old: vector<8x16xf32>, %new: vector<8x16xf32>):
    %diff = arith.subf %new, %old : vector<8x16xf32>
    %arg = arith.mulf %diff, %neg : vector<8x16xf32>
    %f = math.exp %arg : vector<8x16xf32>
    tile.yield %one, %f : vector<8x16xf32>, vector<8x16xf32>
  }
  %q = arith.divf %r#1, %r#2 : vector<8x16xf32>
  tile.store %q, %o : vector<8x16xf32> -> memref<?x?xf32>
}
