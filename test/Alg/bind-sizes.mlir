// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(alg.kernel(alg-bind-sizes{sizes=H=8,G=2}))' -verify-diagnostics | FileCheck %s

// CHECK-LABEL: alg.kernel @gqa sizes ["H", "G", "D"] attributes {bindings = {G = 2 : i64, H = 8 : i64}}
alg.kernel @gqa sizes ["H", "G", "D"] {
  // CHECK-NOT: alg.size "H"
  // CHECK-NOT: alg.size "G"
  %h = alg.size "H"
  %g = alg.size "G"
  %d = alg.size "D"
  %r = arith.remsi %h, %g : index
  %zero = arith.constant 0 : index
  %ok = arith.cmpi eq, %r, %zero : index
  // CHECK: alg.require %true, "H % G == 0"
  alg.require %ok, "H % G == 0"
  alg.return
}

// -----

alg.kernel @bad sizes ["H", "G"] {
  %h = alg.size "H"
  %g = alg.size "G"
  %ok = arith.cmpi slt, %h, %g : index
  // expected-error @+1 {{requirement 'H < G' does not hold (G=2, H=8)}}
  alg.require %ok, "H < G"
  alg.return
}

// -----

// expected-error @+1 {{kernel 'other' has no size named 'G' (its sizes: H)}}
alg.kernel @other sizes ["H"] {
  alg.return
}
