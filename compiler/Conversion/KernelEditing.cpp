//===- KernelEditing.cpp - Adding buffers and sizes to a tile kernel ------===//
#include "compiler/Conversion/KernelEditing.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace nautilus;

unsigned nautilus::addKernelBuffer(ModuleOp module, tile::PlanOp plan,
                                   StringRef name, StringRef role,
                                   MemRefType type, ArrayRef<Attribute> dims) {
  Builder b(module.getContext());
  SmallVector<Attribute> buffers(plan.getBuffers().getValue());
  buffers.push_back(b.getDictionaryAttr(
      {b.getNamedAttr("dims", b.getArrayAttr(dims)),
       b.getNamedAttr("name", b.getStringAttr(name)),
       b.getNamedAttr("role", b.getStringAttr(role)),
       b.getNamedAttr("type", TypeAttr::get(type))}));
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

/// `map` with one more symbol (unused) when it takes `symbols` of them.
static AffineMap withExtraSymbol(AffineMap map, unsigned symbols) {
  if (map.getNumSymbols() != symbols)
    return map;
  return AffineMap::get(map.getNumDims(), symbols + 1, map.getResults(),
                        map.getContext());
}

void nautilus::addDerivedSize(ModuleOp module, tile::PlanOp plan,
                              StringRef name, ArrayRef<SizeTerm> terms) {
  Builder b(module.getContext());
  unsigned oldSizes = plan.getSizes().size();
  SmallVector<Attribute> sizes(plan.getSizes().getValue());
  sizes.push_back(b.getStringAttr(name));
  plan.setSizesAttr(b.getArrayAttr(sizes));

  SmallVector<Attribute> termAttrs;
  DictionaryAttr bindings = plan.getBindingsAttr();
  std::optional<int64_t> value = 0;
  for (const SizeTerm &t : terms) {
    SmallVector<Attribute> term = {b.getI64IntegerAttr(t.coefficient)};
    int64_t product = t.coefficient;
    for (const std::string &f : t.factors) {
      term.push_back(b.getStringAttr(f));
      auto bound = bindings ? dyn_cast_or_null<IntegerAttr>(bindings.get(f))
                            : IntegerAttr();
      if (bound)
        product *= bound.getInt();
      else
        value.reset();
    }
    termAttrs.push_back(b.getArrayAttr(term));
    if (value)
      *value += product;
  }
  NamedAttrList derived(plan.getDerivedSizesAttr());
  derived.set(name, b.getArrayAttr(termAttrs));
  plan.setDerivedSizesAttr(derived.getDictionary(module.getContext()));
  if (value) {
    NamedAttrList bound(bindings);
    bound.set(name, b.getI64IntegerAttr(*value));
    plan.setBindingsAttr(bound.getDictionary(module.getContext()));
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
