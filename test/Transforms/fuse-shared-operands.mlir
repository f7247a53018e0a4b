// alg-fuse-shared-operands on alg IR: the fusion (nested alg.reduce ops,
// side by side, the definitions erased), a sum stored rounded (its
// converting epilogue moves with it, so A reads the rounded value still),
// and a refusal a .tensor file cannot reach: a sum over other extents
// than its reader's. (fuse-shared-operands.test runs the pass through nautc.)
// RUN: nautc-opt %s --nautilus-attach-target=target=cpu --alg-fuse-shared-operands=explain --split-input-file --verify-diagnostics | FileCheck %s

#xd = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>
#wf = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>
#at = affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>

// CHECK-LABEL: alg.kernel @fused
// CHECK-NOT: alg.define "G"
// CHECK-NOT: alg.define "U"
// CHECK: alg.define "A" dims ["T", "F"]
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: %[[G:.*]] = alg.reduce sum over ["D"] : f32 {
// CHECK: %[[U:.*]] = alg.reduce sum over ["D"] : f32 {
// CHECK: arith.mulf %[[G]], %[[U]] : f32
alg.kernel @fused sizes ["T", "D", "F"] {
  %x = alg.input "X" dims ["T", "D"] : tensor<?x?xf32>
  %wg = alg.input "Wg" dims ["D", "F"] : tensor<?x?xf32>
  %wu = alg.input "Wu" dims ["D", "F"] : tensor<?x?xf32>
  %g = alg.define "G" dims ["T", "F"] reduce sum over ["D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wg[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  %u = alg.define "U" dims ["T", "F"] reduce sum over ["D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wu[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  // expected-remark @+1 {{'G', 'U' share 'X' and are computed in 'A' in one pass over it, not stored}}
  %y = alg.define "A" dims ["T", "F"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index):
    %a = alg.load %g[#at] : tensor<?x?xf32> -> f32
    %b = alg.load %u[#at] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  alg.return %y : tensor<?x?xf32>
}

// -----

#xd = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>
#wf = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>
#at = affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>

// G is stored in bf16: its epilogue rounds, and still does once moved.
// CHECK-LABEL: alg.kernel @rounded
// CHECK-NOT: alg.define "G"
// CHECK: alg.define "A"
// CHECK: %[[G:.*]] = alg.reduce sum over ["D"] : f32
// CHECK: alg.reduce sum over ["D"] : f32
// CHECK: %[[R:.*]] = arith.truncf %[[G]] : f32 to bf16
// CHECK: arith.extf %[[R]] : bf16 to f32
alg.kernel @rounded sizes ["T", "D", "F"] {
  %x = alg.input "X" dims ["T", "D"] : tensor<?x?xf32>
  %wg = alg.input "Wg" dims ["D", "F"] : tensor<?x?xf32>
  %wu = alg.input "Wu" dims ["D", "F"] : tensor<?x?xf32>
  %g = alg.define "G" dims ["T", "F"] reduce sum over ["D"] : tensor<?x?xbf16> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wg[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  } epilogue {
  ^bb0(%t: index, %f: index, %s: f32):
    %r = arith.truncf %s : f32 to bf16
    alg.yield %r : bf16
  }
  %u = alg.define "U" dims ["T", "F"] reduce sum over ["D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wu[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  // expected-remark @+1 {{'G', 'U' share 'X' and are computed in 'A' in one pass over it, not stored}}
  %y = alg.define "A" dims ["T", "F"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index):
    %a = alg.load %g[#at] : tensor<?x?xbf16> -> bf16
    %w = arith.extf %a : bf16 to f32
    %b = alg.load %u[#at] : tensor<?x?xf32> -> f32
    %p = arith.mulf %w, %b : f32
    alg.yield %p : f32
  }
  alg.return %y : tensor<?x?xf32>
}

// -----

#xd = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>
#wf = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>
#at = affine_map<(d0, d1)[s0, s1, s2] -> (d0, d1)>

// U spans [T, D] where A spans [T, F] (F <= D, say): not A's extents.
// CHECK-LABEL: alg.kernel @extents
// CHECK: alg.define "U"
alg.kernel @extents sizes ["T", "D", "F"] {
  %x = alg.input "X" dims ["T", "D"] : tensor<?x?xf32>
  %wg = alg.input "Wg" dims ["D", "F"] : tensor<?x?xf32>
  %wu = alg.input "Wu" dims ["D", "D"] : tensor<?x?xf32>
  %g = alg.define "G" dims ["T", "F"] reduce sum over ["D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wg[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  %u = alg.define "U" dims ["T", "D"] reduce sum over ["D"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index, %d: index):
    %a = alg.load %x[#xd] : tensor<?x?xf32> -> f32
    %b = alg.load %wu[#wf] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  // expected-remark @+1 {{'U' stays a program of its own: its extents are not 'A''s}}
  %y = alg.define "A" dims ["T", "F"] : tensor<?x?xf32> {
  ^bb0(%t: index, %f: index):
    %a = alg.load %g[#at] : tensor<?x?xf32> -> f32
    %b = alg.load %u[#at] : tensor<?x?xf32> -> f32
    %p = arith.mulf %a, %b : f32
    alg.yield %p : f32
  }
  alg.return %y : tensor<?x?xf32>
}
