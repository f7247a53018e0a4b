//===- AlgOps.td - The alg dialect -------------------------*- tablegen -*-===//
//
// The alg dialect is the algebra of a .tensor kernel: one op per definition,
// in index notation, with nothing about hardware. A definition is a *domain*
// (the left-hand indices, then the reduced indices), a scalar *body* computed
// at every point of it, an optional *reduction* that folds the reduced
// indices, and an optional *epilogue* applied to the folded value. Reads of
// tensors carry their index map (an affine map over the domain, with the
// kernel's sizes as symbols), so later passes see access patterns without
// analysing arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_ALG_OPS
#define NAUTILUS_ALG_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "dialects/Alg/AlgEnums.td"

def Alg_Dialect : Dialect {
  let name = "alg";
  let cppNamespace = "::nautilus::alg";
  let summary = "Index-notation algebra of .tensor kernels";
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

class Alg_Op<string mnemonic, list<Trait> traits = []>
    : Op<Alg_Dialect, mnemonic, traits>;

def Alg_KernelOp : Alg_Op<"kernel", [Symbol, IsolatedFromAbove, SingleBlock]> {
  let summary = "A kernel: its sizes, inputs, definitions and outputs";
  let description = [{
    The body lists `alg.input` ops (in signature order), `alg.define` and
    `alg.require` ops in source order, and ends with `alg.return` of the
    outputs in signature order. `sizes` names every size of the signature, in
    order of first appearance; they are the symbols of every index map in the
    kernel. `bindings` gives the sizes fixed at compile time (`--shape`).

    ```mlir
    alg.kernel @gemm sizes ["M", "K", "N"] {
      %A = alg.input "A" dims ["M", "K"] : tensor<?x?xf16>
      ...
      alg.return %C : tensor<?x?xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$sizes,
                       OptionalAttr<DictionaryAttr>:$bindings);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `sizes` $sizes attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Index of `name` in `sizes`, or -1.
    int64_t getSizeIndex(llvm::StringRef name);
    /// The bound value of a size, if any.
    std::optional<int64_t> getBinding(llvm::StringRef name);
    ReturnOp getReturn();
  }];
}

def Alg_ReturnOp : Alg_Op<"return", [Terminator, HasParent<"KernelOp">, Pure]> {
  let summary = "The kernel's outputs, in signature order";
  let arguments = (ins Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = "($outputs^ `:` type($outputs))? attr-dict";
}

def Alg_InputOp : Alg_Op<"input", [HasParent<"KernelOp">]> {
  let summary = "A kernel input: a tensor with its dims, or a scalar";
  let description = [{
    `dims` gives each dimension as a size name or a positive integer. A
    scalar input has an element type and no dims.

    Not `Pure`: an input the kernel never reads is still one of its
    parameters, in its place among them, so it must not be erased as dead
    code (the inputs after it would take its data).
  }];
  let arguments = (ins StrAttr:$name, ArrayAttr:$dims);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$name `dims` $dims attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Alg_DefineOp : Alg_Op<"define", [HasParent<"KernelOp">,
    RecursiveMemoryEffects]> {
  let summary = "One definition of index notation";
  let description = [{
    Defines a tensor of shape `dims` (one dim per left-hand index). The
    `body` region has one `index` argument per left-hand index followed by
    one per reduced index (whose extents are `reduce_dims`) and yields the
    value at that point. With a reduction kind, the values are folded over
    the reduced indices (in any order: reassociation is allowed), and the
    `epilogue`, if present, maps `(left-hand indices..., folded)` to the
    stored value; without an epilogue the folded value is stored as is.

    ```mlir
    // C[m, n] = sum[k](A[m, k] * B[k, n])
    %C = alg.define "C" dims ["M", "N"] reduce sum over ["K"] : tensor<?x?xf32> {
    ^bb0(%m: index, %n: index, %k: index):
      %a = alg.load %A[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf16> -> f16
      ...
      alg.yield %p : f32
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, ArrayAttr:$dims,
                       OptionalAttr<Alg_ReductionKind>:$kind,
                       OptionalAttr<ArrayAttr>:$reduce_dims);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body, AnyRegion:$epilogue);
  let assemblyFormat = [{
    $name `dims` $dims (`reduce` $kind^ `over` $reduce_dims)? attr-dict `:`
    type($result) $body (`epilogue` $epilogue^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getRank() { return getDims().size(); }
    unsigned getNumReduced() {
      return getReduceDims() ? getReduceDims()->size() : 0;
    }
    bool isReduction() { return getKind().has_value(); }
    /// The type the body yields (the accumulator type of a reduction).
    mlir::Type getBodyType();
  }];
}

def Alg_LoadOp : Alg_Op<"load", [Pure]> {
  let summary = "Reads one element of a tensor at an index map";
  let description = [{
    The index of the element is `map` applied to the enclosing block's
    `index` arguments (the domain) with the kernel's sizes as symbols. An
    indirect (gathered) index replaces the result at each position of
    `indirect_positions` with the matching `indirect` operand, so
    `W[ids[t, j], d, f]` is a map with two results and one indirect operand
    at position 0.
  }];
  let arguments = (ins AnyRankedTensor:$tensor, Variadic<Index>:$indirect,
                       AffineMapAttr:$map,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$indirect_positions);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $tensor `[` $map `]` (`indirect` `(` $indirect^ `)` `at` $indirect_positions)?
    attr-dict `:` type($tensor) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Alg_ApplyOp : Alg_Op<"apply", [Pure]> {
  let summary = "An affine function of the domain indices, as a value";
  let description = [{
    Evaluates `map` (one result) on the enclosing block's `index` arguments
    with the kernel's sizes as symbols. Fusion creates it where an inlined
    definition used one of its indices as a value.
  }];
  let arguments = (ins AffineMapAttr:$map);
  let results = (outs Index:$result);
  let assemblyFormat = "$map attr-dict";
  let hasVerifier = 1;
}

def Alg_SizeOp : Alg_Op<"size", [Pure]> {
  let summary = "The value of one of the kernel's sizes";
  let arguments = (ins StrAttr:$name);
  let results = (outs Index:$result);
  let assemblyFormat = "$name attr-dict";
  let hasVerifier = 1;
}

def Alg_YieldOp : Alg_Op<"yield", [Terminator,
    ParentOneOf<["DefineOp", "ReduceOp", "OnlineReduceOp"]>, Pure]> {
  let summary = "The value of a body or epilogue at one point";
  let description = [{
    One value, but in an `alg.online_reduce`'s body (one term per
    accumulator) and repairs (one factor per follower).
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
  let extraClassDeclaration = [{
    /// The one value yielded (bodies and epilogues of definitions).
    mlir::Value getValue() { return getValues().front(); }
  }];
}

def Alg_ReduceOp : Alg_Op<"reduce", [RecursiveMemoryEffects,
    ParentOneOf<["DefineOp", "ReduceOp", "OnlineReduceOp"]>]> {
  let summary = "A reduction inside a body: one scalar folded over indices";
  let description = [{
    The fold with `kind` over the indices of extents `reduce_dims` of the
    value its body yields. The body takes the enclosing block's index
    arguments (the enclosing domain), then one per reduced index, so its
    index maps are over the enclosing domain followed by its own indices.
    It reads only tensors, constants and sizes (no value of the enclosing
    block). `alg-fuse-reductions` makes it when it recomputes a reduction
    (a contraction's S) where a streamed reduction reads it, so that the
    reduction is never stored.

    ```mlir
    %s = alg.reduce sum over ["D"] : f32 {
    ^bb0(%b: index, %h: index, %n: index, %d: index, %m: index, %k: index):
      ...
      alg.yield %qk : f32
    }
    ```
  }];
  let arguments = (ins Alg_ReductionKind:$kind, ArrayAttr:$reduce_dims);
  let results = (outs AnyType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `over` $reduce_dims attr-dict `:` type($result) $body
  }];
  let hasVerifier = 1;
}

def Alg_OnlineReduceOp : Alg_Op<"online_reduce", [HasParent<"KernelOp">,
    RecursiveMemoryEffects]> {
  let summary = "Reductions over one index fused into one streaming pass";
  let description = [{
    Several reductions over the same index `over` (of the definition's
    domain `dims`), computed in one pass over it. Each *accumulator* has a
    kind (`accumulators`): a *leader* is a `max` or `min`; a *follower* is a
    `sum` whose terms read the leaders' final values. At the end, leader j
    is the fold of its term over the index and follower i is
    `sum over k of term_i(k, leaders' final values)`; the `epilogue` maps
    (the left-hand indices, then every accumulator) to the stored value.

    The body takes the left-hand indices, the streamed index and then one
    value per leader (in accumulator order), and yields one term per
    accumulator: a leader's term must not depend on any leader value, a
    follower's is its term computed at the given leader values.

    `repairs` has one region per leader, taking its old and new value and
    yielding one factor per follower (in order) such that, for every point
    k, `term_i(k, new) = term_i(k, old) * factor_i(old, new)`:
    `alg-fuse-reductions` derives them (see docs/architecture.md). That is
    what lets the pass stream: it keeps running leaders and, when one
    moves, multiplies the followers' partial sums by the factors.

    `exports` names definitions that the stream computes too, each a
    result after the first (`exported`), and `along` gives each one's
    domain: the positions in `dims` of its indices, in order (all of them,
    or a subsequence: attention's row maximum [N] beside O [N, D]). The
    epilogue yields the stored value and then one value per export; an
    export's value must not depend on the indices its domain leaves out.
    A leader or a sum that others read (layernorm's Y reads its mean Mu;
    softmax's Y its max; a log-sum-exp beside attention's O reads the
    maximum and the denominator) is stored this way instead of taking a
    pass of its own.

    A `mean` leader (Welford/Chan) is the mean of its terms over the
    streamed index: its running value is the mean of the terms folded so
    far (0 before any), updated as `new = old + sum(t - old) / count`, and
    its final value (what the epilogue gets) the mean over the whole
    index. A stream with a mean leader has no other leader. Its repair
    takes the old and new means and the count of points folded before, as
    a float, and yields one *addend* per follower: the change of the
    follower's partial sum over those points when the mean moves,
    `sum over old k of (term_i(k, new) - term_i(k, old))`. For a variance,
    `term = (x - mean)^2`, the addend is `count * (new - old)^2`.

    A lowering computes the terms at the running leader values with a
    leader still at its identity (-inf for max: no finite term seen yet)
    read as 0, so `exp(s - r)` is 0 for a masked `s = -inf` rather than
    NaN; and the repair from a leader at its identity is 1 (the partial
    sums then hold only such zero terms). The interpreter evaluates it the
    same way, so its repairs are tested.

    ```mlir
    // O[n, d] = sum[m](exp(S[n, m] - Mx[n]) * V[m, d]) / sum[m](exp(S - Mx))
    %O = alg.online_reduce "O" dims ["N", "D"] over ["M"]
        accumulators ["max", "sum", "sum"] : tensor<?x?xf32> body {
    ^bb0(%n: index, %d: index, %m: index, %mx: f32):
      ...
      alg.yield %s, %p, %pv : f32, f32, f32
    } epilogue {
    ^bb0(%n: index, %d: index, %mx: f32, %l: f32, %o: f32):
      %y = arith.divf %o, %l : f32
      alg.yield %y : f32
    } repairs {
    ^bb0(%old: f32, %new: f32):
      %f = ...  // exp(old - new)
      alg.yield %f, %f : f32, f32
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, ArrayAttr:$dims, ArrayAttr:$over,
                       StrArrayAttr:$accumulators,
                       OptionalAttr<StrArrayAttr>:$exports,
                       OptionalAttr<ArrayAttr>:$export_dims);
  let results = (outs AnyRankedTensor:$result,
                      Variadic<AnyRankedTensor>:$exported);
  let regions = (region SizedRegion<1>:$body, SizedRegion<1>:$epilogue,
                        VariadicRegion<SizedRegion<1>>:$repairs);
  let assemblyFormat = [{
    $name `dims` $dims `over` $over `accumulators` $accumulators
    (`exports` $exports^ `along` $export_dims `:` type($exported))?
    attr-dict
    `:` type($result) `body` $body `epilogue` $epilogue `repairs` $repairs
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getRank() { return getDims().size(); }
    /// The kind of accumulator `i` (`sum` for a mean, whose update is a
    /// sum of differences: see isMean).
    ReductionKind getAccumulatorKind(unsigned i);
    /// Whether accumulator `i` is a leader (max, min or mean).
    bool isLeader(unsigned i);
    /// Whether accumulator `i` is a mean leader (Welford/Chan).
    bool isMean(unsigned i);
    /// Whether the stream's leader is a mean (then its only leader).
    bool hasMeanLeader();
    /// The indices of the leaders, and of the followers, in order.
    llvm::SmallVector<unsigned> getLeaders();
    llvm::SmallVector<unsigned> getFollowers();
    /// The type of every accumulator (a float type).
    mlir::Type getAccumulatorType();
    /// The positions in `dims` of export `e`'s indices.
    llvm::SmallVector<unsigned> getExportDimPositions(unsigned e);

  private:
    mlir::LogicalResult verifyExportDims(mlir::Block &epilogue);
  public:
  }];
}

def Alg_RequireOp : Alg_Op<"require", [HasParent<"KernelOp">]> {
  let summary = "A constraint between sizes, checked when they are known";
  let description = [{
    `condition` is computed from `alg.size` values in the kernel body;
    `message` is the constraint as written in the source.
  }];
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
}

#endif
