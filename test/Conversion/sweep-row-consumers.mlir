// RUN: nautc-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -pass-pipeline='builtin.module(nautilus-attach-target{target=sm_90},tile-sweep-row-consumers{explain=true})' 2>&1 | FileCheck %s
// RUN: nautc-opt %s -split-input-file -pass-pipeline='builtin.module(nautilus-attach-target{target=cpu},tile-sweep-row-consumers)' | FileCheck %s --check-prefix=CPU

// A softmax's row stream and its Y: one program. Y's body moves into a
// tile.sweep over C at the end of the stream's program, its reads of Mx
// and L (the row's values, at d0) replaced by the stream's results, its
// column index by the swept one; the workspaces' stores go (only Y read
// them), and the workspaces with them. The merged program takes Y's name
// and the stream's schedule.
// CHECK: remark: 'softmax_Y' swept in the program of 'softmax_L'
// CHECK-LABEL: tile.program @softmax_Y attributes {arg_names = ["X", "Y"], output_dims = ["R"]
// CHECK-SAME: schedule = #tile.schedule<tile = [4], threads = 256, reduce_threads = 64, vector = 4>
// CHECK: %[[S:.*]]:2 = tile.online_reduce over(%arg3)
// CHECK-NOT: tile.store
// CHECK: tile.sweep over(%arg3) into %arg1[#{{.*}}] : memref<?x?xf32> {
// CHECK-NEXT: ^bb0(%[[C:.*]]: index):
// CHECK: %[[X:.*]] = tile.load %arg0[{{.*}}] : memref<?x?xf32> -> vector<4xf32>
// CHECK: %[[COL:.*]] = vector.broadcast %[[C]] : index to vector<4xindex>
// CHECK: arith.subf %[[X]], %[[S]]#0 : vector<4xf32>
// CHECK: %[[Y:.*]] = arith.divf %{{.*}}, %[[S]]#1 : vector<4xf32>
// CHECK: tile.yield %[[Y]] : vector<4xf32>
// CHECK-NOT: tile.program
// CHECK: tile.plan @softmax {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@softmax_Y]
// CPU: programs = [@softmax_L, @softmax_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#value = affine_map<(d0, d1)[s0, s1] -> (d0)>
tile.program @softmax_L attributes {arg_names = ["X", "L", "Mx", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 256, reduce_threads = 64, vector = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %l: memref<?xf32>, %mx: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s:2 = tile.online_reduce over(%cols) accumulators ["max", "sum"] : vector<4xf32>, vector<4xf32> {
  ^bb0(%c: index, %m: vector<4xf32>):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4xf32>
    %d = arith.subf %v, %m : vector<4xf32>
    %e = math.exp %d : vector<4xf32>
    tile.yield %v, %e : vector<4xf32>, vector<4xf32>
  } repairs {
  ^bb0(%old: vector<4xf32>, %new: vector<4xf32>):
    %d = arith.subf %old, %new : vector<4xf32>
    %f = math.exp %d : vector<4xf32>
    tile.yield %f : vector<4xf32>
  }
  tile.store %s#0, %mx : vector<4xf32> -> memref<?xf32>
  tile.store %s#1, %l : vector<4xf32> -> memref<?xf32>
}
tile.program @softmax_Y attributes {arg_names = ["X", "L", "Mx", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [16, 64], threads = 128, vector = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %l: memref<?xf32>, %mx: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<16x64xf32>
  %m = tile.load %mx[#value] : memref<?xf32> -> vector<16x64xf32>
  %col = tile.index 1 : vector<16x64xindex>
  %d = arith.subf %v, %m : vector<16x64xf32>
  %e = math.exp %d : vector<16x64xf32>
  %s = tile.load %l[#value] : memref<?xf32> -> vector<16x64xf32>
  %r = arith.divf %e, %s : vector<16x64xf32>
  tile.store %r, %y : vector<16x64xf32> -> memref<?x?xf32>
}
tile.plan @softmax {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "L", role = "workspace", type = memref<?xf32>}, {dims = ["R"], name = "Mx", role = "workspace", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@softmax_L, @softmax_Y], sizes = ["R", "C"]}

// -----

// Left apart: a row each thread reduces alone (no reduce_threads), and a
// row result the kernel returns keeps its store.
// CHECK-LABEL: tile.program @lone_S
// CHECK: tile.program @lone_Y
// CHECK: programs = [@lone_S, @lone_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#value = affine_map<(d0, d1)[s0, s1] -> (d0)>
tile.program @lone_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 4>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<4xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
  tile.store %s, %sum : vector<4xf32> -> memref<?xf32>
}
tile.program @lone_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %s = tile.load %sum[#value] : memref<?xf32> -> vector<4x64xf32>
  %r = arith.divf %v, %s : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @lone {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "workspace", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@lone_S, @lone_Y], sizes = ["R", "C"]}

// -----

// CHECK-LABEL: tile.program @kept_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"]
// CHECK: %[[S:.*]] = tile.reduce sum
// CHECK: tile.store %[[S]], %arg1
// CHECK: tile.sweep over(%arg4) into %arg2
// CHECK: programs = [@kept_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#value = affine_map<(d0, d1)[s0, s1] -> (d0)>
tile.program @kept_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 128, reduce_threads = 128>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<1xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %s, %sum : vector<1xf32> -> memref<?xf32>
}
tile.program @kept_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %s = tile.load %sum[#value] : memref<?xf32> -> vector<4x64xf32>
  %r = arith.divf %v, %s : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @kept {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@kept_S, @kept_Y], sizes = ["R", "C"]}

// -----

// Left apart: a consumer that reads the row's result at another row, and
// one that reads what it writes.
// CHECK-LABEL: tile.program @shifted_S
// CHECK: programs = [@shifted_S, @shifted_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#next = affine_map<(d0, d1)[s0, s1] -> ((d0 + 1) mod s0)>
tile.program @shifted_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 128, reduce_threads = 128>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<1xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %s, %sum : vector<1xf32> -> memref<?xf32>
}
tile.program @shifted_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %s = tile.load %sum[#next] : memref<?xf32> -> vector<4x64xf32>
  %r = arith.divf %v, %s : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @shifted {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "workspace", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@shifted_S, @shifted_Y], sizes = ["R", "C"]}

