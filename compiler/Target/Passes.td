//===- Passes.td - Passes of the target library -------------*- tablegen -*-===//
#ifndef NAUTILUS_TARGET_PASSES
#define NAUTILUS_TARGET_PASSES

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"nautilus-attach-target", "::mlir::ModuleOp"> {
  let summary = "Record the target on the module (`tile.target`)";
  let description = [{
    Sets the module's `tile.target` attribute, which every later pass reads
    to learn its target's capabilities and limits. The one pass that takes
    a target by name (as upstream's `nvvm-attach-target` takes a chip); an
    unknown name is an error that lists the targets.

    ```
    nautc-opt --nautilus-attach-target="target=sm_90 multiprocessors=4"
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target: cpu, sm_80, sm_90, gfx90a or gfx942">,
    Option<"multiprocessors", "multiprocessors", "int64_t", /*default=*/"0",
           "Multiprocessors the default schedules fill (0: the target's)">,
  ];
  let dependentDialects = ["::nautilus::tile::TileDialect"];
}

#endif
