//===- Passes.td - Rewrites of alg kernels -----------------*- tablegen -*-===//
#ifndef NAUTILUS_TRANSFORMS_ALG_PASSES
#define NAUTILUS_TRANSFORMS_ALG_PASSES

include "mlir/Pass/PassBase.td"

def AlgBindSizes : Pass<"alg-bind-sizes", "::nautilus::alg::KernelOp"> {
  let summary = "Fix sizes of a kernel to constants (`--shape`)";
  let description = [{
    Records each `NAME=VALUE` of `sizes` in the kernel's `bindings`, replaces
    `alg.size` of a bound size with a constant and checks every
    `alg.require` whose sizes are now all known: a constraint that does not
    hold is an error at the `require` in the source, naming the values. A
    size the kernel does not have is an error, as is a tensor whose byte size
    overflows 64 bits once its sizes are bound.
  }];
  let options = [
    Option<"sizes", "sizes", "std::string", /*default=*/"\"\"",
           "Comma-separated NAME=VALUE pairs">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AlgFuseElementwise : Pass<"alg-fuse-elementwise", "::nautilus::alg::KernelOp"> {
  let summary = "Inline elementwise definitions into the definitions that read them";
  let description = [{
    A definition with no reduction that is not an output is recomputed where
    it is read: each `alg.load` of it is replaced by a copy of its body, with
    its indices substituted by the load's index map (loads inside compose
    their maps; uses of an index as a value become `alg.apply`). Reads of
    the same element in one block are merged first, so a definition read
    twice at one index is copied once (a chain of them stays linear, not
    2^depth). Definitions read through an indirect index stay materialised. The inlined
    definitions are erased, so later stages never allocate them.
  }];
}

#endif
