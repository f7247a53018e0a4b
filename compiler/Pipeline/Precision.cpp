//===- Precision.cpp - What a compiled kernel rounds ----------------------===//
#include "compiler/Pipeline/Precision.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/ContractionStream.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

/// Whether `value` (a rounded result) is an intermediate the compiler
/// rounds: a contraction's operand, or stored to a workspace the compiler
/// made (named `<program>.lhs` and the like: a definition's own workspace
/// holds its declared type, which the reference rounds to as well), through
/// layout conversions (an accumulator rounded, then moved to the store's
/// layout).
static bool roundsIntermediate(Value value, tile::ProgramOp program) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    if (auto convert = dyn_cast<tile::ConvertLayoutOp>(user))
      return roundsIntermediate(convert.getResult(), program);
    if (isa<tile::YieldOp>(user))
      return isa<tile::ContractOp>(user->getParentOp());
    auto store = dyn_cast<tile::StoreOp>(user);
    auto buffer = store ? dyn_cast<BlockArgument>(store.getBuffer())
                        : BlockArgument();
    if (!buffer || program.getBufferRole(buffer.getArgNumber()) != "workspace")
      return false;
    return isCompilerMadeBuffer(
        cast<StringAttr>(program.getArgNames()[buffer.getArgNumber()])
            .getValue());
  });
}

/// The operand type a flash kernel rounds its stream's P to (the second
/// contraction's, StreamToMmaSync.cpp), or null for other programs.
static Type flashRoundedType(tile::ProgramOp program) {
  if (!program.getSchedule().getMma())
    return Type();
  for (auto stream : program.getBody().getOps<tile::OnlineReduceOp>()) {
    std::string why;
    FailureOr<ContractionStream> roles =
        analyseTileStream(stream, program.getRank(), why);
    if (succeeded(roles) && roles->value)
      return roles->value->element;
  }
  return Type();
}

std::optional<rt::DType> nautilus::roundedIntermediateType(ModuleOp module) {
  std::optional<rt::DType> narrowest;
  auto rounds = [&](Type out) {
    std::optional<rt::DType> dtype = out.isBF16()  ? rt::DType::BF16
                                     : out.isF16() ? rt::DType::F16
                                                   : std::optional<rt::DType>();
    // bf16 keeps fewer bits than f16.
    if (dtype && (!narrowest || *dtype == rt::DType::BF16))
      narrowest = dtype;
  };
  module.walk([&](tile::ProgramOp program) {
    program.walk([&](arith::TruncFOp trunc) {
      if (getElementTypeOrSelf(trunc.getIn().getType()).isF32() &&
          roundsIntermediate(trunc.getResult(), program))
        rounds(getElementTypeOrSelf(trunc.getType()));
    });
    if (Type flash = flashRoundedType(program))
      rounds(flash);
  });
  return narrowest;
}
