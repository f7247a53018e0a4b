//===- Pipelines.cpp - The end-to-end lowering pipelines ------------------===//
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Conversion/Passes.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "dialects/Alg/KernelSignature.h"
#include "compiler/Pipeline/PtxMerge.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Target/Passes.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/LLVM/Passes.h"
#include "compiler/Transforms/Tile/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/Threading.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"

#include <atomic>

using namespace mlir;
using namespace nautilus;

void nautilus::registerPipelineDialects(DialectRegistry &registry) {
  registry.insert<alg::AlgDialect, tile::TileDialect, arith::ArithDialect,
                  math::MathDialect, vector::VectorDialect,
                  memref::MemRefDialect, func::FuncDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, LLVM::LLVMDialect, ub::UBDialect,
                  gpu::GPUDialect, nvgpu::NVGPUDialect, NVVM::NVVMDialect,
                  ROCDL::ROCDLDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  arith::registerConvertArithToLLVMInterface(registry);
}

/// Tile programs with the schedules `schedules` decides, for the module's
/// target.
static void buildScheduledTile(OpPassManager &pm,
                               const std::shared_ptr<ScheduleProvider> &schedules) {
  // Contractions that share an operand and that one element-wise
  // definition reads (a gated MLP's gate and up projections) are computed
  // there, before that definition is inlined into its readers.
  pm.addPass(createAlgFuseSharedOperands(schedules, /*explain=*/true));
  // Element-wise definitions are recomputed where they are read (those
  // that a reduction reads again too, unless the provider stores them).
  pm.addNestedPass<alg::KernelOp>(
      createAlgFuseElementwise(schedules, /*explain=*/true));
  // Algebra that makes reduction fusion pay, once elementwise definitions
  // are inlined (which exposes softmax's division inside a weighted sum)
  // and before fusion (which needs that division out of the term): factors
  // constant along a reduced index move out of it, positive scales move
  // into the readers that take them for free, and exp becomes exp2 with
  // those scales and log2(e) in one coefficient. Remarks as below.
  pm.addNestedPass<alg::KernelOp>(
      createAlgFactorReductions(AlgFactorReductionsOptions{/*explain=*/true}));
  pm.addNestedPass<alg::KernelOp>(
      createAlgSinkScales(AlgSinkScalesOptions{/*explain=*/true}));
  pm.addNestedPass<alg::KernelOp>(
      createAlgExpToExp2(AlgExpToExp2Options{/*explain=*/true}));
  // Chains of reductions over one index stream in one pass where the
  // target's lowering runs streams; each decision is a remark (nautc shows
  // them under --explain).
  pm.addPass(createAlgFuseReductions(schedules, /*explain=*/true));
  pm.addPass(createConvertAlgToTile(schedules));
  // The lowering reads an operand at each of its uses (gelu's X five
  // times): one read an element before any schedule is chosen from the
  // programs' reads (the models count what the kernel will do).
  pm.addPass(createCSEPass());
  // A mixture of experts' contractions, bucketed by expert, become grouped
  // GEMMs; contractions that tensor cores can run take a tensor-core
  // schedule (NVIDIA targets; the passes leave other targets alone).
  pm.addPass(createTileGroupRoutedContractions(schedules));
  pm.addPass(createTileFormContractions(schedules));
  // Computed operands that many tiles would recompute go to workspaces.
  pm.addPass(createTileMaterializeComputedOperands(schedules));
  // A copy that only rounds a workspace is folded into its writer.
  pm.addPass(createTileFoldConversionPrograms());
  // An element-wise program that reads a row reduction's results is
  // written by the threads that reduced the rows (GPUs).
  pm.addPass(createTileSweepRowConsumers(schedules, /*explain=*/true));
}

/// Canonicalization and CSE of freshly lowered kernels. The canonicalizer
/// walks bottom-up: on the flash kernel's unrolled body (attention, d128,
/// sm_90) its default top-down walk took 140 ms to reach the same IR that
/// a bottom-up walk reaches in 10 ms.
static void addCleanup(OpPassManager &pm) {
  GreedyRewriteConfig bottomUp;
  bottomUp.setUseTopDownTraversal(false);
  pm.addPass(createCanonicalizerPass(bottomUp));
  pm.addPass(createCSEPass());
}