// -----

// Left apart: interleaved groups (consecutive threads hold other rows:
// the sweep's stores would stride across them), and a consumer that reads
// none of the rows' results.
// CHECK-LABEL: tile.program @interleaved_S
// CHECK: programs = [@interleaved_S, @interleaved_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#value = affine_map<(d0, d1)[s0, s1] -> (d0)>
tile.program @interleaved_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 128, reduce_threads = 32, reduce_groups = "interleaved">, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<4xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4xf32>
    tile.yield %v : vector<4xf32>
  }
  tile.store %s, %sum : vector<4xf32> -> memref<?xf32>
}
tile.program @interleaved_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %s = tile.load %sum[#value] : memref<?xf32> -> vector<4x64xf32>
  %r = arith.divf %v, %s : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @interleaved {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "workspace", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@interleaved_S, @interleaved_Y], sizes = ["R", "C"]}

// -----

// CHECK-LABEL: tile.program @unread_S
// CHECK: programs = [@unread_S, @unread_Y]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
tile.program @unread_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 128, reduce_threads = 128>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<1xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %s, %sum : vector<1xf32> -> memref<?xf32>
}
tile.program @unread_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %r = arith.addf %v, %v : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @unread {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "output", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@unread_S, @unread_Y], sizes = ["R", "C"]}

// -----

// Two kernels in one module: removing the merged kernel's workspace
// leaves the other kernel's programs as they are.
// CHECK-LABEL: tile.program @a_Y attributes {arg_names = ["X", "Y"], output_dims = ["R"]
// CHECK: programs = [@a_Y]
// CHECK: tile.program @b_Z attributes {arg_names = ["X"]
// CHECK: programs = [@b_Z]
#row = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
#value = affine_map<(d0, d1)[s0, s1] -> (d0)>
tile.program @a_S attributes {arg_names = ["X", "S", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [1], threads = 128, reduce_threads = 128>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %s = tile.reduce sum over(%cols) : vector<1xf32> {
  ^bb0(%c: index):
    %v = tile.load %x[#row] : memref<?x?xf32> -> vector<1xf32>
    tile.yield %v : vector<1xf32>
  }
  tile.store %s, %sum : vector<1xf32> -> memref<?xf32>
}
tile.program @a_Y attributes {arg_names = ["X", "S", "Y"], output_dims = ["R", "C"], schedule = #tile.schedule<tile = [4, 64], threads = 64>, sizes = ["R", "C"]} {
^bb0(%x: memref<?x?xf32>, %sum: memref<?xf32>, %y: memref<?x?xf32>, %rows: index, %cols: index):
  %v = tile.load %x[#row] : memref<?x?xf32> -> vector<4x64xf32>
  %s = tile.load %sum[#value] : memref<?xf32> -> vector<4x64xf32>
  %r = arith.divf %v, %s : vector<4x64xf32>
  tile.store %r, %y : vector<4x64xf32> -> memref<?x?xf32>
}
tile.plan @a {buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "S", role = "workspace", type = memref<?xf32>}, {dims = ["R", "C"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@a_S, @a_Y], sizes = ["R", "C"]}
tile.program @b_Z attributes {arg_names = ["X"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 4>, sizes = ["R"]} {
^bb0(%x: memref<?xf32>, %rows: index):
  %v = tile.load %x[affine_map<(d0)[s0] -> (d0)>] : memref<?xf32> -> vector<4xf32>
  tile.store %v, %x : vector<4xf32> -> memref<?xf32>
}
tile.plan @b {buffers = [{dims = ["R"], name = "X", role = "output", type = memref<?xf32>}], programs = [@b_Z], sizes = ["R"]}
