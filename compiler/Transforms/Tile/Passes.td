//===- Passes.td - Passes from tile programs to tile programs *- tablegen -*-===//
#ifndef NAUTILUS_TRANSFORMS_TILE_PASSES
#define NAUTILUS_TRANSFORMS_TILE_PASSES

include "mlir/Pass/PassBase.td"

def TileGroupRoutedContractions
    : Pass<"tile-group-routed-contractions", "::mlir::ModuleOp"> {
  let summary = "Bucket a mixture of experts' rows by expert for grouped GEMMs";
  let description = [{
    A program storing a workspace whose reductions read weights through
    one routing table indexed by the output's rows (`G[t, j, f] =
    sum[d](X[t, d] * W[ids[t, j], d, f])`, or sibling sums of a mixture of
    experts' gate and up weights by the same table, each with as many
    experts: every output dimension but one,
    N, is a row dimension the table reads, in its order; the other reads
    name a row dimension only as a whole index) is recomputed over the rows
    bucketed by expert. A routing program (`tile.route`, one per table,
    launched before the first such program) writes the bucketed order in
    blocks of 128 rows of one expert; the program then has output
    dimensions `[routed(ids), N]` (the derived size `rows + experts x 127`,
    the bucketed rows' capacity): a row index reads `order` and splits it
    into the table's coordinates, the weights' expert is the block's
    (`block_experts[q floordiv 128]`, the same for a whole tile of rows).
    The workspace holds the bucketed rows; the other programs read row
    `(t, j)` of it at `slot[t, j]`, except one grouped by the same routing,
    which reads its own bucketed row (`slot[order[q]]` is q). Blocks past
    the last expert's hold no row and are never read back: the program
    skips them (`tile.skip_if_negative` on the block's entry, -1 there).
    tile-form-contractions then makes the
    reduction a contraction whose operands the tile computes (a grouped
    GEMM on tensor cores). NVIDIA targets only; other programs, and other
    targets, are left alone.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::vector::VectorDialect"];
}

def TileFormContractions : Pass<"tile-form-contractions", "::mlir::ModuleOp"> {
  let summary = "Turn reductions of products into tensor-core contractions";
  let description = [{
    A `tile.reduce sum` over one index whose body yields the product of two
    f16 or bf16 loads widened to f32, where one load reads the M dimension
    (the second-to-last output dimension) and the reduced index K, the
    other N (the last) and K, both possibly batch dimensions (M, N and K
    plain dimensions, batch indices any expression of batch dimensions and
    sizes), the innermost either K or M/N, becomes a `tile.contract`. So
    does a product of one such load and an f32 factor computed from loads
    that do not vary along the load's row dimension, when the result
    reaches memory only through a conversion to a 16-bit float (after
    element-wise ops and sums, and through workspaces that later programs
    read back only so): the factor
    moves into the contraction's region, rounded to the load's type
    (attention's P V); with wgmma the producer warpgroup evaluates it. A
    load whose one gathered index is an entry of an i32 table read the
    same over any tile (a grouped GEMM's expert, `block_experts[m floordiv
    128]`) is loaded too, the table becoming the operand's offset table. A
    factor that is a 16-bit value widened to f32 but not such a load (a
    gather of rows) becomes a computed operand as it is, without rounding;
    reads of the other operand's dimension that are the same over a whole
    tile (`tile::isUniformOverTile`) are allowed. Two or more such sums in
    one program (alg-fuse-shared-operands' gate and up projections), when
    every sum of the program is such a product over the same extent (one
    value, or equal literals) and all have the same lhs (loaded from one
    buffer at one map, or computed by the same operations: a mixture of
    experts' gathered rows, which tile-materialize-computed-operands then
    computes once into a workspace), each with a loaded rhs adding the
    same offset table's entry or none, all become contractions: siblings
    (`tile::siblingContracts`) that one tensor-core pipeline runs
    (mma.sync's, or wgmma's where TMA can read every operand's rows),
    staging the lhs tile once; tile N is one contraction's divided among
    the siblings (at most 128 / siblings on mma.sync, not below 32; 128 or
    256 / siblings on wgmma, not below 64), never split.
    (alg-fuse-shared-operands fuses on GPUs only groups that are such
    siblings.)
    Its program is rescheduled for the target's tensor
    cores (`#tile.mma`), every tile of the program taking the new shape:
    on sm_80, mma.sync with tile M and N up to 128 (at least 32), 32 of K
    a step, 2 x 4 warps (fewer along N for a narrow tile), 3 stages; on
    sm_90, wgmma with tile M and N of 64 or 128 (N of 256 when bound to at
    least 256 with both operands loaded), 64 of K a step, a
    warpgroup per 64 rows, 4 stages. Where the output's extents are bound
    and twice its tiles would still fit in one wave of the target's
    multiprocessors (the module's `#tile.target`: its `multiprocessors`,
    else 108 on sm_80 and 132 on sm_90), the larger of tile M and N is halved (not below 32, or 64 for
    wgmma; M first when the lhs is computed, N first when the rhs is, so
    as not to evaluate it more often) until they would not: a small or
    skinny problem is spread over the machine. If even the smallest tiles
    leave half the multiprocessors idle, a contraction over a bound K
    (without offset tables or skipped tiles) asks for `split_k` chunks of K, the most (a
    power of two) whose programs still fit in one wave with at least 8
    steps of `tile_k` a chunk (`tile-split-contractions` realises it). Programs without such a reduction, and non-NVIDIA
    targets, are left as they are.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect"];
}

def TileMaterializeComputedOperands
    : Pass<"tile-materialize-computed-operands", "::mlir::ModuleOp"> {
  let summary = "Compute a contraction's computed operand once, into a workspace";
  let description = [{
    A computed operand (`tile.contract computed`) is evaluated by every
    program instance that needs it, once per tile along the other operand's
    dimension, by the threads. When its region never reads the other
    dimension and that dimension's bound extent is at least 4 tiles (a
    mixture of experts' down projection: `silu(G) x U` for each of D / 128
    column tiles; its gate and up projections: X's rows gathered for each
    of F / 128; not attention's P, whose other dimension is the head, one
    tile), the region moves into a new program launched just before: over
    the program's output dimensions with K in place of the other one,
    default CUDA-core schedule, storing the 16-bit operand to a new
    workspace `<program>.lhs` (or `.rhs`). The contraction then loads it
    there like any operand (cp.async, TMA). Tiles the program skips
    (`tile.skip_if_negative` not reading the other dimension: a grouped
    GEMM's empty blocks of rows) the new program skips too. Operands that
    compute the same (the same ops on the same buffers and sizes, skipping
    the same tiles) share one workspace.
    Unbound extents are left alone (recomputing is bounded; a workspace
    of unknown size might not be), except for sibling contractions, whose
    shared computed lhs is always materialized (they share a loaded lhs
    tile only) and whose schedule is kept. The new program takes the
    provider's vector runs (a gather's rows as 16-byte vectors). NVIDIA
    programs only have contractions; other targets pass through.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect"];
}

def TileFoldConversionPrograms
    : Pass<"tile-fold-conversion-programs", "::mlir::ModuleOp"> {
  let summary = "Round a workspace in the program that writes it";
  let description = [{
    A program whose body only loads a workspace at its own point (the
    identity map), rounds it to a narrower float (`arith.truncf`) and
    stores it to another buffer, possibly skipping tiles
    (`tile.skip_if_negative`: what a skipped tile would write is never
    read) (tile-materialize-computed-operands' copy
    of a gated MLP's or a mixture of experts' f32 `A` into the bf16 operand
    of the down projection, where the gate and up projections are sibling
    contractions) is folded
    into the one program that writes that workspace, once and over the
    same output dimensions: the writer stores the rounded value into the
    copy's buffer, the copy leaves the plan and the workspace goes. Left
    alone where another program reads the workspace or touches the copy's
    buffer, where several write the workspace, and where the workspace is
    not one (an input or output). The values are those the copy stored.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileSweepRowConsumers
    : Pass<"tile-sweep-row-consumers", "::mlir::ModuleOp"> {
  let summary = "Write an element-wise program in the program of the rows it reads";
  let description = [{
    A program that reduces rows (output dimensions O; at its top level
    only reductions or one stream over one index C, unsplit, and
    element-wise ops and stores of its results) followed in the plan by
    an element-wise program over O and C (softmax's Y after its row
    stream, a norm's Y after its statistics) becomes one program: the
    element-wise program's body moves into a `tile.sweep` over C at the
    end of the first, into the same output buffer, its reads of the
    first program's results (the row's value, read at O) replaced by the
    results themselves. On a GPU the threads that reduced a row then
    write its outputs from their own reads (which the L1 cache still
    holds), so the input is read from memory once rather than twice, and
    the row results stay in registers: a store the second program alone
    read is dropped. The merged program takes the element-wise program's
    name and the first's schedule.

    Left alone: rows each thread reduces alone (no `reduce_threads`: it
    would sweep them alone, its stores strided across a warp's rows),
    interleaved groups and column reductions (consecutive threads hold
    other rows), reductions to one value, contractions, routed rows, split
    reductions, consumers that read none of the rows' results, or have
    reductions, gathers, layouts or non-splat constant tiles of their
    own, programs not launched one right after the other, and any target
    whose schedule provider says no (`sweepsRowConsumers`: the CPU, whose
    lowering has no sweep). Where the rows' schedule does not share them,
    the provider may re-schedule them (`sweepableRows`: the GPU model's
    best schedule that shares them), but not over rows of a length
    unbound at compile time, where the checker's proof of the sweep's
    loops may not finish. Each merge, and under `explain` each consumer
    left apart for want of shared rows, is a remark.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Report each merge as a remark">,
  ];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::vector::VectorDialect"];
}

def TileApplySchedules : Pass<"tile-apply-schedules", "::mlir::ModuleOp"> {
  let summary = "Give programs the schedules a provider replaces";
  let description = [{
    Asks the schedule provider (compiler/Schedule/ScheduleProvider.h)
    which programs' schedules it replaces as a whole, and gives each such
    `tile.program` the new schedule (every tile of the program taking its
    shape): schedules are data, written by hand or by a search, and
    replayed. From nautc-opt, `path` names a JSON schedule file,
    `{"programs": {"NAME": "#tile.schedule<...>", ...}}` (the pass does
    nothing without one); the pipeline hands the pass its provider. Runs after
    `tile-form-contractions` (a tensor-core schedule needs the program's
    `tile.contract`) and before layouts are assigned. Rejected, with an
    error naming the program: an unknown program, text that is not a
    `#tile.schedule`, a tile of another rank, a tensor-core schedule
    (`mma`) for a program without a contraction or the reverse, `wgmma` on
    a target other than sm_90, a computed operand under `wgmma` without a
    producer warpgroup.
  }];
  let options = [
    Option<"path", "path", "std::string", /*default=*/"\"\"",
           "the schedule file (JSON), when run from nautc-opt">,
  ];
  let dependentDialects = ["::nautilus::tile::TileDialect"];
}

def TileSplitContractions
    : Pass<"tile-split-contractions", "::mlir::ModuleOp"> {
  let summary = "Split a contraction's K into chunks run by programs of their own";
  let description = [{
    A program whose tensor-core schedule has `split_k = S` (> 1; chosen by
    `tile-form-contractions` or given in a schedule file) becomes two:
    `<program>_partial`, over [S', the program's output dimensions], whose
    program at index s contracts chunk s of K (`tile.contract ... chunks(C
    along 0)`, C = tile_k x ceil(ceil(K / tile_k) / S), S' = ceil(K / C)
    <= S: no chunk is empty; with S' = 1 the schedule just drops
    `split_k`) on the tensor cores with the program's
    schedule and stores its f32 partial sums to a new workspace
    `<program>.partial` [S', dims]; then the program itself, which now sums
    the S' partials where it had the contraction (a `tile.reduce sum`) and
    runs its epilogue as before, on the CUDA cores: the default schedule,
    its tiles halved (the outer extent first, the inner down to 32) while
    its programs are fewer than the multiprocessors. The
    plan launches the partial program just before it. Results differ from
    the unsplit contraction's only in the order of the f32 additions.
    A computed operand's region moves with the contraction (its reads and
    indices taking the chunk index first): attention's P V at a decoding
    step splits over the keys, as flash-decoding does. Refused with an
    error naming the program (`splitKRefusal`): a contraction not at the
    program's top level, with an offset table, in a program that skips
    tiles, or over an extent not bound at compile time. Runs after the schedules are final
    (`tile-apply-schedules`) and before layouts are assigned.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileSplitReductions
    : Pass<"tile-split-reductions", "::mlir::ModuleOp"> {
  let summary = "Split a reduction into chunks run by programs of their own";
  let description = [{
    A program whose schedule has `reduce_split = S` (> 1; chosen by
    `convert-alg-to-tile` for few outputs over long rows, or given in a
    schedule file) becomes two: `<program>_partial`, over [the program's
    output dimensions, S'], whose program at index s folds chunk s of its
    top-level reduction's outermost index (`tile.reduce ... chunks(C along
    rank)`, C = ceil(extent / S), S' = ceil(extent / C) <= S: no chunk is
    empty; with S' = 1 the schedule just drops `reduce_split`) with the
    program's schedule and stores the results to a new workspace
    `<program>.partial` [dims, S'] (the chunk index innermost); then the
    program itself, which now folds the S' partials with the same kind
    where it had the reduction and runs its epilogue as before, with the
    default schedule of a reduction that gives each of a group's threads
    one partial. The plan launches the partial program just before it.
    Results differ from the unsplit reduction's only in the order of the
    fold. A program whose top-level op is a stream (`tile.online_reduce`)
    is split likewise (split-KV, SplitStreams.cpp): `<program>_partial`
    over [S', dims] streams chunk s (`chunks(C along 0)`) and stores every
    accumulator to a workspace `<program>.partial<i>`; the program then
    streams over the S' chunks with the same accumulators and repairs,
    each chunk's sums repaired from its leaders to the running ones (a
    stream led by a mean: sums over the chunks by Chan's rule, its
    chunks' means weighted by their counts). Refused with an error naming
    the program
    (`splitReductionRefusal`): not exactly one reduction at the program's
    top level, a contraction, routing or skipped tiles in the program, an
    outermost extent not bound at compile time, or partial results of a
    type no buffer has. Runs after the
    schedules are final (`tile-apply-schedules`) and before layouts are
    assigned.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Choose the layout of each tile and remove needless conversions";
  let description = [{
    A program's tiles are distributed as its schedule says (the mma
    accumulator layout with tensor cores) unless a `tile.convert_layout`
    moves one to another layout, or a `tile.load` or `tile.index` is
    produced in one of its own (`layout`). In each program whose
    distribution is a linear layout the pass:

    1. Anchors stores: in a tensor-core program, the accumulator layout's
       stores cover 8 rows of a few bytes a warp. Where the static shared
       memory the pipeline leaves holds the move (in at most two bands), a
       stored tile is converted to a layout in which each thread holds 16
       consecutive bytes of a row and consecutive lanes the next 16
       (`coalescedLayout`), so that each warp writes whole rows with
       16-byte stores; a move in two bands goes in two blocks of columns,
       each laid out so on its own, where the stored tile's layout puts
       each register in one block (wgmma's accumulators).
    2. Moves conversions toward the values they convert, and removes the
       needless ones: a conversion of a conversion converts the original;
       a conversion to the layout its value has, or of a uniform tile
       (splat constant, broadcast scalar), goes; a load or index tile, or
       an element-wise op of such tiles, is produced in the target layout
       instead (copied if it has other users); an element-wise op (with no other user) gets its operands
       converted instead of its result where that moves no more data and
       gains something: at most one operand then needs a move, no wider
       than the result (a conversion stays after a truncation to bf16), and
       moving on reaches a load (then read in the target layout: coalesced
       where the target is), a conversion or the target layout itself.
    3. Unifies operands: an element-wise op whose tile operands are in
       different layouts gets them in one (its first operand's that is not
       a load or index; loads and index tiles are produced in it, other
       tiles converted), which the GPU lowering requires.

    Upstream MLIR has no layout propagation for distributed values (the
    vector dialect distributes by rewriting), so this pass is the
    project's own, in the spirit of Triton's layout propagation and
    conversion removal.
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect"];
}

#endif
