//===- TileOps.td - The tile dialect -----------------------*- tablegen -*-===//
//
// The tile dialect describes one *program instance*: the code that computes
// one tile of one output (a CTA on a GPU, a task on the CPU). Values are
// whole tiles, typed `vector<T0 x T1 x ... x elem>` with the tile shape of the
// program's schedule; elementwise work is upstream `arith` and `math` on those
// vectors. What the dialect adds is where a tile comes from and goes to:
// which element of a buffer each tile element reads (`tile.load`, an affine
// map over the program's domain, with gathers), the fold over reduced
// indices (`tile.reduce`), the global index of each element (`tile.index`)
// and the masked store of the result (`tile.store`). Ragged edges are masked:
// elements of a tile that fall outside the output are neither read nor
// written.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_OPS
#define NAUTILUS_TILE_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/Alg/AlgEnums.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::nautilus::tile";
  let summary = "Tile programs: one output tile per program instance";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (TileAttrs.cpp, where their storage is defined).
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

def Tile_MmaAttr : AttrDef<Tile_Dialect, "Mma"> {
  let mnemonic = "mma";
  let summary = "How a program's contraction runs on tensor cores";
  let description = [{
    The program's `tile.contract` runs on the tensor cores with instruction
    `instr` (`mma_sync`: mma.sync m16n8k16 from ldmatrix fragments, operands
    staged by cp.async, sm_80 and later; `wgmma`: wgmma.mma_async m64nNk16
    from shared-memory descriptors, operands staged by TMA on mbarriers,
    sm_90a, `warps` = [4 x warpgroups, 1], tile_k = 64): `warps` =
    [warps along M, warps along N] split the output tile, each warp
    computing a [tile M / warps M, tile N / warps N] part from 16 x 8
    instruction tiles; the reduction advances `tile_k` elements a step
    through a ring of `stages` shared-memory buffers filled by cp.async
    `stages - 1` steps ahead. Every tile of the program is then distributed
    in the mma accumulator layout (`mmaAccumulatorLayout` in
    compiler/Layout/LinearLayout.h).

    `group_m` (default 1) rasterises the grid for L2 reuse: program ids
    walk the tiles in groups of `group_m` rows of tiles, column by column
    within a group, so that consecutive programs share rows of A and
    columns of B. `producers` (default 0; wgmma only) is the number of
    producer warpgroups: with 1, warpgroup 0 only issues the TMA copies
    (one thread of it) and the `warps` are consumers that keep one wgmma
    group in flight and release each stage on an "empty" mbarrier (warp
    specialisation); the program then has 128 more threads. `persistent`
    (default 0; with a producer warpgroup) launches one program per
    multiprocessor (at most one per tile): each loops over the tiles
    `block id + i x grid size` in the rasterised order, its producer
    running ahead across tile boundaries while the consumers finish a
    tile's epilogue.

    `swizzle` (bytes: 0, 32, 64 or 128; default 128) is how the operand
    stages are laid out in shared memory: rows of 16-byte chunks, chunk c
    of row r stored at chunk c ^ ((r / per_phase) % max_phase), where
    max_phase = min(swizzle, row bytes) / 16 patterns repeat every
    per_phase = max(1, 128 / row bytes) rows (`SharedSwizzle` in
    compiler/Layout/LinearLayout.h; 0: no swizzle). With 128, the 8 rows an
    ldmatrix reads fall in 8 distinct bank groups. For wgmma it is also the
    TMA tensor maps' and the matrix descriptors' swizzle mode, and a K-major
    row is one swizzle span: tile_k = swizzle / 2.

    `split_k` (default 1) splits the reduction into that many chunks of K
    (fewer when K has fewer steps of `tile_k` to share out), each a program
    of its own writing its partial sums to a workspace; a
    second program adds them up and runs the epilogue
    (`tile-split-contractions`, which realises it). It spreads a problem
    whose output has too few tiles for the machine (128 x 128 x 16384:
    4 tiles) over more multiprocessors.

    `ping_pong` (default 0; a flash kernel on wgmma with a producer
    warpgroup and two consumer warpgroups, `warps = [8, 1]`) makes the
    consumers take turns: each waits at its named barrier before issuing
    a block's Q K^T and lets the other go once it is issued, so that one's
    softmax runs while the other's contractions do (FlashAttention-3's
    ping-pong scheduling).

    `overlap_softmax` (default 0; a flash kernel on wgmma with a producer
    warpgroup) defers each block's P V by one step: a step issues its
    block's Q K^T and the previous block's P V together, waits for the
    scores only, and runs its softmax while P V runs; the last block's
    P V follows the loop (FlashAttention-3's intra-warpgroup overlap).
    A consumer then releases a block's stage a step later, so it takes
    3 or more `stages` (K and V share a stage: with 2 the producer could
    not copy a block ahead).

    ```mlir
    #tile.mma<instr = "mma_sync", tile_k = 32, warps = [2, 2], stages = 3>
    #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 4,
              group_m = 8, producers = 1, persistent = 1>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$instr, "int64_t":$tileK,
                        ArrayRefParameter<"int64_t">:$warps,
                        "int64_t":$stages,
                        DefaultValuedParameter<"int64_t", "1">:$groupM,
                        DefaultValuedParameter<"int64_t", "0">:$producers,
                        DefaultValuedParameter<"int64_t", "0">:$persistent,
                        DefaultValuedParameter<"int64_t", "128">:$swizzle,
                        DefaultValuedParameter<"int64_t", "1">:$splitK,
                        DefaultValuedParameter<"int64_t", "0">:$pingPong,
                        DefaultValuedParameter<"int64_t", "0">:$overlapSoftmax);
  // instr, tile_k, warps and stages, then the others where they are not
  // their defaults.
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "llvm::StringRef":$instr, "int64_t":$tileK,
                     "llvm::ArrayRef<int64_t>":$warps, "int64_t":$stages), [{
      return $_get($_ctxt, instr, tileK, warps, stages, 1, 0, 0, 128, 1, 0, 0);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The warps that compute (and hold the accumulators).
    int64_t getNumWarps() const { return getWarps()[0] * getWarps()[1]; }
    /// Threads of the program: the computing warps and the producers.
    int64_t getNumThreads() const {
      return 32 * getNumWarps() + 128 * getProducers();
    }
    /// Why `tile_k` does not fit wgmma for the program it schedules ("" when
    /// it does, or the instruction is not wgmma): a contraction stages
    /// K-major rows of one swizzle span (tile_k = swizzle / 2); a flash
    /// kernel's tile_k is its key block, 64 or 128 keys.
    std::string wgmmaTileKRefusal(bool flash) const;
  }];
}

def Tile_LinearLayoutAttr : AttrDef<Tile_Dialect, "LinearLayout"> {
  let mnemonic = "linear";
  let summary = "Where each element of a tile lives: a linear layout";
  let description = [{
    The distribution of a tile of `shape` over the threads of a program: a
    linear map over F2 (compiler/Layout/LinearLayout.h) from the bits of a
    thread's register index, lane and warp to the tile coordinates. Each
    list holds one basis per bit (low bit first), each basis one coordinate
    per tile dimension; an element's coordinates are the XOR of the bases
    of its index's set bits. Verified to be a bijection onto the tile.

    ```mlir
    // The mma.sync accumulator of a 16 x 8 tile (one warp).
    #tile.linear<[16, 8], register = [[0, 1], [8, 0]],
                 lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$registerBases,
                        ArrayRefParameter<"int64_t">:$laneBases,
                        ArrayRefParameter<"int64_t">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The layout, with inputs register, lane, warp and outputs dim0, ...
    ::nautilus::layout::LinearLayout getLayout() const;
    /// The attribute of `layout` (inputs register, lane, warp; outputs
    /// dim0, ... of `shape`).
    static LinearLayoutAttr get(::mlir::MLIRContext *context,
                                const ::nautilus::layout::LinearLayout &layout,
                                ::llvm::ArrayRef<int64_t> shape);
    int64_t getNumRegisters() const;
    int64_t getNumThreads() const;
  }];
}

