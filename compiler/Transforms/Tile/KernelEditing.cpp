//===- KernelEditing.cpp - Adding buffers and sizes to a tile kernel ------===//
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "runtime/FormatBytes.h"

#include "mlir/IR/Builders.h"

#include <functional>

using namespace mlir;
using namespace nautilus;

unsigned nautilus::addKernelBuffer(ModuleOp module, tile::PlanOp plan,
                                   StringRef name, StringRef role,
                                   MemRefType type, ArrayRef<Attribute> dims,
                                   ArrayAttr launchRanges) {
  assert(isCompilerMadeBuffer(name) && "a rewrite's buffer is OWNER.PURPOSE");
  Builder b(module.getContext());
  SmallVector<Attribute> buffers(plan.getBuffers().getValue());
  SmallVector<NamedAttribute> entry{
      b.getNamedAttr("dims", b.getArrayAttr(dims)),
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("role", b.getStringAttr(role)),
      b.getNamedAttr("type", TypeAttr::get(type))};
  if (launchRanges && role == "workspace")
    entry.push_back(b.getNamedAttr("launch_ranges", launchRanges));
  buffers.push_back(b.getDictionaryAttr(entry));
  plan.setBuffersAttr(b.getArrayAttr(buffers));
  unsigned position = buffers.size() - 1;
  for (auto program : module.getOps<tile::ProgramOp>()) {
    SmallVector<Attribute> names(program.getArgNames().getValue());
    assert(names.size() == position && "programs take the plan's buffers");
    names.push_back(b.getStringAttr(name));
    program.setArgNamesAttr(b.getArrayAttr(names));
    program.getBody().front().insertArgument(position, type, program.getLoc());
  }
  return position;
}

bool nautilus::removeUnusedKernelBuffer(tile::PlanOp plan, unsigned position) {
  SmallVector<tile::ProgramOp, 8> programs = plan.getProgramOps();
  if (llvm::any_of(programs, [&](tile::ProgramOp program) {
        return !program.getBody().front().getArgument(position).use_empty();
      }))
    return false;
  Builder b(plan.getContext());
  SmallVector<Attribute> buffers(plan.getBuffers().getValue());
  buffers.erase(buffers.begin() + position);
  plan.setBuffersAttr(b.getArrayAttr(buffers));
  for (tile::ProgramOp program : programs) {
    SmallVector<Attribute> names(program.getArgNames().getValue());
    names.erase(names.begin() + position);
    program.setArgNamesAttr(b.getArrayAttr(names));
    program.getBody().front().eraseArgument(position);
  }
  return true;
}

void nautilus::launchBefore(tile::PlanOp plan, StringRef name,
                            StringRef before) {
  MLIRContext *ctx = plan.getContext();
  SmallVector<Attribute> programs;
  for (Attribute p : plan.getPrograms()) {
    if (cast<FlatSymbolRefAttr>(p).getValue() == before)
      programs.push_back(FlatSymbolRefAttr::get(ctx, name));
    programs.push_back(p);
  }
  plan.setProgramsAttr(ArrayAttr::get(ctx, programs));
}

void nautilus::eraseProgram(tile::PlanOp plan, tile::ProgramOp program) {
  SmallVector<Attribute> programs;
  for (Attribute p : plan.getPrograms())
    if (cast<FlatSymbolRefAttr>(p).getValue() != program.getSymName())
      programs.push_back(p);
  plan.setProgramsAttr(ArrayAttr::get(plan.getContext(), programs));
  program.erase();
}

/// `map` with one more symbol (unused) when it takes `symbols` of them.
static AffineMap withExtraSymbol(AffineMap map, unsigned symbols) {
  if (map.getNumSymbols() != symbols)
    return map;
  return AffineMap::get(map.getNumDims(), symbols + 1, map.getResults(),
                        map.getContext());
}