/// Split contractions and reductions, and layouts, for the schedules the
/// programs have.
static void buildTileLayouts(OpPassManager &pm,
                             const std::shared_ptr<ScheduleProvider> &schedules) {
  pm.addPass(createTileSplitContractions(schedules));
  pm.addPass(createTileSplitReductions(schedules));
  pm.addPass(createTileAssignLayouts());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

static void buildAlgToTile(OpPassManager &pm) {
  buildScheduledTile(pm, heuristicSchedules());
  buildTileLayouts(pm, heuristicSchedules());
}

void nautilus::buildHostLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createLegalizeMath());
  pm.addPass(createDropVectorUnitDims());
  pm.addPass(createCSEPass());
  {
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16", "f16"};
    emulate.targetTypeStr = "f32";
    pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  }
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Math first: what LLVM has no intrinsic for (erf of f64) becomes libm
  // calls, a vector's element by element (vector.extract and insert, which
  // the vector lowering after it takes).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void nautilus::buildGPUToLLVMPipeline(OpPassManager &pm,
                                      const TargetInfo &target) {
  // The passes that work within a function run per kernel, in parallel
  // across a kernel's programs.
  {
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
    kernels.addPass(
        createLegalizeMath(LegalizeMathOptions{target.hasExp2Instruction}));
    // bf16 and f16 arithmetic in f32: loads and stores keep their types.
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16", "f16"};
    emulate.targetTypeStr = "f32";
    kernels.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
    kernels.addPass(createSCFToControlFlowPass());
    kernels.addPass(memref::createExpandStridedMetadataPass());
    kernels.addPass(createLowerAffinePass());
  }
  if (target.isNVIDIA()) {
    GpuNVVMAttachTargetOptions attach;
    attach.chip = target.chip;
    attach.features = target.ptxFeatures;
    attach.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(attach));
  } else {
    GpuROCDLAttachTargetOptions attach;
    attach.chip = target.chip;
    attach.optLevel = 3;
    pm.addPass(createGpuROCDLAttachTarget(attach));
  }
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (target.isNVIDIA()) {
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
    // The fragments of the tensor-core lowering are small vectors; NVVM ops
    // without an intrinsic (wgmma, predicated or polling mbarrier ops)
    // become inline PTX.
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertVectorToLLVMPass());
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  }
  else {
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToROCDLOps());
    // Runs of a row as vectors (`vector` schedules): their loads, stores and
    // element extractions.
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertVectorToLLVMPass());
  }
  pm.nest<gpu::GPUModuleOp>().nest<LLVM::LLVMFuncOp>().addPass(
      createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  {
    OpPassManager &kernels =
        pm.nest<gpu::GPUModuleOp>().nest<LLVM::LLVMFuncOp>();
    kernels.addPass(createArithToLLVMConversionPass());
    kernels.addPass(createConvertIndexToLLVMPass());
    addCleanup(kernels);
  }
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLibcallsToIntrinsics());
}

LogicalResult nautilus::lowerTileToGPU(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createConvertTileToGPU());
  // Per kernel, so that the kernels are simplified in parallel.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  addCleanup(kernels);
  return pm.run(module);
}

LogicalResult nautilus::lowerGPUToLLVM(ModuleOp module,
                                       const TargetInfo &target) {
  PassManager pm(module.getContext());
  buildGPUToLLVMPipeline(pm, target);
  return pm.run(module);
}

