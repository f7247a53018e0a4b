//===- Precision.cpp - What a compiled kernel rounds ----------------------===//
#include "compiler/Pipeline/Precision.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

/// Whether `trunc`'s result is an intermediate: a contraction's operand,
/// or stored to a workspace.
static bool roundsIntermediate(arith::TruncFOp trunc,
                               tile::ProgramOp program) {
  return llvm::any_of(trunc->getUsers(), [&](Operation *user) {
    if (isa<tile::YieldOp>(user))
      return isa<tile::ContractOp>(user->getParentOp());
    auto store = dyn_cast<tile::StoreOp>(user);
    auto buffer = store ? dyn_cast<BlockArgument>(store.getBuffer())
                        : BlockArgument();
    return buffer && program.getBufferRole(buffer.getArgNumber()) == "workspace";
  });
}

std::optional<rt::DType> nautilus::roundedIntermediateType(ModuleOp module) {
  std::optional<rt::DType> narrowest;
  module.walk([&](tile::ProgramOp program) {
    program.walk([&](arith::TruncFOp trunc) {
      if (!getElementTypeOrSelf(trunc.getIn().getType()).isF32() ||
          !roundsIntermediate(trunc, program))
        return;
      Type out = getElementTypeOrSelf(trunc.getType());
      std::optional<rt::DType> dtype = out.isBF16()  ? rt::DType::BF16
                                       : out.isF16() ? rt::DType::F16
                                                     : std::optional<rt::DType>();
      // bf16 keeps fewer bits than f16.
      if (dtype && (!narrowest || *dtype == rt::DType::BF16))
        narrowest = dtype;
    });
  });
  return narrowest;
}