def Tile_TargetAttr : AttrDef<Tile_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The target a module is compiled for";
  let description = [{
    Rides on the module as `tile.target` and is what every pass reads to
    learn its target: `name` is one of the targets of `compiler/Target`
    (`cpu`, `sm_80`, `sm_90`, `gfx90a`, `gfx942`), which resolves the name
    to capabilities and limits; `multiprocessors` (0, the target's own
    count, when not printed) replaces the multiprocessors the default
    schedules fill. The dialect checks the form only; an unknown name is
    reported by the first pass that reads it.

    ```mlir
    module attributes {tile.target = #tile.target<name = "sm_90">} {}
    module attributes {tile.target = #tile.target<name = "sm_80",
                                                  multiprocessors = 4>} {}
    ```
  }];
  let parameters = (ins StringRefParameter<"target name">:$name,
                        DefaultValuedParameter<"int64_t", "0">:$multiprocessors);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute that holds the target.
    static constexpr ::llvm::StringLiteral kModuleAttrName = "tile.target";
  }];
}

def Tile_SizeRangeAttr : AttrDef<Tile_Dialect, "SizeRange"> {
  let mnemonic = "size_range";
  let summary = "The values of one size a program is launched for";
  let description = [{
    Size `size` from `at_least` (inclusive; 0 where not printed) up to
    `below` (exclusive; no bound where not printed). In a `tile.program`'s
    `launch_ranges`: the program runs only where each of its sizes is in
    its range, one of several copies of a program each compiled with its
    own schedule for ranges of sizes not bound at compile time (the
    auto-scheduler's choice at launch, docs/autoscheduler.md). The launch
    plan carries them as a condition the runtime evaluates before each
    launch.

    ```mlir
    #tile.size_range<size = "M", below = 128>
    #tile.size_range<size = "M", at_least = 128>
    ```
  }];
  let parameters = (ins StringRefParameter<"size name">:$size,
                        DefaultValuedParameter<"int64_t", "0">:$at_least,
                        OptionalParameter<"std::optional<int64_t>">:$below);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `value` of the size is in the range.
    bool contains(int64_t value) const {
      return value >= getAtLeast() && (!getBelow() || value < *getBelow());
    }
    /// The range as a condition on the size: "M < 128", "128 <= M < 1024",
    /// "M >= 128".
    std::string describe() const;
    /// The name of `program`'s copy for `ranges`, in order: each range
    /// adds "_M_below_128", "_M_from_128" or "_M_32_to_128"
    /// ("gemm_C_M_below_8_N_from_128").
    static std::string copyName(llvm::StringRef program,
                                llvm::ArrayRef<SizeRangeAttr> ranges);
  }];
}