/// The NVIDIA kernels of `module` compiled to PTX one module per kernel,
/// in parallel (LLVM's optimisation and code generation take most of the
/// compile time, and a kernel's programs are independent), then joined.
static LogicalResult serializeNVVMKernels(ModuleOp module, std::string &text) {
  SmallVector<OwningOpRef<gpu::GPUModuleOp>> parts;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    SmallVector<StringRef> kernels;
    for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        kernels.push_back(func.getSymName());
    for (StringRef kernel : kernels) {
      OwningOpRef<gpu::GPUModuleOp> part = gpuModule.clone();
      for (auto func :
           llvm::make_early_inc_range(part->getOps<LLVM::LLVMFuncOp>()))
        if (func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) &&
            func.getSymName() != kernel)
          func.erase();
      parts.push_back(std::move(part));
    }
  }
  SmallVector<std::string> ptx(parts.size());
  std::atomic<bool> failed = false;
  parallelFor(module.getContext(), 0, parts.size(), [&](size_t i) {
    auto target = cast<gpu::TargetAttrInterface>(parts[i]->getTargetsAttr()[0]);
    gpu::TargetOptions options({}, {}, {}, {},
                               gpu::CompilationTarget::Assembly);
    std::optional<SmallVector<char, 0>> object =
        target.serializeToObject(parts[i].get(), options);
    if (!object) {
      failed = true;
      return;
    }
    ptx[i].assign(object->begin(), object->end());
    while (!ptx[i].empty() && ptx[i].back() == '\0')
      ptx[i].pop_back();
  });
  if (failed)
    return module.emitError("compiling the kernels to PTX failed");
  text = mergePtxModules(ptx);
  return success();
}

LogicalResult nautilus::serializeGPUModule(ModuleOp module,
                                           std::string &text) {
  bool nvidia = llvm::any_of(module.getOps<gpu::GPUModuleOp>(), [](auto m) {
    return m.getTargetsAttr() &&
           llvm::any_of(m.getTargetsAttr(), llvm::IsaPred<NVVM::NVVMTargetAttr>);
  });
  if (nvidia)
    return serializeNVVMKernels(module, text);
  PassManager pm(module.getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(module)))
    return failure();
  text.clear();
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      text += cast<gpu::ObjectAttr>(object).getObject().getValue().str();
  return success();
}

LogicalResult nautilus::translateGPUModuleToLLVMIR(ModuleOp module,
                                                   std::string &text) {
  llvm::raw_string_ostream os(text);
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, "nautilus_kernels");
    if (!llvmModule)
      return failure();
    llvmModule->print(os, nullptr);
  }
  return success();
}

void nautilus::registerNautilusPipelines() {
  struct TargetOption : public PassPipelineOptions<TargetOption> {
    Option<std::string> target{*this, "target",
                               llvm::cl::desc("The target of the schedule"),
                               llvm::cl::init("cpu")};
    Option<int64_t> multiprocessors{
        *this, "multiprocessors",
        llvm::cl::desc("The multiprocessors default schedules fill (0: the "
                       "target's)"),
        llvm::cl::init(0)};
  };
  PassPipelineRegistration<TargetOption>(
      "nautilus-alg-to-tile",
      "Fuse elementwise definitions and lower alg kernels to tile programs",
      [](OpPassManager &pm, const TargetOption &options) {
        AttachTargetOptions attach;
        attach.target = options.target;
        attach.multiprocessors = options.multiprocessors;
        pm.addPass(createAttachTarget(attach));
        buildAlgToTile(pm);
      });
  struct GPUTargetOption : public PassPipelineOptions<GPUTargetOption> {
    Option<std::string> target{*this, "target",
                               llvm::cl::desc("The GPU target"),
                               llvm::cl::init("sm_90")};
  };
  PassPipelineRegistration<GPUTargetOption>(
      "nautilus-tile-to-gpu-llvm",
      "Lower tile programs to GPU kernels in the NVVM or ROCDL LLVM dialect",
      [](OpPassManager &pm, const GPUTargetOption &options) {
        std::optional<TargetInfo> target = getTarget(options.target);
        if (!target || !target->isGPU()) {
          llvm::errs() << "nautilus-tile-to-gpu-llvm: '" << options.target
                       << "' is not a GPU target; lowering for "
                       << firstTargetOf(TargetFamily::NVIDIA).name << "\n";
          target = firstTargetOf(TargetFamily::NVIDIA);
        }
        AttachTargetOptions attach;
        attach.target = target->name;
        pm.addPass(createAttachTarget(attach));
        pm.addPass(createConvertTileToGPU());
        addCleanup(pm);
        buildGPUToLLVMPipeline(pm, *target);
      });
  PassPipelineRegistration<>(
      "nautilus-tile-to-host-llvm",
      "Lower tile programs to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) {
        pm.addPass(createConvertTileToCPU());
        buildHostLLVMPipeline(pm);
      });
}

