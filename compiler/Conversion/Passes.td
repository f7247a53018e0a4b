//===- Passes.td - Lowerings from one layer to the next ----*- tablegen -*-===//
#ifndef NAUTILUS_CONVERSION_PASSES
#define NAUTILUS_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertAlgToTile : Pass<"convert-alg-to-tile", "::mlir::ModuleOp"> {
  let summary = "Turn each alg kernel into tile programs and a launch plan";
  let description = [{
    Every `alg.define` left after fusion becomes one `tile.program` that
    computes one output tile per instance: a `tile.reduce` over the reduced
    indices if the definition reduces, its epilogue, and a `tile.store`.
    Scalar ops of the alg bodies become the same ops on tiles. A `tile.plan`
    lists the buffers (inputs, outputs, and a workspace per intermediate)
    and the programs in order. Schedules come from the schedule provider
    (the heuristics unless the pipeline hands it another), for the
    module's target (`#tile.target`) and the bound sizes; a reduction of rows on a GPU
    takes groups of threads (`reduce_threads`) and, for few outputs over
    long rows, a split across programs (`reduce_split`), sized for the
    multiprocessors (`defaultReductionSchedule`).
  }];
  let dependentDialects = ["::nautilus::tile::TileDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertTileToCPU : Pass<"convert-tile-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Turn tile programs into host functions over vectors";
  let description = [{
    Each `tile.program @P` becomes `func.func @P(buffers..., sizes...,
    %first: index, %last: index)` running the program instances with ids in
    [first, last), row-major over the grid. Tiles stay vectors: loads read
    only the dimensions their map depends on and broadcast (an index
    constant over the tile, as `h floordiv c` with c a multiple of the
    tile's extent and known from the plan's bindings, is no dependence:
    tile::isUniformOverTile), with one masked
    vector load per row where the innermost dimension is contiguous and a
    masked gather otherwise; reductions are loop nests carrying the
    accumulator (a row reduction that reads its rows along their innermost
    dimension with its vector lanes along the reduced index instead,
    reduced across them at the end: dialects/Tile/Utils/ReducedLanes.h);
    stores are masked per row. The `tile.plan` is kept for the runtime.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "the vector width in bits that reductions along their reduced "
           "index fold (0: this host's)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turn tile programs into GPU kernels, one thread block each";
  let description = [{
    Each `tile.program @P` becomes a kernel `gpu.func @P` in
    `gpu.module @nautilus_kernels`, launched with one block per program id
    and the schedule's threads per block. Thread t holds the tile elements
    at row-major positions t, t + T, t + 2T, ... (coalesced along the
    innermost dimension), so each tile op becomes E = |tile| / T scalar ops
    per thread: loads and stores guarded by the element's bounds, reductions
    loop nests carrying the E accumulators in registers. Target-neutral:
    NVVM or ROCDL follows. With `reduce_threads = R`, groups of R threads
    take a thread's place, share each top-level reduction (strided loops,
    butterfly shuffles, shared memory across warps) and store from their
    first thread. A program with a tensor-core schedule
    (`#tile.mma`) distributes its tiles in the mma accumulator layout and
    runs its `tile.contract` as a cp.async / ldmatrix / mma.sync pipeline
    (NVIDIA only); its shared memory and accumulators are checked against
    the target's limits first.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif
