// RUN: nautc-opt %s -split-input-file -verify-diagnostics -nautilus-attach-target="target=sm_90" | FileCheck %s
// RUN: nautc-opt %s -split-input-file -nautilus-attach-target="target=sm_80 multiprocessors=4" | FileCheck %s --check-prefix=MP
// RUN: nautc-opt %s -split-input-file -nautilus-attach-target="target=sm_90 multiprocessors=132" | FileCheck %s --check-prefix=OWN
// RUN: not nautc-opt %s -nautilus-attach-target="target=sm_70" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not nautc-opt %s -split-input-file -pass-pipeline='builtin.module(tile-form-contractions)' 2>&1 | FileCheck %s --check-prefix=MISSING

// The target rides on the module; a count equal to the target's own is not
// written.
// CHECK: module attributes {tile.target = #tile.target<name = "sm_90">}
// MP: module attributes {tile.target = #tile.target<name = "sm_80", multiprocessors = 4>}
// OWN: module attributes {tile.target = #tile.target<name = "sm_90">}
// UNKNOWN: unknown target 'sm_70' (cpu, sm_80, sm_90, gfx90a or gfx942)
// MISSING: error: no target: the module needs a `tile.target` attribute
module {
}

// -----

// The attribute parses and prints by itself, and an existing one is
// replaced.
// CHECK: module attributes {tile.target = #tile.target<name = "sm_90">}
module attributes {tile.target = #tile.target<name = "gfx942", multiprocessors = 2>} {
}