LogicalResult
nautilus::lowerAlgToScheduledTile(ModuleOp module, const TargetInfo &target,
                                  std::shared_ptr<ScheduleProvider> schedules,
                                  bool *scheduleRejected) {
  setModuleTarget(module, target);
  if (!schedules)
    schedules = heuristicSchedules();
  PassManager scheduled(module.getContext());
  buildScheduledTile(scheduled, schedules);
  if (failed(scheduled.run(module)))
    return failure();
  // The schedules the provider replaces as a whole (a schedule file's): a
  // failure here is the provider's (a user's file), not a bug.
  PassManager replaced(module.getContext());
  replaced.addPass(createTileApplySchedules(schedules));
  if (failed(replaced.run(module))) {
    if (scheduleRejected)
      *scheduleRejected = true;
    return failure();
  }
  return success();
}

LogicalResult
nautilus::lowerAlgToTile(ModuleOp module, const TargetInfo &target,
                         std::shared_ptr<ScheduleProvider> schedules,
                         bool *scheduleRejected) {
  if (!schedules)
    schedules = heuristicSchedules();
  if (failed(
          lowerAlgToScheduledTile(module, target, schedules, scheduleRejected)))
    return failure();
  PassManager layouts(module.getContext());
  buildTileLayouts(layouts, schedules);
  return layouts.run(module);
}

static rt::DType dtypeOfType(Type t) {
  if (auto m = dyn_cast<MemRefType>(t))
    t = m.getElementType();
  return *dtypeOf(t);
}

static std::vector<rt::Dim> dimsOf(ArrayAttr attr) {
  std::vector<rt::Dim> dims;
  for (Attribute a : attr) {
    rt::Dim d;
    if (auto s = dyn_cast<StringAttr>(a))
      d.size = s.getValue().str();
    else
      d.literal = cast<IntegerAttr>(a).getInt();
    dims.push_back(d);
  }
  return dims;
}

/// The condition under which a program of launch ranges `ranges` runs:
/// each of their bounds, and-ed ("N >= 2 and M < 4").
static rt::Requirement launchConditionOf(ArrayAttr ranges) {
  std::vector<rt::SizeExpr> bounds;
  std::string text;
  for (auto range : ranges.getAsRange<tile::SizeRangeAttr>()) {
    rt::SizeExpr size = rt::SizeExpr::size(range.getSize().str());
    if (range.getAtLeast())
      bounds.push_back(
          rt::SizeExpr::op("ge", {size, rt::SizeExpr::of(range.getAtLeast())}));
    if (range.getBelow())
      bounds.push_back(
          rt::SizeExpr::op("lt", {size, rt::SizeExpr::of(*range.getBelow())}));
    text += (text.empty() ? "" : " and ") + range.describe();
  }
  rt::SizeExpr condition = bounds.front();
  for (size_t i = 1; i < bounds.size(); ++i)
    condition = rt::SizeExpr::op("and", {condition, bounds[i]});
  return {text, condition};
}

