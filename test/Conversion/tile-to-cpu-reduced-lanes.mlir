// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu{vector-bits=512},canonicalize,cse)' | FileCheck %s
// RUN: nautc-opt %s -pass-pipeline='builtin.module(convert-tile-to-cpu{vector-bits=256},canonicalize,cse)' | FileCheck %s --check-prefix=AVX2

// A sum of squares of bf16 rows (a norm's) folds with its lanes along the
// reduced index: each step loads 16 consecutive elements of each of the
// tile's 8 rows (a plain load, the rows clamped into X), widens them and
// accumulates with FMAs into an 8x16 accumulator, in blocks of 64 indices
// added with Kahan's compensation. Before the whole steps, the masked
// steps from the last whole one to D (one step, unless a kernel reads out
// of range): masked loads, and the lanes past D selected out. At the end
// each row's 16 lanes are reduced once.
// CHECK-LABEL: func.func @sumsq_R(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x?xbf16>, %[[R:[a-z0-9]+]]: memref<?xf32>, %[[T:[a-z0-9]+]]: index, %[[D:[a-z0-9]+]]: index,
// CHECK: %[[XD:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[INSIDE:.*]] = arith.minsi %[[D]], %[[XD]]
// CHECK: %[[WHOLE:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK: %[[STEPS:.*]] = arith.divsi %[[WHOLE]], %c16
// CHECK: %[[FULLEND:.*]] = arith.muli %[[STEPS]], %c16
// CHECK: %[[TAIL:.*]] = scf.for %[[AT:.*]] = %[[FULLEND]] to %[[D]] step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.maskedload %{{.*}} : memref<?xbf16>, vector<16xi1>, vector<16xbf16> into vector<16xbf16>
// CHECK: arith.extf %{{.*}} : vector<8x16xbf16> to vector<8x16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8x16xi1>, vector<8x16xf32>
// CHECK: %[[TOTALS:.*]]:2 = scf.for %{{.*}} = %c0 to %[[FULLEND]] step %c64 iter_args(%{{.*}} = %[[TAIL]], %{{.*}} = %{{.*}}) -> (vector<8x16xf32>, vector<8x16xf32>)
// CHECK: scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %c16 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.load %{{.*}} : memref<?xbf16>, vector<16xbf16>
// CHECK-NOT: vector.maskedload
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : vector<8x16xbf16> to vector<8x16xf32>
// CHECK: math.fma %[[WIDE]], %[[WIDE]], %[[ACC]] : vector<8x16xf32>
// CHECK: vector.extract %[[TOTALS]]#0[0] : vector<16xf32> from vector<8x16xf32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK-COUNT-7: vector.reduction <add>
// CHECK: math.rsqrt %{{.*}} : vector<8xf32>
// AVX2-LABEL: func.func @sumsq_R(
// AVX2: scf.for %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x8xf32>)
tile.program @sumsq_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xbf16>, %r: memref<?xf32>, %t: index, %d: index):
  %s = tile.reduce sum over(%d) : vector<8xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<8xbf16>
    %w = arith.extf %v : vector<8xbf16> to vector<8xf32>
    %sq = arith.mulf %w, %w : vector<8xf32>
    tile.yield %sq : vector<8xf32>
  }
  %inv = math.rsqrt %s : vector<8xf32>
  tile.store %inv, %r : vector<8xf32> -> memref<?xf32>
}

