//===- Passes.td - Nautilus's passes on the alg and tile dialects -*- tablegen -*-===//
#ifndef NAUTILUS_TRANSFORMS_PASSES
#define NAUTILUS_TRANSFORMS_PASSES

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

#endif