def Tile_ScheduleAttr : AttrDef<Tile_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "How a program is tiled and mapped onto the machine";
  let description = [{
    `tile` gives the tile extent of each output dimension (the grid has
    ceil(extent / tile) programs along it); `threads` the threads of one
    program instance on a GPU (1 on the CPU). On a GPU each thread owns
    product(tile) / threads elements of every tile, thread `t` holding the
    elements whose row-major position `p` in the tile has `p % threads == t`,
    so consecutive threads touch consecutive elements of the innermost
    dimension (coalesced accesses).

    With `mma`, the program's contraction runs on tensor cores and its
    tiles are distributed in the mma accumulator layout instead (see
    `#tile.mma`).

    `reduce_threads = R` (a power of two dividing `threads`; 1 when not
    printed) makes the threads groups of R consecutive threads that share
    the work of each reduction: the tile is distributed over the
    threads / R groups as above (a group in the place of a thread), every
    thread of a group holds its group's elements, and the group's R
    threads split the outermost extent of each `tile.reduce` at the
    program's top level (thread r of a group takes the iterations r,
    r + R, r + 2R, ...), then combine their partial results, after which
    each holds the whole. Only the group's first thread stores. A
    reduction over thousands of elements to a few outputs (a norm's row
    at a decoding step, attention's row maximum over 8192 keys) then runs
    on hundreds of threads rather than a few, reading consecutive elements
    on consecutive threads. Not with `mma`. With `reduce_groups =
    "interleaved"` the groups interleave instead: thread t is thread
    t / (threads / R) of group t % (threads / R), so consecutive threads
    belong to consecutive groups, hold consecutive elements of the tile's
    innermost dimension and read consecutive elements of a row when the
    reduction runs down columns (a column sum, a pooling over tokens).

    `vector = V` (a power of two, 1 when not printed) makes each thread
    hold runs of V consecutive elements of a row instead: thread t's
    element e sits at row-major position ((e / V) * threads + t) * V +
    e % V. A thread then reads and writes a row's elements 16 bytes at a
    time (vector loads and stores where a run lies inside its buffer, its
    rows a whole number of vectors), and a warp still covers consecutive
    elements. V divides the tile's innermost extent and each thread's
    element count. Not with `mma`. With `reduce_threads` (consecutive
    groups, one element a group) the runs are of a shared reduction's
    iterations instead: thread r of a group takes iterations V r .. V r +
    V - 1, then those V R further on, ..., and reads a run of a row as one
    16-byte load.

    `pack = true` (CPU only) packs a contraction's rhs: a program
    summing over k a product with an operand B[..., k, n] or B[..., n, k]
    (read at the reduced index and the output's innermost index, a GEMM's
    rhs or A B^T's, its other indices batch dimensions of the output,
    along which the tile's extent is then 1) copies the panel of B its
    column of tiles (and batch) reads into a contiguous buffer of its own
    (zeros past B's edges; a transposed B gathered across its rows), and
    program ids walk the last two output dimensions down the columns of
    tiles, so that the instances that follow on a thread read the same
    panel. Each step of the contraction then reads consecutive cache
    lines rather than one line in each row of B, or a gather (BLIS's
    packed panel; docs/autoscheduler.md, "The CPU").

    `reduce_block = KC` (with `pack`; 0, not printed: none) walks the
    packed contraction's reduced index in blocks of KC (BLIS's kc): for
    each block, the panel of its KC rows is packed and every instance of
    a thread's run down a column of tiles (in groups of at most 4096 rows
    of the output) folds that block in turn, its accumulators kept in a
    scratch buffer between blocks; the rest of the
    program (its epilogue and stores) runs after the last block. A panel
    of K rows that would not stay in the L2 cache then becomes panels that
    do (docs/autoscheduler.md, "Blocking K").

    `reduce_split = S` (1 when not printed) splits the outermost reduced
    extent of the program's top-level `tile.reduce` into at most S chunks
    (none empty), each
    reduced by programs of their own: `tile-split-reductions` makes them
    (`<program>_partial`, its reduction taking `chunks(C along d)`) and
    leaves the program combining their results. It asks for more blocks
    than the outputs alone give, for a reduction over many elements to few
    outputs (a softmax over a vocabulary at a decoding step). Not with
    `mma` (a contraction splits with `split_k`).

    ```mlir
    #tile.schedule<tile = [1, 16, 64], threads = 128>
    #tile.schedule<tile = [16, 64], threads = 128, vector = 8>
    #tile.schedule<tile = [1, 1], threads = 256, reduce_threads = 256>
    #tile.schedule<tile = [1], threads = 256, reduce_threads = 256,
                   reduce_split = 32>
    #tile.schedule<tile = [128, 128], threads = 128,
                   mma = #tile.mma<instr = "mma_sync", tile_k = 32,
                                   warps = [2, 2], stages = 3>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$tile,
                        "int64_t":$threads,
                        OptionalParameter<"MmaAttr">:$mma,
                        DefaultValuedParameter<"int64_t", "1">:$reduceThreads,
                        DefaultValuedParameter<"int64_t", "1">:$reduceSplit,
                        DefaultValuedParameter<"bool", "false">:$reduceInterleaved,
                        DefaultValuedParameter<"int64_t", "1">:$vector,
                        DefaultValuedParameter<"bool", "false">:$pack,
                        DefaultValuedParameter<"int64_t", "0">:$reduceBlock);
  let builders = [
    AttrBuilder<(ins "llvm::ArrayRef<int64_t>":$tile, "int64_t":$threads), [{
      return $_get($_ctxt, tile, threads, MmaAttr(), 1, 1, false, 1, false, 0);
    }]>,
    AttrBuilder<(ins "llvm::ArrayRef<int64_t>":$tile, "int64_t":$threads,
                     "MmaAttr":$mma), [{
      return $_get($_ctxt, tile, threads, mma, 1, 1, false, 1, false, 0);
    }]>,
    AttrBuilder<(ins "llvm::ArrayRef<int64_t>":$tile, "int64_t":$threads,
                     "MmaAttr":$mma, "int64_t":$reduceThreads,
                     "int64_t":$reduceSplit), [{
      return $_get($_ctxt, tile, threads, mma, reduceThreads, reduceSplit,
                   false, 1, false, 0);
    }]>,
    // Every parameter but reduce_block (unblocked).
    AttrBuilder<(ins "llvm::ArrayRef<int64_t>":$tile, "int64_t":$threads,
                     "MmaAttr":$mma, "int64_t":$reduceThreads,
                     "int64_t":$reduceSplit, "bool":$reduceInterleaved,
                     "int64_t":$vector, "bool":$pack), [{
      return $_get($_ctxt, tile, threads, mma, reduceThreads, reduceSplit,
                   reduceInterleaved, vector, pack, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumElements() const;
    /// The rows of a tensor-core schedule's tile: its leading extents'
    /// product (tile[rank - 2] but where a flash kernel's tile holds
    /// several heads).
    int64_t getMmaRows() const;
    /// Why a tensor-core schedule does not fit a program of `rank` that is
    /// (`flash`) or is not a flash kernel ("" when it does, or has no mma):
    /// only a flash kernel folds the dimension before its rows into them
    /// and splits with reduce_split; wgmma's tile_k (MmaAttr).
    std::string tensorCoreRefusal(unsigned rank, bool flash) const;
    /// The holders the tile elements are distributed over: the computing
    /// threads (not a tensor-core schedule's producer warpgroups), or with
    /// reduce_threads, the groups of threads that share reductions.
    int64_t getTileThreads() const {
      return getMma() ? 32 * getMma().getNumWarps()
                      : getThreads() / getReduceThreads();
    }
    int64_t getElementsPerThread() const {
      return getNumElements() / getTileThreads();
    }
    /// The runs of consecutive tile elements a thread holds (`vector`
    /// without reduce_threads), and the runs of consecutive iterations a
    /// thread of a group takes of a shared reduction (`vector` with it).
    int64_t getTileRun() const {
      return getReduceThreads() == 1 ? getVector() : 1;
    }
    int64_t getReductionRun() const {
      return getReduceThreads() == 1 ? 1 : getVector();
    }
    /// Whether program ids walk the last two output dimensions down the
    /// columns of tiles (rows fastest) rather than row-major: with `pack`,
    /// so that the instances that follow share a packed panel.
    bool walksDownColumns() const { return getPack(); }
    /// The tiles' distribution over the tile threads as a linear layout:
    /// the accumulator layout with `mma`, the row-major blocked one (in
    /// runs of `vector` elements) otherwise. None where that is not linear (extents or threads not
    /// powers of two).
    std::optional<::nautilus::layout::LinearLayout> getDistribution() const;
  }];
}

def Tile_ProgramOp : Tile_Op<"program", [Symbol, IsolatedFromAbove,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "The code of one program instance";
  let description = [{
    The entry block takes the kernel's buffers (a memref per tensor, a
    scalar per scalar input; `arg_names` names them) followed by one `index`
    per size (`sizes` names them). The program computes the output tile of
    dimensions `output_dims` (size names or literals) selected by its
    program id; the schedule gives the tile shape. With `launch_ranges`
    the program runs only where each of those sizes is in its range (a
    copy of a program compiled for ranges of one or two sizes, each size
    at most once: `#tile.size_range`).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$arg_names,
                       StrArrayAttr:$sizes, ArrayAttr:$output_dims,
                       Tile_ScheduleAttr:$schedule,
                       OptionalAttr<TypedArrayAttrBase<Tile_SizeRangeAttr,
                           "ranges of sizes">>:$launch_ranges);
  let regions = (region SizedRegion<1>:$body);
  let builders = [
    // Launched at every size.
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::ArrayAttr":$argNames,
                   "::mlir::ArrayAttr":$sizes, "::mlir::ArrayAttr":$outputDims,
                   "ScheduleAttr":$schedule), [{
      build($_builder, $_state, name, argNames, sizes, outputDims, schedule,
            ::mlir::ArrayAttr());
    }]>
  ];
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getRank() { return getOutputDims().size(); }
    /// The tile type of element type `element`.
    mlir::VectorType getTileType(mlir::Type element);
    /// The block argument holding size `name`, or null.
    mlir::Value getSizeArg(llvm::StringRef name);
    /// The extent of output dimension `d` as a value in the entry block.
    mlir::Value getOutputExtent(mlir::OpBuilder &b, mlir::Location loc,
                                unsigned d);
    /// The kernel's `tile.plan` (the one naming this program), or null.
    PlanOp getPlan();
    /// The dimensions (size names or literals) the kernel's `tile.plan`
    /// gives buffer argument `argNumber`, or null.
    mlir::ArrayAttr getBufferDims(unsigned argNumber);
    /// The role ("input", "output", "workspace") the plan gives buffer
    /// argument `argNumber`, or "" without a plan.
    llvm::StringRef getBufferRole(unsigned argNumber);
    /// The value of dimension `dim` (a literal, or a size the plan binds),
    /// if known at compile time.
    std::optional<int64_t> getKnownExtent(mlir::Attribute dim);
    /// The value of `extent` (one of the program's size arguments, or a
    /// constant index), if known at compile time.
    std::optional<int64_t> getKnownExtent(mlir::Value extent);
    /// The dimension `extent` is: the size a size argument names, a
    /// constant index's literal (an i64 IntegerAttr, as output dimensions
    /// and buffer dims state literals); null for any other value.
    mlir::Attribute getExtentDim(mlir::Value extent);
    /// Sets the schedule and gives every tile-shaped value (and splat tile
    /// constant) of the program the new schedule's tile shape.
    void retile(ScheduleAttr schedule);
    /// The stream at the program's top level where the program has no
    /// contraction, or null: what a tensor-core schedule runs as a flash
    /// kernel on a GPU.
    OnlineReduceOp getFlashStream();
  }];
}

