// RUN: nautc-opt %s -split-input-file -verify-diagnostics

alg.kernel @k sizes ["N"] {
  // expected-error @+1 {{'alg.input' op dim 'M' is not a size of the kernel}}
  %x = alg.input "X" dims ["M"] : tensor<?xf32>
  alg.return
}

// -----

alg.kernel @k sizes ["N"] {
  // expected-error @+1 {{'alg.input' op input has 2 dims but the type has rank 1}}
  %x = alg.input "X" dims ["N", "N"] : tensor<?xf32>
  alg.return
}

// -----

alg.kernel @k sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  // expected-error @+1 {{'alg.define' op yields 'f32' but stores 'bf16'; add an epilogue that converts}}
  %y = alg.define "Y" dims ["N"] : tensor<?xbf16> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xbf16>
}

// -----

alg.kernel @k sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  // expected-error @+1 {{'alg.define' op the body takes 2 index arguments (1 left-hand, 1 reduced), found 1}}
  %y = alg.define "Y" dims ["N"] reduce sum over ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// -----

alg.kernel @k sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    // expected-error @+1 {{'alg.load' op map has 2 dims but the enclosing block has 1 index arguments}}
    %v = alg.load %x[affine_map<(d0, d1)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// -----

alg.kernel @k sizes ["N"] {
  %x = alg.input "X" dims ["N", "N"] : tensor<?x?xf32>
  %y = alg.define "Y" dims ["N"] : tensor<?xf32> {
  ^bb0(%i: index):
    // expected-error @+1 {{'alg.load' op indexes a rank-2 tensor with 1 mapped and 0 indirect indices}}
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?x?xf32> -> f32
    alg.yield %v : f32
  }
  alg.return %y : tensor<?xf32>
}

// -----

alg.kernel @k sizes ["N"] {
  %x = alg.input "X" dims ["N"] : tensor<?xf32>
  // expected-error @+1 {{'alg.define' op the epilogue yields 'f32' but the result stores 'bf16'}}
  %y = alg.define "Y" dims [] reduce sum over ["N"] : tensor<bf16> {
  ^bb0(%i: index):
    %v = alg.load %x[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    alg.yield %v : f32
  } epilogue {
  ^bb0(%acc: f32):
    alg.yield %acc : f32
  }
  alg.return %y : tensor<bf16>
}

// -----

// expected-error @+1 {{'alg.kernel' op binds 'M', which is not one of its sizes}}
alg.kernel @k sizes ["N"] attributes {bindings = {M = 4 : i64}} {
  alg.return
}

// -----

alg.kernel @k sizes ["N"] {
  // expected-error @+1 {{'alg.size' op 'M' is not a size of the kernel}}
  %m = alg.size "M"
  alg.return
}

// -----

alg.kernel @mean_and_max sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // expected-error @+1 {{a stream with a mean leader has no other leader}}
  %v = alg.online_reduce "Y" dims ["R"] over ["C"] accumulators ["mean", "max", "sum"] : tensor<?xf32> body {
  ^bb0(%r: index, %c: index, %mu: f32, %mx: f32):
    %l = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %l, %mu : f32
    alg.yield %l, %l, %g : f32, f32, f32
  } epilogue {
  ^bb0(%r: index, %m: f32, %mx: f32, %s: f32):
    alg.yield %s : f32
  } repairs {
  ^bb0(%old: f32, %new: f32, %n: f32):
    %z = arith.constant 0.0 : f32
    alg.yield %z : f32
  }, {
  ^bb0(%old: f32, %new: f32):
    %one = arith.constant 1.0 : f32
    alg.yield %one : f32
  }
  alg.return %v : tensor<?xf32>
}

// -----

alg.kernel @mean_without_count sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  // expected-error @+1 {{a repair takes the old and new 'f32' (and a mean's count of points before) and yields one addend per follower (1)}}
  %v = alg.online_reduce "Y" dims ["R"] over ["C"] accumulators ["mean", "sum"] : tensor<?xf32> body {
  ^bb0(%r: index, %c: index, %mu: f32):
    %l = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %l, %mu : f32
    alg.yield %l, %g : f32, f32
  } epilogue {
  ^bb0(%r: index, %m: f32, %s: f32):
    alg.yield %s : f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %z = arith.constant 0.0 : f32
    alg.yield %z : f32
  }
  alg.return %v : tensor<?xf32>
}

