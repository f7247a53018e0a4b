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

def Alg_YieldOp : Alg_Op<"yield", [Terminator, HasParent<"DefineOp">, Pure]> {
  let summary = "The value of a body or epilogue at one point";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
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