void nautilus::addDerivedSize(ModuleOp module, tile::PlanOp plan,
                              const rt::DerivedSize &size) {
  StringRef name = size.name;
  Builder b(module.getContext());
  unsigned oldSizes = plan.getSizes().size();
  SmallVector<Attribute> sizes(plan.getSizes().getValue());
  sizes.push_back(b.getStringAttr(name));
  plan.setSizesAttr(b.getArrayAttr(sizes));

  SmallVector<Attribute> termAttrs;
  for (const rt::DerivedSize::Term &t : size.terms) {
    SmallVector<Attribute> term = {b.getI64IntegerAttr(t.coefficient)};
    for (const std::string &f : t.factors)
      term.push_back(b.getStringAttr(f));
    termAttrs.push_back(b.getArrayAttr(term));
  }
  NamedAttrList derived(plan.getDerivedSizesAttr());
  derived.set(name, b.getArrayAttr(termAttrs));
  plan.setDerivedSizesAttr(derived.getDictionary(module.getContext()));
  rt::SizeValues bound;
  if (DictionaryAttr bindings = plan.getBindingsAttr())
    for (NamedAttribute binding : bindings)
      bound[binding.getName().str()] =
          cast<IntegerAttr>(binding.getValue()).getInt();
  bool allBound = llvm::all_of(size.terms, [&](const rt::DerivedSize::Term &t) {
    return llvm::all_of(t.factors,
                        [&](const std::string &f) { return bound.count(f); });
  });
  if (allBound) {
    NamedAttrList bindings(plan.getBindingsAttr());
    bindings.set(name, b.getI64IntegerAttr(size.valueFor(bound)));
    plan.setBindingsAttr(bindings.getDictionary(module.getContext()));
  }

  for (auto program : module.getOps<tile::ProgramOp>()) {
    program.setSizesAttr(b.getArrayAttr(sizes));
    Block &entry = program.getBody().front();
    entry.addArgument(b.getIndexType(), program.getLoc());
    program.walk([&](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        if (auto map = dyn_cast<AffineMapAttr>(attr.getValue()))
          op->setAttr(attr.getName(), AffineMapAttr::get(withExtraSymbol(
                                          map.getValue(), oldSizes)));
    });
  }
}

void nautilus::cloneUsedFromOutside(Operation *root, IRMapping &mapping,
                                    OpBuilder &b) {
  std::function<void(Value)> need = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (mapping.contains(v) || !def || root->isAncestor(def))
      return;
    for (Value operand : def->getOperands())
      need(operand);
    b.clone(*def, mapping);
  };
  root->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      need(v);
  });
}

tile::ProgramOp nautilus::createSiblingProgram(OpBuilder &b,
                                               tile::ProgramOp program,
                                               StringRef symbol,
                                               ArrayRef<Attribute> outputDims,
                                               IRMapping &mapping) {
  Location loc = program.getLoc();
  b.setInsertionPoint(program);
  auto sibling = tile::ProgramOp::create(
      b, loc, symbol, program.getArgNames(), program.getSizes(),
      b.getArrayAttr(outputDims), program.getSchedule());
  // (A program of a launch range launches its siblings where it launches.)
  sibling.setLaunchRangesAttr(program.getLaunchRangesAttr());
  Block *entry = new Block();
  sibling.getBody().push_back(entry);
  for (BlockArgument arg : program.getBody().getArguments())
    mapping.map(arg, entry->addArgument(arg.getType(), loc));
  b.setInsertionPointToStart(entry);
  return sibling;
}

LogicalResult nautilus::editPlanPrograms(
    ModuleOp module,
    function_ref<LogicalResult(tile::PlanOp, tile::ProgramOp)> edit) {
  for (auto plan : llvm::to_vector(module.getOps<tile::PlanOp>()))
    for (tile::ProgramOp program : plan.getProgramOps())
      if (failed(edit(plan, program)))
        return failure();
  return success();
}

std::string nautilus::partialWorkspaceRefusal(tile::ProgramOp program,
                                              int64_t splits,
                                              int64_t elementBytes) {
  double outputBytes = double(elementBytes);
  std::string shape = std::to_string(splits);
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = program.getKnownExtent(dim);
    if (!extent)
      return "";
    outputBytes *= double(*extent);
    shape += " x " + std::to_string(*extent);
  }
  double bytes = double(splits) * outputBytes;
  if (bytes <= double(kMaxPartialWorkspaceBytes))
    return "";
  int64_t fit = int64_t(double(kMaxPartialWorkspaceBytes) / outputBytes);
  return "its partial results would take a " + rt::formatBytes(bytes) +
         " workspace (" + shape + " elements of " +
         std::to_string(elementBytes) + " bytes), more than the " +
         rt::formatBytes(double(kMaxPartialWorkspaceBytes)) + " a split may " +
         "take: " +
         (fit >= 2 ? "split at most " + std::to_string(fit) + " ways"
                   : std::string("do not split this program"));
}