// -----

alg.kernel @lse sizes ["N", "D", "M"] {
  %s = alg.input "S" dims ["N", "M"] : tensor<?x?xf32>
  // expected-error @+1 {{export 0's value depends on an index its domain leaves out}}
  %o:2 = alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum"] exports ["Lse"] along [[0]] : tensor<?xf32> : tensor<?x?xf32> body {
  ^bb0(%n: index, %d: index, %m: index, %mx: f32):
    %x = alg.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %x, %mx : f32
    alg.yield %x, %g : f32, f32
  } epilogue {
  ^bb0(%n: index, %d: index, %mx: f32, %l: f32):
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    %e = arith.addf %mx, %f : f32
    alg.yield %l, %e : f32, f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %one = arith.constant 1.0 : f32
    alg.yield %one : f32
  }
  alg.return %o#0 : tensor<?x?xf32>
}

// -----

alg.kernel @lse sizes ["N", "D", "M"] {
  %s = alg.input "S" dims ["N", "M"] : tensor<?x?xf32>
  // expected-error @+1 {{export 0's dimensions must be increasing positions below 2}}
  %o:2 = alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum"] exports ["Lse"] along [[2]] : tensor<?xf32> : tensor<?x?xf32> body {
  ^bb0(%n: index, %d: index, %m: index, %mx: f32):
    %x = alg.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %x, %mx : f32
    alg.yield %x, %g : f32, f32
  } epilogue {
  ^bb0(%n: index, %d: index, %mx: f32, %l: f32):
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    %e = arith.addf %mx, %mx : f32
    alg.yield %l, %e : f32, f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %one = arith.constant 1.0 : f32
    alg.yield %one : f32
  }
  alg.return %o#0 : tensor<?x?xf32>
}

// -----

alg.kernel @lse sizes ["N", "D", "M"] {
  %s = alg.input "S" dims ["N", "M"] : tensor<?x?xf32>
  // expected-error @+1 {{export 0's shape is not the result's along its dimensions}}
  %o:2 = alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum"] exports ["Lse"] along [[0]] : tensor<?x?xf32> : tensor<?x?xf32> body {
  ^bb0(%n: index, %d: index, %m: index, %mx: f32):
    %x = alg.load %s[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf32> -> f32
    %g = arith.subf %x, %mx : f32
    alg.yield %x, %g : f32, f32
  } epilogue {
  ^bb0(%n: index, %d: index, %mx: f32, %l: f32):
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    %e = arith.addf %mx, %mx : f32
    alg.yield %l, %e : f32, f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %one = arith.constant 1.0 : f32
    alg.yield %one : f32
  }
  alg.return %o#0 : tensor<?x?xf32>
}

// -----

// An accumulator whose term varies along D (through V[m, d]) exported over [N].
alg.kernel @lse sizes ["N", "D", "M"] {
  %v = alg.input "V" dims ["M", "D"] : tensor<?x?xf32>
  %s = alg.input "S" dims ["N", "M"] : tensor<?x?xf32>
  // expected-error @+1 {{export 0's value depends on an index its domain leaves out}}
  %o:2 = alg.online_reduce "O" dims ["N", "D"] over ["M"] accumulators ["max", "sum", "sum"] exports ["Bad"] along [[0]] : tensor<?xf32> : tensor<?x?xf32> body {
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
    alg.yield %out, %acc : f32, f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %g = arith.subf %old, %new : f32
    %f = math.exp %g : f32
    alg.yield %f, %f : f32, f32
  }
  alg.return %o#0, %o#1 : tensor<?x?xf32>, tensor<?xf32>
}
