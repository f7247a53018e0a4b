//===- BindSizes.cpp - Fix a kernel's sizes to constants ------------------===//
#include "compiler/Transforms/Alg/Passes.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/SizeExpr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGBINDSIZES
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

struct AlgBindSizesPass
    : public nautilus::impl::AlgBindSizesBase<AlgBindSizesPass> {
  using AlgBindSizesBase::AlgBindSizesBase;

  /// The bytes of each tensor's known extents (literal or bound) must fit
  /// in 64 bits; false (with an error) where they do not.
  static bool byteSizesFit(alg::KernelOp kernel) {
    bool ok = true;
    auto checkOverflow = [&](Operation *op, StringRef name, ArrayAttr dims,
                             Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return;
      int64_t bytes = (tensor.getElementTypeBitWidth() + 7) / 8;
      for (Attribute d : dims) {
        std::optional<int64_t> extent;
        if (auto s = dyn_cast<StringAttr>(d))
          extent = kernel.getBinding(s.getValue());
        else
          extent = cast<IntegerAttr>(d).getInt();
        if (!extent)
          continue; // a size left unbound is at least 1
        int64_t next;
        if (llvm::MulOverflow(bytes, *extent, next)) {
          op->emitError() << "integer overflow in sizes: '" << name
                          << "' would need more than 2^63 bytes";
          ok = false;
          return;
        }
        bytes = next;
      }
    };
    for (Operation &op : kernel.getBody().front()) {
      if (auto in = dyn_cast<alg::InputOp>(op))
        checkOverflow(in, in.getName(), in.getDims(), in.getType());
      else if (auto def = dyn_cast<alg::DefineOp>(op))
        checkOverflow(def, def.getName(), def.getDims(), def.getType());
    }
    return ok;
  }

  void runOnOperation() override {
    alg::KernelOp kernel = getOperation();
    std::map<std::string, int64_t> requested;
    if (!sizes.empty()) {
      if (std::string e = parseShapeList(sizes, requested); !e.empty()) {
        kernel.emitError(e);
        return signalPassFailure();
      }
    }
    // Nothing to bind: the literal extents are still checked.
    if (requested.empty()) {
      if (!byteSizesFit(kernel))
        signalPassFailure();
      return;
    }
    // Merge with the bindings the kernel already has.
    OpBuilder builder(kernel.getContext());
    SmallVector<NamedAttribute> bindings;
    if (kernel.getBindings())
      for (NamedAttribute b : kernel.getBindingsAttr())
        if (!requested.count(b.getName().str()))
          bindings.push_back(b);
    for (const auto &[name, value] : requested) {
      if (kernel.getSizeIndex(name) < 0) {
        std::string known;
        for (Attribute s : kernel.getSizes())
          known += (known.empty() ? "" : ", ") +
                   cast<StringAttr>(s).getValue().str();
        kernel.emitError() << "kernel '" << kernel.getSymName()
                           << "' has no size named '" << name
                           << "' (its sizes: " << known << ")";
        return signalPassFailure();
      }
      if (std::optional<int64_t> old = kernel.getBinding(name);
          old && *old != value) {
        kernel.emitError() << "size " << name << " is already bound to "
                           << *old;
        return signalPassFailure();
      }
      bindings.push_back(builder.getNamedAttr(
          name, builder.getI64IntegerAttr(value)));
    }
    kernel.setBindingsAttr(builder.getDictionaryAttr(bindings));

    // Sizes that are now constants.
    kernel.walk([&](alg::SizeOp size) {
      if (std::optional<int64_t> v = kernel.getBinding(size.getName())) {
        builder.setInsertionPoint(size);
        Value c = arith::ConstantIndexOp::create(builder, size.getLoc(), *v);
        size.replaceAllUsesWith(c);
        size.erase();
      }
    });
    // Fold the require conditions: only the kernel's own ops, so that no
    // constant moves out of a definition's body.
    SmallVector<Operation *> topLevel;
    for (Operation &op : kernel.getBody().front())
      if (op.getNumRegions() == 0)
        topLevel.push_back(&op);
    RewritePatternSet noPatterns(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(topLevel, std::move(noPatterns), config);
    bool ok = true;
    for (auto require : kernel.getBody().getOps<alg::RequireOp>()) {
      auto cond = require.getCondition().getDefiningOp<arith::ConstantOp>();
      if (!cond || cast<IntegerAttr>(cond.getValue()).getValue().getBoolValue())
        continue;
      std::map<std::string, int64_t> bound;
      for (NamedAttribute b : kernel.getBindingsAttr())
        bound[b.getName().str()] = cast<IntegerAttr>(b.getValue()).getInt();
      require.emitError() << rt::requirementFailure(require.getMessage().str(),
                                                    bound);
      ok = false;
    }
    ok = byteSizesFit(kernel) && ok;
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