// softmax's sum apart from its max: the max, read once a row (a column of
// 4 rows: scalar loads, clamped), is broadcast along the lanes. A maximum
// is not blocked, and its lanes reduce with `maximumf`.
// CHECK-LABEL: func.func @softmax_L(
// CHECK: scf.for %{{.*}} step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: vector.broadcast %{{.*}} : vector<4x1xf32> to vector<4x16xf32>
// CHECK: math.exp %{{.*}} : vector<4x16xf32>
// CHECK: vector.reduction <add>
// CHECK-LABEL: func.func @row_max(
// CHECK-NOT: step %c64
// CHECK: scf.for %{{.*}} step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<2x16xf32>)
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<2x16xf32>
// CHECK: vector.reduction <maximumf>
tile.program @softmax_L attributes {arg_names = ["X", "Mx", "L"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %mx: memref<?xf32>, %l: memref<?xf32>, %rr: index, %c: index):
  %s = tile.reduce sum over(%c) : vector<4xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %m = tile.load %mx[affine_map<(d0, d1)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<4xf32>
    %e = arith.subf %v, %m : vector<4xf32>
    %p = math.exp %e : vector<4xf32>
    tile.yield %p : vector<4xf32>
  }
  tile.store %s, %l : vector<4xf32> -> memref<?xf32>
}
tile.program @row_max attributes {arg_names = ["X", "M"], output_dims = ["R"], schedule = #tile.schedule<tile = [2], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %mx: memref<?xf32>, %rr: index, %c: index):
  %s = tile.reduce max over(%c) : vector<2xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<2xf32>
    tile.yield %v : vector<2xf32>
  }
  tile.store %s, %mx : vector<2xf32> -> memref<?xf32>
}