def Tile_PlanOp : Tile_Op<"plan", [Symbol]> {
  let summary = "How a kernel runs: its buffers and the programs in order";
  let description = [{
    `buffers` lists every buffer the kernel's programs take, in the order of
    their block arguments: each a dictionary with `name`, `role` (`input`,
    `output`, `workspace` or `scalar`), `type` (a memref type, or the scalar
    type) and `dims` (size names or literals), and, for a workspace only
    copies of a program for ranges of sizes use (a split copy's partial
    results), their `launch_ranges`: it is allocated only where they
    launch. `programs` are launched in order, each over its own grid, each
    seeing the writes of those before; a program with `launch_ranges` only
    where its sizes are in them.
    `sizes` are the size arguments every program takes after the buffers;
    `bindings` those fixed at compile time. `derived_sizes` names sizes the
    compiler computes from the others, each a list of terms
    `[coefficient, "A", "B", ...]` (the coefficient times the product of the
    named sizes) whose sum it is: the runtime computes them, in order,
    before launching.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$sizes,
                       OptionalAttr<DictionaryAttr>:$bindings,
                       OptionalAttr<DictionaryAttr>:$derived_sizes,
                       ArrayAttr:$buffers, SymbolRefArrayAttr:$programs);
  let assemblyFormat = "$sym_name attr-dict";
  let extraClassDeclaration = [{
    /// The programs the plan launches, in launch order (those its symbol
    /// table has: a plan naming a program that does not exist launches
    /// nothing for it).
    ::llvm::SmallVector<ProgramOp, 8> getProgramOps();
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Terminator, HasParent<"ProgramOp">,
    Pure]> {
  let summary = "Ends a program";
  let assemblyFormat = "attr-dict";
}

def Tile_IndexOp : Tile_Op<"index", [Pure]> {
  let summary = "The global index along an output dimension of each element";
  let description = [{
    With `layout` (only in the program's body, not in a reduction), the
    tile is distributed by that layout rather than the schedule's, as a
    `tile.convert_layout` of it would be, without moving anything: each
    thread computes the indices of the elements it holds
    (`tile-assign-layouts` sets it).
  }];
  let arguments = (ins I64Attr:$dim,
                       OptionalAttr<Tile_LinearLayoutAttr>:$layout);
  let builders = [
    // In the schedule's layout.
    OpBuilder<(ins "::mlir::Type":$result, "int64_t":$dim), [{
      build($_builder, $_state, result, dim, LinearLayoutAttr());
    }]>
  ];
  let results = (outs VectorOfAnyRankOf<[Index]>:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [Pure]> {
  let summary = "Reads, for every tile element, one element of a buffer";
  let description = [{
    For the tile element at output index `(i0, ..., ir-1)`, inside the
    reductions (and sweeps) enclosing the op at reduced indices `(k0,
    ...)`, reads the
    buffer at `map(i0, ..., ir-1, k0, ...)` with the program's sizes as
    symbols; the positions listed in `indirect_positions` take their index
    from the matching `indirect` tile instead (a gather). Elements outside the
    output read nothing and hold zero.

    With `layout` (only in the program's body, not in a reduction, and
    only without `indirect` tiles), the tile is distributed by that layout
    rather than the schedule's: each thread reads the elements the layout
    gives it, so a load in the layout its users want needs no conversion
    (`tile-assign-layouts` sets it).
  }];
  let arguments = (ins AnyMemRef:$buffer,
                       Variadic<VectorOfAnyRankOf<[Index]>>:$indirect,
                       AffineMapAttr:$map,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$indirect_positions,
                       OptionalAttr<Tile_LinearLayoutAttr>:$layout);
  let results = (outs AnyVectorOfAnyRank:$result);
  let builders = [
    // In the schedule's layout.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$buffer,
                   "::mlir::ValueRange":$indirect, "::mlir::AffineMapAttr":$map,
                   "::mlir::DenseI64ArrayAttr":$indirect_positions), [{
      build($_builder, $_state, result, buffer, indirect, map,
            indirect_positions, LinearLayoutAttr());
    }]>
  ];
  let assemblyFormat = [{
    $buffer `[` $map `]` (`indirect` `(` $indirect^ `)` `at` $indirect_positions)?
    attr-dict `:` type($buffer) (`,` type($indirect)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [HasParent<"ProgramOp">]> {
  let summary = "Writes the program's output tile, masked at the edges";
  let description = [{
    Stores `value`, the program's tile, into `buffer` at the tile's place
    in the output, leaving out the elements past the output's extents.

    With `along`, the buffer holds fewer dimensions than the output: the
    positions (increasing) of the output dimensions it keeps. The value
    must not vary along the others; only the program instances at index
    0 along them store, and of their tile the elements at offset 0 there,
    so each element of the buffer is written once. A stream stores a
    value over part of its domain this way: a log-sum-exp [N] beside
    attention's O [N, D].
  }];
  let arguments = (ins AnyVectorOfAnyRank:$value, AnyMemRef:$buffer,
                       OptionalAttr<DenseI64ArrayAttr>:$along);
  let assemblyFormat = [{
    $value `,` $buffer (`along` $along^)? attr-dict `:` type($value) `->`
    type($buffer)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$value, "::mlir::Value":$buffer), [{
      build($_builder, $_state, value, buffer, ::mlir::DenseI64ArrayAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether output dimension `d` is a dimension of the buffer.
    bool keepsDim(unsigned d) {
      return !getAlong() || llvm::is_contained(*getAlong(), int64_t(d));
    }
  }];
  let hasVerifier = 1;
}

// (It writes memory, as tile.store does: no memory-effect traits.)
def Tile_SweepOp : Tile_Op<"sweep", [HasParent<"ProgramOp">, SingleBlock]> {
  let summary = "Stores a tile-valued body at every point of one more index";
  let description = [{
    The body takes an `index` i in [0, `extent`) and yields a tile of the
    program's shape; the op stores it into `buffer` at `map(o0, ...,
    or-1, i)` (the tile element's output index, then i; the program's
    sizes as symbols), leaving out elements past the output's extents.
    Loads in the body map the output dimensions, then i, as in a
    reduction's body. The points may be visited in any order.

    It is how a program that reduces rows writes the element-wise
    definition that reads the rows' results in the same pass
    (`tile-sweep-row-consumers`): a softmax's Y[r, c] from X[r, c] and
    the row's max and sum, with the row's reading threads, the row's
    results in their registers and no workspace between two programs.
    Lowered on GPUs only: with `reduce_threads` the group's threads
    split the points as they split the row's reduction (so each reads
    again what it read), each storing its own.

    ```mlir
    tile.sweep over(%C) into %Y[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>]
        : memref<?x?xf32> {
    ^bb0(%c: index):
      %x = tile.load %X[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>]
          : memref<?x?xf32> -> vector<4xf32>
      %y = arith.divf %x, %sum : vector<4xf32>
      tile.yield %y : vector<4xf32>
    }
    ```
  }];
  let arguments = (ins Index:$extent, AnyMemRef:$buffer, AffineMapAttr:$map);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `over` `(` $extent `)` `into` $buffer `[` $map `]` attr-dict `:`
    type($buffer) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile the body yields at each point.
    mlir::Value getYielded();
  }];
}

def Tile_ReduceOp : Tile_Op<"reduce", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "Folds a tile-valued body over reduced indices";
  let description = [{
    The body takes one `index` per reduced dimension (whose extents are the
    operands) and yields the tile to fold at that point; the result is the
    fold of all of them with `kind`, starting from its identity. The order
    of the fold is the lowering's choice.

    A split reduction (`over(%K) chunks(C along d)`, made by
    `tile-split-reductions`) folds only part of its outermost reduced
    index: along output dimension `d`, which its tile takes one at a time
    and its body does not read, the program at index `s` folds the indices
    in [s x C, min(extent, (s + 1) x C)). The results of all `s`, folded
    with `kind`, are the whole reduction.
  }];
  let arguments = (ins Variadic<Index>:$extents, Alg_ReductionKind:$kind,
                       OptionalAttr<I64Attr>:$split_chunk,
                       OptionalAttr<I64Attr>:$split_dim);
  let results = (outs AnyVectorOfAnyRank:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `over` `(` $extents `)`
    (`chunks` `(` $split_chunk^ `along` $split_dim `)`)?
    attr-dict `:` type($result) $body
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::ValueRange":$extents,
                   "::nautilus::alg::ReductionKind":$kind), [{
      build($_builder, $_state, result, extents, kind, ::mlir::IntegerAttr(),
            ::mlir::IntegerAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    bool isSplit() { return getSplitDim().has_value(); }
  }];
}

def Tile_ContractOp : Tile_Op<"contract", [AttrSizedOperandSegments,
                                            RecursiveMemoryEffects]> {
  let summary = "A contraction of two operands over one reduced index";
  let description = [{
    `result[i] = sum over k < extent of lhs(i, k) * rhs(i, k)` for every
    element `i` of the tile, the products and the sum in the result's
    element type. `lhs` reads the second-to-last output dimension (M) and
    the reduced one (K), `rhs` the last (N) and K; any further output
    dimensions are batch dimensions that both may read.

    Each operand is either loaded or computed:

    - loaded: `%buffer[#map]`, `lhs(i, k) = buffer[map(i, k)]`, where the
      map takes the program's output dimensions, then the reduced index,
      and the sizes as symbols (as `tile.load`'s); indices outside the
      buffer read as zero. A loaded operand may add an entry of an i32
      table to one batch index (one whose map result reads neither M, N
      nor K, and not the innermost), the same for the whole tile:
      `%buffer[#map] offset(%table[#tmap] at p)` reads
      `buffer[map(i, k) + table[tmap(i)] at index p]`, where `tmap` (the
      same dims and symbols) does not read K and is uniform over the tile
      along M and N (`isUniformOverTile`): a grouped GEMM's expert,
      `block_experts[m floordiv 128]`. The lowerings read the entry once a
      tile and copy the operand like any other (cp.async, TMA); an entry
      read past the table's end makes the whole tile read zeros.
    - computed: the keyword `computed` and a region (after the types,
      introduced by `lhs` or `rhs`) taking the reduced index and yielding a
      tile of the result's shape in the operand element type, made of
      `tile.load`, `tile.index` and element-wise arith/math ops, that does
      not vary along the other operand's output dimension (N for `lhs`, M
      for `rhs`). Besides its own values it may use splat constants,
      broadcasts of scalars and index tiles (in the program's layout, not
      along the other dimension) defined outside (CSE moves them there);
      the lowerings clone those back in (`sinkIntoComputedOperands`).
      Elements past the operand's rows or past `extent` contribute
      nothing.

    A split contraction (`over(%K) chunks(C along d)`, made by
    `tile-split-contractions`) sums only part of K: along output dimension
    `d`, a batch dimension that no operand reads, the program at index `s`
    sums `k` in [s x C, min(extent, (s + 1) x C)); a computed operand's
    region does not read `d` either. The partial sums of all `s` add up to
    the whole contraction. `C` is a multiple of the
    schedule's `tile_k` (the lowerings step through a chunk a stage at a
    time).

    Both operands are f16 or both bf16 (a computed operand ends in the
    conversion to that type: rounding it is the formation pass's explicit
    choice, see `tile-form-contractions`).

    Formed from a `tile.reduce sum` of a product (`tile-form-contractions`)
    so that it can run on tensor cores. Why not upstream's `vector.contract`
    or `linalg.matmul`: the tensor-core lowerings need each operand as
    something they can produce K step by K step into shared memory (a buffer
    and index map to copy with cp.async or TMA, or a region to evaluate), with
    the reduced extent, not as values already in registers
    (`vector.contract`) or as whole tensors outside the program's tiling
    (`linalg`).

    ```mlir
    %c = tile.contract %A[#mapA], %B[#mapB] over(%K)
        : memref<?x?xf16>, memref<?x?xf16> -> vector<128x128xf32>
    %g = tile.contract computed, %W[#mapW] offset(%experts[#block] at 0)
        over(%D) : memref<?x?x?xbf16>, memref<?xi32>
        -> vector<128x128xf32> lhs { ... }
    %o = tile.contract computed, %V[#mapV] over(%M)
        : memref<?x?xbf16> -> vector<128x64xf32> lhs {
    ^bb0(%m: index):
      ...
      tile.yield %p : vector<128x64xbf16>
    }
    ```
  }];
  let arguments = (ins Arg<Optional<AnyMemRef>, "", [MemRead]>:$lhs,
                       OptionalAttr<AffineMapAttr>:$lhs_map,
                       Arg<Optional<AnyMemRef>, "", [MemRead]>:$lhs_offsets,
                       OptionalAttr<AffineMapAttr>:$lhs_offsets_map,
                       OptionalAttr<I64Attr>:$lhs_offsets_position,
                       Arg<Optional<AnyMemRef>, "", [MemRead]>:$rhs,
                       OptionalAttr<AffineMapAttr>:$rhs_map,
                       Arg<Optional<AnyMemRef>, "", [MemRead]>:$rhs_offsets,
                       OptionalAttr<AffineMapAttr>:$rhs_offsets_map,
                       OptionalAttr<I64Attr>:$rhs_offsets_position,
                       Index:$extent,
                       OptionalAttr<I64Attr>:$split_dim,
                       OptionalAttr<I64Attr>:$split_chunk);
  let results = (outs AnyVectorOfAnyRank:$result);
  let regions = (region AnyRegion:$lhs_body, AnyRegion:$rhs_body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The operands' element type (f16 or bf16).
    mlir::Type getOperandElementType();
    /// Whether operand `side` (0: lhs, 1: rhs) is computed by its region.
    bool isComputed(unsigned side) {
      return !(side == 0 ? getLhsBody() : getRhsBody()).empty();
    }
    /// Operand `side`'s buffer and map (null when computed).
    mlir::Value getOperandBuffer(unsigned side) {
      return side == 0 ? getLhs() : getRhs();
    }
    mlir::AffineMap getOperandMap(unsigned side) {
      std::optional<mlir::AffineMap> map =
          side == 0 ? getLhsMap() : getRhsMap();
      return map ? *map : mlir::AffineMap();
    }
    /// Operand `side`'s offset table, its map and the index it adds to
    /// (null, a null map and 0 when it has none).
    mlir::Value getOperandOffsets(unsigned side) {
      return side == 0 ? getLhsOffsets() : getRhsOffsets();
    }
    mlir::AffineMap getOperandOffsetsMap(unsigned side) {
      std::optional<mlir::AffineMap> map =
          side == 0 ? getLhsOffsetsMap() : getRhsOffsetsMap();
      return map ? *map : mlir::AffineMap();
    }
    unsigned getOperandOffsetsPosition(unsigned side) {
      std::optional<uint64_t> p =
          side == 0 ? getLhsOffsetsPosition() : getRhsOffsetsPosition();
      return p ? *p : 0;
    }
    /// Whether the contraction sums only a chunk of K (see above).
    bool isSplit() { return getSplitDim().has_value(); }
    /// Operand `side`'s region (empty when loaded).
    mlir::Region &getOperandBody(unsigned side) {
      return side == 0 ? getLhsBody() : getRhsBody();
    }
  }];
}

def Tile_RouteOp : Tile_Op<"route", [HasParent<"ProgramOp">]> {
  let summary = "Buckets the rows of a routing table by the expert each names";
  let description = [{
    Counting sort of the rows of a mixture of experts by expert, for a
    grouped GEMM (`tile-group-routed-contractions`). Row `p` is element `p`
    of `ids` in row-major order; `ids[p]` names its expert, in
    `[0, experts)` (another value names none). Expert `e`'s rows take
    positions `start(e) ... start(e) + count(e) - 1` of `order`, in no
    particular order, where `start(e)` is the sum over `e' < e` of
    `count(e')` rounded up to a multiple of `block`; `order` holds the
    number of rows at every other position. `block_experts[b]` is the
    expert of positions `b * block ... (b + 1) * block - 1`, or -1 past the
    last expert's; `slot[p]` is row `p`'s position in `order`, or the size
    of `order` for a row with no expert. `starts` (one per expert) is the
    op's scratch. `order` must hold `rows + experts * (block - 1)`
    positions; `block_experts` at least that divided by `block`.

    The program holding it runs once (output dimensions `[n]`, tile `[n]`,
    the threads of the schedule, one per element): its threads
    count the rows with atomic adds, one thread lays out the blocks, then
    the rows are placed with atomic adds again. Upstream MLIR has no
    histogram or counting-sort op at this level (`linalg` and `vector`
    describe dense computations of a fixed shape), hence this op.

    ```mlir
    tile.route %ids experts(%E) block 128 -> order %order, slot %slot,
        block_experts %blocks, starts %starts
        : memref<?x?xi32>, memref<?xi32>, memref<?x?xi32>, memref<?xi32>,
          memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[I32]>, "", [MemRead]>:$ids,
                       Index:$experts, I64Attr:$block,
                       Arg<MemRefRankOf<[I32], [1]>, "", [MemWrite]>:$order,
                       Arg<MemRefOf<[I32]>, "", [MemWrite]>:$slot,
                       Arg<MemRefRankOf<[I32], [1]>, "", [MemWrite]>:$block_experts,
                       Arg<MemRefRankOf<[I32], [1]>, "", [MemRead, MemWrite]>:$starts);
  let assemblyFormat = [{
    $ids `experts` `(` $experts `)` `block` $block `->` `order` $order `,`
    `slot` $slot `,` `block_experts` $block_experts `,` `starts` $starts
    attr-dict `:` type($ids) `,` type($order) `,` type($slot) `,`
    type($block_experts) `,` type($starts)
  }];
  let hasVerifier = 1;
}

def Tile_SkipIfNegativeOp : Tile_Op<"skip_if_negative",
    [HasParent<"ProgramOp">]> {
  let summary = "Ends a program instance whose table entry is negative";
  let description = [{
    Reads `table` (i32) at `map` of the program's output index, with the
    program's sizes as symbols, and ends the program instance, which then
    writes nothing, when the entry is negative or lies past the table.
    The entry must be the same over the whole tile (`isUniformOverTile`:
    an index read only as `dim floordiv c`, c a multiple of the tile's
    extent), and the op must come before any op with side effects, so
    that a skipped instance has done nothing. What a skipped tile would
    write is never read: skipping saves work and changes no result, so a
    pass may drop the op (`tile-apply-schedules` does, for a schedule
    whose tiles it cannot skip whole).

    A grouped GEMM's rows are bucketed by expert in blocks, and the
    bucketed rows' capacity has a partial block for every expert: blocks
    past the last expert's hold no row (`block_experts` is -1 there) and
    nothing reads them back (`tile-group-routed-contractions`), so the
    programs over those rows skip them rather than multiply zeros.

    ```mlir
    tile.skip_if_negative %block_experts[affine_map<(d0, d1)[s0] ->
        (d0 floordiv 128)>] : memref<?xi32>
    ```

    Upstream MLIR's `scf.if` could hold the rest of the program, but a tile
    program is one block whose ops the lowerings place per tile (and a
    persistent one per tile of its loop); an op that names the condition
    lets each lowering skip the tile its own way.
  }];
  let arguments = (ins MemRefOf<[I32]>:$table, AffineMapAttr:$map);
  let assemblyFormat = "$table `[` $map `]` attr-dict `:` type($table)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The op among the first ops of `program` (before any with side
    /// effects), or null.
    static SkipIfNegativeOp find(ProgramOp program);
    /// The tile.route, in a program of the same plan, that writes the
    /// table as its `block_experts` (matched by the buffer's name), or null.
    RouteOp getRouting();
    /// Whether the entry is the same over every tile of shape `tile`.
    bool isUniformOver(llvm::ArrayRef<int64_t> tile);
  }];
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "The same tile, distributed by another layout";
  let description = [{
    The tile `source`, its elements moved so that thread (lane, warp) holds
    in register r the element `layout` places there. Values without a
    conversion are distributed as the program's schedule says; the GPU
    lowering moves the elements through shared memory. Upstream MLIR has no
    distributed-layout attribute on values nor a conversion between layouts
    (the gpu and vector dialects distribute by rewriting), hence this op.

    ```mlir
    %b = tile.convert_layout %a : vector<16x8xf32> to #tile.linear<...>
    ```
  }];
  let arguments = (ins AnyVectorOfAnyRank:$source,
                       Tile_LinearLayoutAttr:$layout);
  let results = (outs AnyVectorOfAnyRank:$result);
  let assemblyFormat = "$source `:` type($result) `to` $layout attr-dict";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_OnlineReduceOp : Tile_Op<"online_reduce", [RecursiveMemoryEffects]> {
  let summary = "Reductions over one index streamed in one pass, repaired";
  let description = [{
    The tile form of `alg.online_reduce` (see there): one result per
    accumulator (`accumulators`: `max`/`min` leaders, then or among them
    `sum` followers), all of the result type. The body takes the streamed
    index and one tile per leader, and yields one tile per accumulator: a
    leader's term (not reading any leader), a follower's term at the given
    leader values. `repairs` has one region per leader, taking the old and
    new leader tiles and yielding one factor tile per follower.

    A lowering keeps running leaders and partial sums: at each point it
    folds the leaders' terms, computes the followers' terms at the new
    leaders (a leader at its identity read as 0), and adds them to the
    partial sums multiplied by the repair factors from the old leaders to
    the new (1 from a leader at its identity). Loads
    in the body map the output dimensions, then the streamed index (then
    the indices of any `tile.reduce` nested in it).

    A `mean` leader's result is the mean of its terms, and its repair
    takes the old and new means and the count of points folded before
    (a float tile), and yields one addend tile per follower, added to the
    follower's partial sum (see `alg.online_reduce`). A stream with a mean
    leader has no other leader, and is not narrowed to a mask's keys: its
    count is of every key from the first (of a split stream, from its
    chunk's first).

    A split stream (`over(%M) chunks(C along d)`, made by
    `tile-split-reductions`: split-KV) streams only part of the index: the
    program at index `s` along output dimension `d` (which its tile takes
    one at a time and its body does not read) streams
    [s x C, min(extent, (s + 1) x C)). Its results are partial leaders and
    sums, which a second stream combines, or, for a mean, sums over the
    chunks by Chan's rule (see tile-split-reductions).

    Over an extent not bound at compile time the chunk is computed at
    launch: `chunks(C along d in P)` splits the index into the P parts
    that dimension `d` counts, each ceil(extent / P) points rounded up to
    a multiple of C, at least C (the granule: a flash kernel's key block,
    so that only the last block of a chunk may be partial); parts past
    the extent stream nothing.
  }];
  let arguments = (ins Index:$extent, StrArrayAttr:$accumulators,
                       OptionalAttr<I64Attr>:$split_chunk,
                       OptionalAttr<I64Attr>:$split_dim,
                       OptionalAttr<I64Attr>:$split_parts);
  let results = (outs Variadic<AnyVectorOfAnyRank>:$results);
  let regions = (region SizedRegion<1>:$body,
                        VariadicRegion<SizedRegion<1>>:$repairs);
  let assemblyFormat = [{
    `over` `(` $extent `)`
    (`chunks` `(` $split_chunk^ `along` $split_dim (`in` $split_parts^)? `)`)?
    `accumulators` $accumulators attr-dict `:`
    type($results) $body `repairs` $repairs
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$results, "::mlir::Value":$extent,
                   "::mlir::ArrayAttr":$accumulators,
                   "unsigned":$repairCount), [{
      build($_builder, $_state, results, extent, accumulators,
            ::mlir::IntegerAttr(), ::mlir::IntegerAttr(), ::mlir::IntegerAttr(),
            repairCount);
    }]>
  ];
  let extraClassDeclaration = [{
    bool isSplit() { return getSplitDim().has_value(); }
    /// The kind of accumulator `i` (`sum` for a mean: see isMean).
    ::nautilus::alg::ReductionKind getAccumulatorKind(unsigned i);
    /// Whether accumulator `i` is a leader (max, min or mean).
    bool isLeader(unsigned i);
    /// Whether accumulator `i` is a mean leader (Welford/Chan).
    bool isMean(unsigned i);
    /// Whether the stream's leader is a mean (then its only leader).
    bool hasMeanLeader();
    /// The number of leaders.
    unsigned getNumLeaders();
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Terminator,
    ParentOneOf<["ReduceOp", "ContractOp", "OnlineReduceOp",
               "SweepOp"]>, Pure]> {
  let summary = "The tile folded at one reduced point, or a computed operand's tile";
  let description = [{
    One tile, but in a `tile.online_reduce` (one term per accumulator, one
    factor per follower).
  }];
  let arguments = (ins Variadic<AnyVectorOfAnyRank>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
  let extraClassDeclaration = [{
    /// The one tile yielded (reductions and computed operands).
    mlir::Value getValue() { return getValues().front(); }
  }];
}

#endif
