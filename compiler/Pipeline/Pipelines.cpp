//===- Pipelines.cpp - The end-to-end lowering pipelines ------------------===//
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Pipeline/KernelSignature.h"
#include "compiler/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace nautilus;

void nautilus::registerPipelineDialects(DialectRegistry &registry) {
  registry.insert<alg::AlgDialect, tile::TileDialect, arith::ArithDialect,
                  math::MathDialect, vector::VectorDialect,
                  memref::MemRefDialect, func::FuncDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, LLVM::LLVMDialect, ub::UBDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

static void buildAlgToTile(OpPassManager &pm, const std::string &target) {
  pm.addNestedPass<alg::KernelOp>(createAlgFuseElementwise());
  ConvertAlgToTileOptions options;
  options.target = target;
  pm.addPass(createConvertAlgToTile(options));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void nautilus::buildHostLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(math::createMathExpandOpsPass());
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
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void nautilus::registerNautilusPipelines() {
  struct TargetOption : public PassPipelineOptions<TargetOption> {
    Option<std::string> target{*this, "target",
                               llvm::cl::desc("The target of the schedule"),
                               llvm::cl::init("cpu")};
  };
  PassPipelineRegistration<TargetOption>(
      "nautilus-alg-to-tile",
      "Fuse elementwise definitions and lower alg kernels to tile programs",
      [](OpPassManager &pm, const TargetOption &options) {
        buildAlgToTile(pm, options.target);
      });
  PassPipelineRegistration<>(
      "nautilus-tile-to-host-llvm",
      "Lower tile programs to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) {
        pm.addPass(createConvertTileToCPU());
        buildHostLLVMPipeline(pm);
      });
}

LogicalResult nautilus::lowerAlgToTile(ModuleOp module,
                                       const TargetInfo &target) {
  PassManager pm(module.getContext());
  buildAlgToTile(pm, target.name);
  return pm.run(module);
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

rt::LaunchPlan nautilus::extractLaunchPlan(ModuleOp module) {
  rt::LaunchPlan plan;
  auto planOp = *module.getOps<tile::PlanOp>().begin();
  plan.kernel = planOp.getSymName().str();
  for (Attribute s : planOp.getSizes())
    plan.sizes.push_back(cast<StringAttr>(s).getValue().str());
  if (planOp.getBindingsAttr())
    for (NamedAttribute b : planOp.getBindingsAttr())
      plan.bindings[b.getName().str()] = cast<IntegerAttr>(b.getValue()).getInt();
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
    plan.buffers.push_back(buffer);
  }
  for (Attribute a : planOp.getPrograms()) {
    auto program = module.lookupSymbol<tile::ProgramOp>(
        cast<SymbolRefAttr>(a).getRootReference());
    rt::ProgramDesc desc;
    desc.name = program.getSymName().str();
    desc.outputDims = dimsOf(program.getOutputDims());
    desc.tile.assign(program.getSchedule().getTile().begin(),
                     program.getSchedule().getTile().end());
    desc.threads = program.getSchedule().getThreads();
    plan.programs.push_back(desc);
  }
  return plan;
}

LogicalResult nautilus::lowerTileToHostLLVM(ModuleOp module) {
  for (tile::PlanOp plan : llvm::make_early_inc_range(
           module.getOps<tile::PlanOp>()))
    plan.erase();
  PassManager pm(module.getContext());
  pm.addPass(createConvertTileToCPU());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(module)))
    return failure();
  // Polynomial approximations keep exp, erf, tanh, log vectorised.
  RewritePatternSet patterns(module.getContext());
  populateMathPolynomialApproximationPatterns(patterns);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return failure();
  PassManager lower(module.getContext());
  buildHostLLVMPipeline(lower);
  return lower.run(module);
}