rt::LaunchPlan nautilus::extractLaunchPlan(ModuleOp module) {
  rt::LaunchPlan plan;
  auto planOp = *module.getOps<tile::PlanOp>().begin();
  plan.kernel = planOp.getSymName().str();
  for (Attribute s : planOp.getSizes())
    plan.sizes.push_back(cast<StringAttr>(s).getValue().str());
  if (planOp.getBindingsAttr())
    for (NamedAttribute b : planOp.getBindingsAttr())
      plan.bindings[b.getName().str()] = cast<IntegerAttr>(b.getValue()).getInt();
  if (planOp.getDerivedSizesAttr())
    for (NamedAttribute d : planOp.getDerivedSizesAttr()) {
      rt::DerivedSize derived;
      derived.name = d.getName().str();
      for (Attribute t : cast<ArrayAttr>(d.getValue())) {
        auto term = cast<ArrayAttr>(t);
        rt::DerivedSize::Term out;
        out.coefficient = cast<IntegerAttr>(term[0]).getInt();
        for (Attribute f : term.getValue().drop_front())
          out.factors.push_back(cast<StringAttr>(f).getValue().str());
        derived.terms.push_back(std::move(out));
      }
      plan.derivedSizes.push_back(std::move(derived));
    }
  for (Attribute a : planOp.getBuffers()) {
    auto entry = cast<DictionaryAttr>(a);
    rt::BufferDesc buffer;
    buffer.name = cast<StringAttr>(entry.get("name")).getValue().str();
    StringRef role = cast<StringAttr>(entry.get("role")).getValue();
    buffer.role = role == "input"    ? rt::BufferRole::Input
                  : role == "output" ? rt::BufferRole::Output
                  : role == "scalar" ? rt::BufferRole::Scalar
                                     : rt::BufferRole::Workspace;
    buffer.dtype = dtypeOfType(cast<TypeAttr>(entry.get("type")).getValue());
    buffer.dims = dimsOf(cast<ArrayAttr>(entry.get("dims")));
    // (A copy's workspace: allocated only where the copy launches.)
    auto ranges = entry.getAs<ArrayAttr>("launch_ranges");
    if (ranges && !ranges.empty() && buffer.role == rt::BufferRole::Workspace)
      buffer.allocateWhen = launchConditionOf(ranges);
    plan.buffers.push_back(buffer);
  }
  for (tile::ProgramOp program : planOp.getProgramOps()) {
    rt::ProgramDesc desc;
    desc.name = program.getSymName().str();
    desc.outputDims = dimsOf(program.getOutputDims());
    desc.tile.assign(program.getSchedule().getTile().begin(),
                     program.getSchedule().getTile().end());
    desc.threads = program.getSchedule().getThreads();
    if (ArrayAttr ranges = program.getLaunchRangesAttr())
      desc.launchWhen = launchConditionOf(ranges);
    tile::MmaAttr mma = program.getSchedule().getMma();
    if (tile::ContractOp contract = findContract(program);
        contract && mma && mma.getInstr() == "wgmma") {
      WgmmaPlan wgmma = planWgmma(contract, program.getSchedule());
      auto bufferName = [&](Value v) {
        unsigned arg = cast<BlockArgument>(v).getArgNumber();
        return cast<StringAttr>(program.getArgNames()[arg]).getValue().str();
      };
      // One tensor map per loaded operand (a computed one is not copied).
      for (const TensorMappedOperand &mapped : tensorMappedOperands(contract)) {
        const WgmmaOperandPlan &operand = wgmma.operand(mapped.operand);
        desc.tensorMaps.push_back(
            {bufferName(mapped.buffer),
             std::vector<int64_t>(operand.box.begin(), operand.box.end()),
             wgmma.swizzleBytes});
      }
      desc.dynamicSharedBytes = wgmma.sharedBytes;
      desc.persistent = mma.getPersistent() != 0;
    } else if (contract && mma) {
      // The mma.sync pipeline's stages (ContractToMmaSync.cpp).
      desc.dynamicSharedBytes =
          contractSharedMemoryBytes(contract, program.getSchedule());
    } else if (int64_t stages = streamSharedMemoryBytes(program)) {
      desc.dynamicSharedBytes = stages; // a flash kernel's (StreamToMmaSync.cpp)
      for (const FlashTensorMap &map : flashTensorMaps(program)) {
        unsigned arg = cast<BlockArgument>(map.read.buffer).getArgNumber();
        desc.tensorMaps.push_back(
            {cast<StringAttr>(program.getArgNames()[arg]).getValue().str(),
             std::vector<int64_t>(map.box.begin(), map.box.end()),
             FlashWgmmaPlan::kSwizzleBytes});
      }
    }
    plan.programs.push_back(desc);
  }
  return plan;
}

LogicalResult nautilus::lowerTileToHostLLVM(ModuleOp module) {
  // The programs are lowered with their plans (whose bound sizes they
  // read), which the host code then does without.
  PassManager programs(module.getContext());
  programs.addPass(createConvertTileToCPU());
  if (failed(programs.run(module)))
    return failure();
  for (tile::PlanOp plan : llvm::make_early_inc_range(
           module.getOps<tile::PlanOp>()))
    plan.erase();
  PassManager pm(module.getContext());
  buildHostLLVMPipeline(pm);
  return pm.run(module);
}
