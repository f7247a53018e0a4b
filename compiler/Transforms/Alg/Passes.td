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

def AlgFuseReductions : Pass<"alg-fuse-reductions", "::mlir::ModuleOp"> {
  let summary = "Stream chains of reductions over one index in one pass";
  let description = [{
    A sum C over index k whose term reads a max or min R over the same k
    (its *leader*), through a term that can be repaired when R's running
    value moves, becomes one `alg.online_reduce` with R as leader and C as
    follower; the sums over k that C's epilogue reads and that follow the
    same leaders join it (softmax's denominator beside attention's
    numerator). The repair is derived from the term's algebraic form (see
    `compiler/Transforms/Alg/Repair.h` and docs/architecture.md): products,
    quotients and choices of exp or exp2 of an affine function of the
    running value with a coefficient that is the same at every point.
    Reductions a stream's body reads point by point and nothing else reads
    (attention's scores S) are then recomputed there as nested `alg.reduce`,
    so no buffer of the stream's whole domain remains.

    Refused, with the reason as a remark under `explain`: a term with no
    such repair (log(x - r), (x - r)^2, x * r), a sum read by another sum
    over the same index (Welford/Chan's additive repair is not built), a
    leader that itself reads a reduction over k, and targets whose lowering
    cannot run a stream (the schedule provider's `fusesReductions`).
    Runs after alg-fuse-elementwise, on the module (it reads the target).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each fusion and each refusal as a remark">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif
