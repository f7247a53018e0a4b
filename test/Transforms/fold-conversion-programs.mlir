// RUN: nautc-opt %s -split-input-file -tile-fold-conversion-programs | FileCheck %s

// A gated MLP's A (f32, a workspace) and its copy rounded to bf16 for the
// down projection: the writer stores the rounded value into the copy's
// buffer; the copy leaves the plan and A's workspace goes.
// CHECK-LABEL: tile.program @mlp_A attributes {arg_names = ["X", "Y", "lhs"]
// CHECK: %[[A:.*]] = arith.mulf
// CHECK: %[[R:.*]] = arith.truncf %[[A]] : vector<32x32xf32> to vector<32x32xbf16>
// CHECK: tile.store %[[R]], %arg2 : vector<32x32xbf16> -> memref<?x?xbf16>
// CHECK-NOT: tile.program @mlp_A_copy
// CHECK: tile.program @mlp_Y
// CHECK: tile.load %arg2
// CHECK: tile.plan @mlp {buffers = [{dims = ["T", "F"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "Y", role = "output", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "lhs", role = "workspace", type = memref<?x?xbf16>}], programs = [@mlp_A, @mlp_Y]
#id = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
tile.program @mlp_A attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %x[#id] : memref<?x?xf32> -> vector<32x32xf32>
  %w = arith.mulf %v, %v : vector<32x32xf32>
  tile.store %w, %a : vector<32x32xf32> -> memref<?x?xf32>
}
tile.program @mlp_A_copy attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %a[#id] : memref<?x?xf32> -> vector<16x64xf32>
  %r = arith.truncf %v : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %r, %lhs : vector<16x64xbf16> -> memref<?x?xbf16>
}
tile.program @mlp_Y attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %lhs[#id] : memref<?x?xbf16> -> vector<16x64xbf16>
  %w = arith.extf %v : vector<16x64xbf16> to vector<16x64xf32>
  tile.store %w, %y : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @mlp {buffers = [{dims = ["T", "F"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "A", role = "workspace", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "Y", role = "output", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "lhs", role = "workspace", type = memref<?x?xbf16>}], programs = [@mlp_A, @mlp_A_copy, @mlp_Y], sizes = ["T", "F"]}

// -----

// Another program reads A too: the copy stays.
// CHECK-LABEL: tile.program @shared_A
// CHECK: tile.store %{{.*}}, %arg1 : vector<32x32xf32>
// CHECK: programs = [@shared_A, @shared_A_copy, @shared_Y]
#id = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
tile.program @shared_A attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %x[#id] : memref<?x?xf32> -> vector<32x32xf32>
  tile.store %v, %a : vector<32x32xf32> -> memref<?x?xf32>
}
tile.program @shared_A_copy attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %a[#id] : memref<?x?xf32> -> vector<16x64xf32>
  %r = arith.truncf %v : vector<16x64xf32> to vector<16x64xbf16>
  tile.store %r, %lhs : vector<16x64xbf16> -> memref<?x?xbf16>
}
tile.program @shared_Y attributes {arg_names = ["X", "A", "Y", "lhs"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %y: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %a[#id] : memref<?x?xf32> -> vector<16x64xf32>
  tile.store %v, %y : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @shared {buffers = [{dims = ["T", "F"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "A", role = "workspace", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "Y", role = "output", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "lhs", role = "workspace", type = memref<?x?xbf16>}], programs = [@shared_A, @shared_A_copy, @shared_Y], sizes = ["T", "F"]}

// -----

// The copy reads A transposed (not at its own point): it stays.
// CHECK-LABEL: tile.program @transposed_A
// CHECK: programs = [@transposed_A, @transposed_A_copy]
#id = affine_map<(d0, d1)[s0] -> (d0, d1)>
#tr = affine_map<(d0, d1)[s0] -> (d1, d0)>
tile.program @transposed_A attributes {arg_names = ["X", "A", "lhs"], output_dims = ["T", "T"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index):
  %v = tile.load %x[#id] : memref<?x?xf32> -> vector<32x32xf32>
  tile.store %v, %a : vector<32x32xf32> -> memref<?x?xf32>
}
tile.program @transposed_A_copy attributes {arg_names = ["X", "A", "lhs"], output_dims = ["T", "T"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %lhs: memref<?x?xbf16>, %t: index):
  %v = tile.load %a[#tr] : memref<?x?xf32> -> vector<32x32xf32>
  %r = arith.truncf %v : vector<32x32xf32> to vector<32x32xbf16>
  tile.store %r, %lhs : vector<32x32xbf16> -> memref<?x?xbf16>
}
tile.plan @transposed {buffers = [{dims = ["T", "T"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "T"], name = "A", role = "workspace", type = memref<?x?xf32>}, {dims = ["T", "T"], name = "lhs", role = "output", type = memref<?x?xbf16>}], programs = [@transposed_A, @transposed_A_copy], sizes = ["T"]}

// -----

// A is an output, not a workspace: the copy stays.
// CHECK-LABEL: tile.program @output_A
// CHECK: programs = [@output_A, @output_A_copy]
#id = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
tile.program @output_A attributes {arg_names = ["X", "A", "B"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %b: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %x[#id] : memref<?x?xf32> -> vector<32x32xf32>
  tile.store %v, %a : vector<32x32xf32> -> memref<?x?xf32>
}
tile.program @output_A_copy attributes {arg_names = ["X", "A", "B"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %b: memref<?x?xbf16>, %t: index, %f: index):
  %v = tile.load %a[#id] : memref<?x?xf32> -> vector<32x32xf32>
  %r = arith.truncf %v : vector<32x32xf32> to vector<32x32xbf16>
  tile.store %r, %b : vector<32x32xbf16> -> memref<?x?xbf16>
}
tile.plan @output {buffers = [{dims = ["T", "F"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "A", role = "output", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "B", role = "output", type = memref<?x?xbf16>}], programs = [@output_A, @output_A_copy], sizes = ["T", "F"]}

// -----

// The copy stores along its rows only (a buffer of fewer dimensions): it
// stays.
// CHECK-LABEL: tile.program @along_A
// CHECK: programs = [@along_A, @along_A_copy]
#id = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
tile.program @along_A attributes {arg_names = ["X", "A", "B"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %b: memref<?xbf16>, %t: index, %f: index):
  %v = tile.load %x[#id] : memref<?x?xf32> -> vector<32x32xf32>
  tile.store %v, %a : vector<32x32xf32> -> memref<?x?xf32>
}
tile.program @along_A_copy attributes {arg_names = ["X", "A", "B"], output_dims = ["T", "F"], schedule = #tile.schedule<tile = [32, 32], threads = 128>, sizes = ["T", "F"]} {
^bb0(%x: memref<?x?xf32>, %a: memref<?x?xf32>, %b: memref<?xbf16>, %t: index, %f: index):
  %v = tile.load %a[#id] : memref<?x?xf32> -> vector<32x32xf32>
  %r = arith.truncf %v : vector<32x32xf32> to vector<32x32xbf16>
  tile.store %r, %b along [0] : vector<32x32xbf16> -> memref<?xbf16>
}
tile.plan @along {buffers = [{dims = ["T", "F"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "F"], name = "A", role = "workspace", type = memref<?x?xf32>}, {dims = ["T"], name = "B", role = "output", type = memref<?xbf16>}], programs = [@along_A, @along_A_copy], sizes = ["T", "F"]}