// What keeps its lanes along its rows: a tile of more than 8 rows (16
// accumulators and their compensations would not fit the registers), and
// a reduction that reads its index as a value (a mask).
// CHECK-LABEL: func.func @wide_R(
// CHECK-NOT: vector.reduction
// CHECK: return
// CHECK-LABEL: func.func @masked_R(
// CHECK-NOT: vector.reduction
// CHECK: return
// A matrix-vector product whose matrix is stored [out, in] (A[m, k] x[k],
// a linear layer's weight at a decoding step) folds too: each element a
// dot product of its row of A with x, whose row of 16 is loaded once a
// step for the tile's 8 elements (a row shared by them).
// CHECK-LABEL: func.func @matvec_Y(
// CHECK: scf.for
// CHECK-COUNT-9: vector.{{(transfer_read|load|maskedload)}}
// CHECK-NOT: vector.{{(transfer_read|load|maskedload)}}
// CHECK: scf.yield
// CHECK: vector.reduction <add>
// CHECK: return
tile.program @wide_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %r: memref<?xf32>, %t: index, %d: index):
  %s = tile.reduce sum over(%d) : vector<16xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<16xf32>
    tile.yield %v : vector<16xf32>
  }
  tile.store %s, %r : vector<16xf32> -> memref<?xf32>
}
tile.program @masked_R attributes {arg_names = ["X", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %r: memref<?xf32>, %t: index, %d: index):
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %rows = tile.index 0 : vector<4xindex>
  %s = tile.reduce sum over(%d) : vector<4xf32> {
  ^bb0(%k: index):
    %keys = vector.broadcast %k : index to vector<4xindex>
    %seen = arith.cmpi sle, %keys, %rows : vector<4xindex>
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %m = arith.select %seen, %v, %zero : vector<4xi1>, vector<4xf32>
    tile.yield %m : vector<4xf32>
  }
  tile.store %s, %r : vector<4xf32> -> memref<?xf32>
}
tile.program @matvec_Y attributes {arg_names = ["A", "X", "Y"], output_dims = ["M"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["M", "K"]} {
^bb0(%a: memref<?x?xf32>, %xv: memref<?xf32>, %y: memref<?xf32>, %m: index, %k: index):
  %s = tile.reduce sum over(%k) : vector<8xf32> {
  ^bb0(%i: index):
    %av = tile.load %a[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<8xf32>
    %xk = tile.load %xv[affine_map<(d0, d1)[s0, s1] -> (d1)>] : memref<?xf32> -> vector<8xf32>
    %p = arith.mulf %av, %xk : vector<8xf32>
    tile.yield %p : vector<8xf32>
  }
  tile.store %s, %y : vector<8xf32> -> memref<?xf32>
}

// A row stream (softmax's max and sum) folds its whole steps along lanes:
// each lane streams every 16th key of its row, 4 vectors of keys a step
// (the leader's update and the repair once a step, its exponential only
// where some lane's max moved), its state 4x16. At the
// end the lanes merge: the max across them, each lane's sum repaired from
// its max to it (exp2 of the difference, scaled) and summed across them;
// then the keys past the last whole step, one at a time, from there.
// CHECK-LABEL: func.func @stream_L(
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4x16xf32>
// CHECK: %[[LANES:.*]]:2 = scf.for %{{.*}} step %c64 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<4x16xf32>, vector<4x16xf32>)
// CHECK-COUNT-16: vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK-COUNT-4: math.exp2 %{{.*}} : vector<4x16xf32>
// CHECK: %[[MOVED:.*]] = vector.reduction <or>, %{{.*}} : vector<64xi1> into i1
// CHECK: scf.if %[[MOVED]] -> (vector<4x16xf32>) {
// CHECK: math.exp2 %{{.*}} : vector<4x16xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ONE]] : vector<4x16xf32>
// CHECK: scf.yield
// CHECK: vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK: math.exp2 %{{.*}} : vector<4x16xf32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: scf.for %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<4xf32>, vector<4xf32>)
tile.program @stream_L attributes {arg_names = ["X", "L", "Mx"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %l: memref<?xf32>, %mx: memref<?xf32>, %rr: index, %c: index):
  %log2e = arith.constant dense<1.44269502> : vector<4xf32>
  %neg = arith.constant dense<-1.44269502> : vector<4xf32>
  %r:2 = tile.online_reduce over(%c) accumulators ["max", "sum"] : vector<4xf32>, vector<4xf32> {
  ^bb0(%key: index, %m: vector<4xf32>):
    %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
    %s = arith.mulf %m, %neg : vector<4xf32>
    %a = math.fma %v, %log2e, %s : vector<4xf32>
    %e = math.exp2 %a : vector<4xf32>
    tile.yield %v, %e : vector<4xf32>, vector<4xf32>
  } repairs {
  ^bb0(%old: vector<4xf32>, %new: vector<4xf32>):
    %d = arith.subf %new, %old : vector<4xf32>
    %t = arith.mulf %d, %neg : vector<4xf32>
    %f = math.exp2 %t : vector<4xf32>
    tile.yield %f : vector<4xf32>
  }
  tile.store %r#0, %mx : vector<4xf32> -> memref<?xf32>
  tile.store %r#1, %l : vector<4xf32> -> memref<?xf32>
}

// A chunk of a split stream (split-KV's `_partial` program: the chunk an
// output dimension, the keys of chunk c from c x 1000) folds the same way,
// its whole steps from the chunk's first key to the chunk's end (or the
// row's), before the keys left.
// CHECK-LABEL: func.func @split_L(
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c1000 : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c1000 : index
// CHECK: arith.minsi %{{.*}}, %[[NEXT]] : index
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[WHOLE:.*]] step %c64 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<1x4x16xf32>, vector<1x4x16xf32>)
// CHECK: vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK: scf.for %{{.*}} = %[[WHOLE]] to %{{.*}} step %c8
tile.program @split_L attributes {arg_names = ["X", "P0", "P1"], output_dims = [2, "R"], schedule = #tile.schedule<tile = [1, 4], threads = 1>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %p0: memref<?x?xf32>, %p1: memref<?x?xf32>, %rr: index, %c: index):
  %log2e = arith.constant dense<1.44269502> : vector<1x4xf32>
  %neg = arith.constant dense<-1.44269502> : vector<1x4xf32>
  %r:2 = tile.online_reduce over(%c) chunks(1000 along 0) accumulators ["max", "sum"] : vector<1x4xf32>, vector<1x4xf32> {
  ^bb0(%key: index, %m: vector<1x4xf32>):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1] -> (d1, d2)>] : memref<?x?xf32> -> vector<1x4xf32>
    %s = arith.mulf %m, %neg : vector<1x4xf32>
    %a = math.fma %v, %log2e, %s : vector<1x4xf32>
    %e = math.exp2 %a : vector<1x4xf32>
    tile.yield %v, %e : vector<1x4xf32>, vector<1x4xf32>
  } repairs {
  ^bb0(%old: vector<1x4xf32>, %new: vector<1x4xf32>):
    %d = arith.subf %new, %old : vector<1x4xf32>
    %t = arith.mulf %d, %neg : vector<1x4xf32>
    %f = math.exp2 %t : vector<1x4xf32>
    tile.yield %f : vector<1x4xf32>
  }
  tile.store %r#0, %p0 : vector<1x4xf32> -> memref<?x?xf32>
  tile.store %r#1, %p1 : vector<1x4xf32> -> memref<?x?xf32>
}

// A mean-led stream (a variance, Welford/Chan in f64: 8 lanes): each
// lane's mean moves by its keys' gaps over its own count (keys before the
// step / 8, plus 4); at the end the lanes' means average (their counts
// are equal) and each lane's sum of squares gains count x (mean - its
// mean)^2 before the sum across them. (A mean moves every step: its
// repairs are not conditional.)
// CHECK-LABEL: func.func @stream_Var(
// CHECK: scf.for %{{.*}} step %c32 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<2x8xf64>, vector<2x8xf64>)
// CHECK: arith.divsi %{{.*}}, %c8 : index
// CHECK-NOT: scf.if
// CHECK: scf.yield
// CHECK: vector.reduction <add>, %{{.*}} : vector<8xf64> into f64
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK: arith.sitofp %{{.*}} : i64 to f64
// CHECK: vector.reduction <add>, %{{.*}} : vector<8xf64> into f64
tile.program @stream_Var attributes {arg_names = ["X", "Mu", "V"], output_dims = ["T"], schedule = #tile.schedule<tile = [2], threads = 1>, sizes = ["T", "D"]} {
^bb0(%x: memref<?x?xf32>, %mu: memref<?xf64>, %v: memref<?xf64>, %t: index, %d: index):
  %r:2 = tile.online_reduce over(%d) accumulators ["mean", "sum"] : vector<2xf64>, vector<2xf64> {
  ^bb0(%key: index, %mean: vector<2xf64>):
    %e = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<2xf32>
    %w = arith.extf %e : vector<2xf32> to vector<2xf64>
    %g = arith.subf %w, %mean : vector<2xf64>
    %sq = arith.mulf %g, %g : vector<2xf64>
    tile.yield %w, %sq : vector<2xf64>, vector<2xf64>
  } repairs {
  ^bb0(%old: vector<2xf64>, %new: vector<2xf64>, %count: vector<2xf64>):
    %moved = arith.subf %new, %old : vector<2xf64>
    %c = arith.mulf %count, %moved : vector<2xf64>
    %a = arith.mulf %c, %moved : vector<2xf64>
    tile.yield %a : vector<2xf64>
  }
  tile.store %r#0, %mu : vector<2xf64> -> memref<?xf64>
  tile.store %r#1, %v : vector<2xf64> -> memref<?xf64>
}

// A splat constant from outside the body, lowered wider than the values
// the body computes (they do not vary along H: a [1, 4] tile): made anew at
// the lanes' shape.
// CHECK-LABEL: func.func @scaled_rows(
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<1x4x16xf32>
// CHECK: vector.reduction <add>
tile.program @scaled_rows attributes {arg_names = ["X", "Y"], output_dims = ["H", "T"], schedule = #tile.schedule<tile = [2, 4], threads = 1>, sizes = ["H", "T", "D"]} {
^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %h: index, %t: index, %d: index):
  %c = arith.constant dense<5.000000e-01> : vector<2x4xf32>
  %s = tile.reduce sum over(%d) : vector<2x4xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d1, d2)>] : memref<?x?xf32> -> vector<2x4xf32>
    %p = arith.mulf %v, %c : vector<2x4xf32>
    tile.yield %p : vector<2x4xf32>
  }
  tile.store %s, %y : vector<2x4xf32> -> memref<?x?xf32>
}
