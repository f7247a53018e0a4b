// RUN: nautc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a tile of 24 elements does not divide among 16 threads}}
tile.program @p attributes {arg_names = [], output_dims = [], schedule = #tile.schedule<tile = [24], threads = 16>, sizes = []} {
^bb0:
}

// -----

// expected-error @+1 {{'tile.program' op the schedule tiles 1 dimensions but the output has 2}}
tile.program @p attributes {arg_names = [], output_dims = ["N", "N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.index' op expects the program's tile shape [16], found 'vector<8xindex>'}}
  %i = tile.index 0 : vector<8xindex>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.load' op map has 2 dims but 1 indices (output and reduced) are in scope}}
  %v = tile.load %x[affine_map<(d0, d1)[s0] -> (d0)>] : memref<?xf32> -> vector<16xf32>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.load' op loads 'f32' elements into a tile of 'f16'}}
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<16xf16>
}

// -----

tile.program @p attributes {arg_names = ["X"], output_dims = ["N"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%x: memref<?xf32>, %n: index):
  // expected-error @+1 {{'tile.reduce' op the body must yield a tile of the result type}}
  %s = tile.reduce sum over(%n) : vector<16xf32> {
  ^bb0(%k: index):
    %v = tile.load %x[affine_map<(d0, d1)[s0] -> (d1)>] : memref<?xf32> -> vector<16xf32>
    %h = arith.truncf %v : vector<16xf32> to vector<16xf16>
    tile.yield %h : vector<16xf16>
  }
}

// -----

// expected-error @+1 {{'tile.program' op output dim 'M' is not one of its sizes}}
tile.program @p attributes {arg_names = [], output_dims = ["M"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["N"]} {
^bb0(%n: index):
}
