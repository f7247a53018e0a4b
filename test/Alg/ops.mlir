// RUN: nautc-opt %s | nautc-opt | FileCheck %s

// CHECK-LABEL: alg.kernel @masked_rowsum sizes ["R", "C"]
alg.kernel @masked_rowsum sizes ["R", "C"] {
  // CHECK: %[[X:.*]] = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // CHECK: %[[ALPHA:.*]] = alg.input "alpha" dims [] : f32
  %alpha = alg.input "alpha" dims [] : f32
  // CHECK: alg.define "S" dims ["R"] reduce sum over ["C"] : tensor<?xf32>
  %s = alg.define "S" dims ["R"] reduce sum over ["C"] : tensor<?xf32> {
  ^bb0(%r: index, %c: index):
    // CHECK: alg.load %[[X]][#{{.*}}]
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  } epilogue {
  ^bb0(%r: index, %acc: f32):
    %y = arith.mulf %acc, %alpha : f32
    alg.yield %y : f32
  }
  alg.return %s : tensor<?xf32>
}

// CHECK-LABEL: alg.kernel @gather sizes ["T", "E", "D"]
alg.kernel @gather sizes ["T", "E", "D"] {
  %w = alg.input "W" dims ["E", "D"] : tensor<?x?xf32>
  %ids = alg.input "ids" dims ["T"] : tensor<?xi32>
  %n = alg.size "D"
  // CHECK: alg.define "G" dims ["T", "D"] : tensor<?x?xf32>
  %g = alg.define "G" dims ["T", "D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %d: index):
    %i = alg.load %ids[affine_map<(d0, d1)[s0, s1, s2] -> (d0)>] : tensor<?xi32> -> i32
    %ii = arith.index_cast %i : i32 to index
    // CHECK: alg.load %{{.*}}[#{{.*}}] indirect(%{{.*}}) at [0] : tensor<?x?xf32> -> f32
    %v = alg.load %w[affine_map<(d0, d1)[s0, s1, s2] -> (d1)>] indirect(%ii) at [0] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  // CHECK: alg.require %{{.*}}, "D > 0"
  %zero = arith.constant 0 : index
  %pos = arith.cmpi sgt, %n, %zero : index
  alg.require %pos, "D > 0"
  alg.return %g : tensor<?x?xf32>
}

// CHECK-LABEL: alg.kernel @bound sizes ["N"] attributes {bindings = {N = 8 : i64}}
alg.kernel @bound sizes ["N"] attributes {bindings = {N = 8 : i64}} {
  %x = alg.input "X" dims ["N", 4] : tensor<?x4xf32>
  %y = alg.define "Y" dims ["N", 4] : tensor<?x4xf32> {
  ^bb0(%i: index, %j: index):
    %v = alg.load %x[affine_map<(d0, d1)[s0] -> (d0, d1)>] : tensor<?x4xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?x4xf32>
}

// A variance streamed with its mean (Welford/Chan): the mean leader's repair
// takes the old and new means and the count of points before, and yields
// one addend per follower; the mean is stored beside it (an export).
// CHECK-LABEL: alg.kernel @variance sizes ["R", "C"]
alg.kernel @variance sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // CHECK: %{{.*}}, %{{.*}} = alg.online_reduce "Var" dims ["R"] over ["C"] accumulators ["mean", "sum"] exports ["Mu"] along {{\[}}[0]] : tensor<?xf32> : tensor<?xf32>
  %v:2 = alg.online_reduce "Var" dims ["R"] over ["C"] accumulators ["mean", "sum"] exports ["Mu"] along [[0]] : tensor<?xf32> : tensor<?xf32> body {
  ^bb0(%r: index, %c: index, %mu: f64):
    %l = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %w = arith.extf %l : f32 to f64
    %g = arith.subf %w, %mu : f64
    %s = arith.mulf %g, %g : f64
    alg.yield %w, %s : f64, f64
  } epilogue {
  ^bb0(%r: index, %m: f64, %s: f64):
    %t = arith.truncf %s : f64 to f32
    %u = arith.truncf %m : f64 to f32
    alg.yield %t, %u : f32, f32
  } repairs {
  // CHECK: ^bb0(%{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64):
  ^bb0(%old: f64, %new: f64, %n: f64):
    %d = arith.subf %new, %old : f64
    %a = arith.mulf %n, %d : f64
    %b = arith.mulf %a, %d : f64
    alg.yield %b : f64
  }
  alg.return %v#0, %v#1 : tensor<?xf32>, tensor<?xf32>
}

// Attention's stream computing its log-sum-exp [N] beside O [N, D]: an
// export along the first of the stream's dimensions.
// CHECK-LABEL: alg.kernel @attention_lse
alg.kernel @attention_lse sizes ["N", "D", "M"] {
  %v = alg.input "V" dims ["M", "D"] : tensor<?x?xf32>
  %s = alg.input "S" dims ["N", "M"] : tensor<?x?xf32>
  // CHECK: alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum", "sum"] exports ["Lse"] along {{\[}}[0]] : tensor<?xf32> : tensor<?x?xf32>
  %o:2 = alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum", "sum"] exports ["Lse"] along [[0]] : tensor<?xf32> : tensor<?x?xf32> body {
  ^bb0(%n: index, %d: index, %m: index, %mx: f32):
    %x = alg.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf32> -> f32
    %y = alg.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %x, %mx : f32
    %p = math.exp %g : f32
    %pv = arith.mulf %p, %y : f32
    alg.yield %x, %p, %pv : f32, f32, f32
  } epilogue {
  ^bb0(%n: index, %d: index, %mx: f32, %l: f32, %acc: f32):
    %out = arith.divf %acc, %l : f32
    %log = math.log %l : f32
    %lse = arith.addf %mx, %log : f32
    alg.yield %out, %lse : f32, f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %g = arith.subf %old, %new : f32
    %f = math.exp %g : f32
    alg.yield %f, %f : f32, f32
  }
  alg.return %o#0, %o#1 : tensor<?x?xf32>, tensor<?xf32>
}

