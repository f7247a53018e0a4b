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
    2^depth). Definitions read through an indirect index, and those that compute
    reductions of their own (alg-fuse-shared-operands), stay materialised. The inlined
    definitions are erased, so later stages never allocate them.

    A definition that a reduction reads again for several of its points (a
    contraction's computed operand: an MLP's `silu(G) * U`, read by the
    down projection once for each of its columns) is recomputed too unless
    the schedule provider says otherwise (`recomputesOperands`: a schedule
    file's `"recompute_operands": false`, the auto-scheduler's choice of
    structure) or `recompute-operands=false`: then it stays a definition of
    its own, stored once, with the reason as a remark under `explain`.
    Element-wise definitions only it reads are recomputed in it. Runs on
    each kernel; it reads the target from the module where there is one
    (without one, it recomputes as the heuristics do).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each definition stored rather than recomputed as a remark">,
    Option<"recomputeOperands", "recompute-operands", "bool", /*default=*/"true",
           "false: store every definition a reduction reads again">,
  ];
}

def AlgFuseSharedOperands : Pass<"alg-fuse-shared-operands", "::mlir::ModuleOp"> {
  let summary = "Compute contractions that share an operand in the definition that reads them";
  let description = [{
    An element-wise definition that reads, at its own point, two or more
    sums over the same reduced dimensions that all load one element in
    common (the same tensor at the same map: a gated MLP's
    `A = silu(X Wg) * (X Wu)` reads G and U, which share X) computes
    them itself: each sum moves into its body as an `alg.reduce` (its
    epilogue after it) and is no longer stored. Its program then reads
    each tile of the shared operand once for all of them and keeps their
    accumulators side by side (the CPU lowering folds sibling reductions
    over the same extents in one loop nest; on NVIDIA GPUs they become
    sibling contractions of one mma.sync pipeline, tile-form-contractions).

    A sum moves only when nothing else reads it, it is not an output, it
    is read at the reader's own point (the identity map, no indirect
    index) and spans the reader's extents, and it holds no nested
    reduction (a sum stored rounded keeps
    its rounding: the epilogue that converts moves with it). Refused, with
    the reason as a remark under `explain`: sums that share no operand,
    targets the schedule provider's `fusesSharedOperands` refuses (AMD
    GPUs, without tensor-core contractions; sm_90's heuristics, which keep
    each projection on wgmma), and on GPUs, groups whose sums are not each
    a product of two 16-bit tensors loaded, the shared one read along the
    rows (what sibling contractions take).
    Runs before alg-fuse-elementwise (which would otherwise inline the
    reader into the definitions that read it), on the module (it reads
    the target).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each fusion and each refusal as a remark">,
  ];
}

def AlgFactorReductions : Pass<"alg-factor-reductions", "::nautilus::alg::KernelOp"> {
  let summary = "Move factors constant along the reduced index out of reductions";
  let description = [{
    A factor of a reduction's term (reached from the term through products,
    quotients and negations) that is the same at every reduced index moves
    into the reduction's epilogue: `sum[m](P[n, m] / L[n] * V[m, d])`
    becomes `sum[m](P[n, m] * V[m, d]) / L[n]`, which divides once per
    output instead of once per term, and lets softmax-then-matmul stream
    (alg-fuse-reductions refuses a sum whose term reads a sum over the same
    index). Exact up to rounding for a sum. A max or min moves only a
    positive finite factor (a constant, a size, sqrt or rsqrt of one:
    max(p x) = p max(x) exactly, rounding being monotonic); the factors it
    keeps are reported. Inside a choice `where(c, a * g, z)` only such a
    factor moves, and only when z is 0 or an infinity. A max or min that a
    reduction over the same index reads in its term (a stream's leader)
    keeps its factors unless its reads would take them on
    (alg-sink-scales): a leader with an epilogue could not stream.
    Products are left alone. Runs after alg-fuse-elementwise, which
    exposes the factors.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each factor moved, and each kept, as a remark">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AlgSinkScales : Pass<"alg-sink-scales", "::nautilus::alg::KernelOp"> {
  let summary = "Move a reduction's positive scale into its readers";
  let description = [{
    A reduction D stored as c * D0, c a positive finite value of constants
    and sizes (attention's `sum[d](Q K) * rsqrt(D)`, soft-capping's
    `30 * tanh(x / 30)`, a masked `where(m <= n, x * c, -inf)`), becomes
    D0, and every read of it c * D0, when each read takes c for free: as a
    factor of a reduction's term over a smaller domain (moved into that
    reduction's epilogue, as alg-factor-reductions does; a max or min
    that a stream could follow must pass it on in turn, so that it still
    leads the stream), or in the affine argument of an exp (where
    alg-exp-to-exp2 folds it into log2(e)). Attention's scores become a
    plain contraction, their max is over the unscaled scores, and
    `exp(S - Mx)` one FMA and one exp2. Refused, with the reason as a
    remark: a scale not provably positive, a read that would not take it
    (stored as it is, added before it is folded, under a non-affine
    function), a reader with no fewer elements.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each scale moved, and each kept, as a remark">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AlgExpToExp2 : Pass<"alg-exp-to-exp2", "::nautilus::alg::KernelOp"> {
  let summary = "exp as exp2, with log2(e) folded into the affine argument";
  let description = [{
    Every f32 `math.exp` becomes `math.exp2` of its argument times log2(e),
    with the factor folded into the argument's affine form (sums,
    differences, negations, products and quotients by constants and sizes):
    `exp(a x + b)` becomes `exp2(fma(x, a log2e, b log2e))`, one FMA per
    term and one ex2 on a GPU. alg-fuse-reductions derives the same
    repairs from exp2 of an affine function (including an FMA). exps of
    16-bit floats stay (log2(e) would be rounded to their type), with a
    remark.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report the exps rewritten, and those left, as remarks">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
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
    Runs after alg-fuse-elementwise and the algebraic rewrites
    (alg-factor-reductions, alg-sink-scales, alg-exp-to-exp2), on the
    module (it reads the target).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each fusion and each refusal as a remark">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif
