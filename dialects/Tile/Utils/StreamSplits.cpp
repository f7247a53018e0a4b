//===- StreamSplits.cpp ---------------------------------------------------===//
#include "dialects/Tile/Utils/StreamSplits.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace nautilus;

tile::OnlineReduceOp tile::onlyTopLevelStream(ProgramOp program) {
  OnlineReduceOp found;
  for (auto stream : program.getBody().front().getOps<OnlineReduceOp>()) {
    if (found)
      return {};
    found = stream;
  }
  return found;
}

std::string tile::streamSplitShapeRefusal(ProgramOp program) {
  OnlineReduceOp stream = onlyTopLevelStream(program);
  if (!stream)
    return "the program must have exactly one stream at its top level";
  bool other = false;
  program.walk([&](Operation *op) {
    if (isa<ContractOp, RouteOp, SkipIfNegativeOp>(op) ||
        (isa<ReduceOp>(op) && op->getParentOp() == program))
      other = true;
  });
  if (other)
    return "a program with a contraction, routing, skipped tiles or a "
           "reduction beside its stream is not split this way";
  auto type = cast<VectorType>(stream.getResult(0).getType());
  if (!type.getElementType().isF32() && !type.getElementType().isF64())
    return "its partial results would need a workspace of a type buffers do "
           "not have";
  return "";
}

int64_t tile::streamPartialElementBytes(OnlineReduceOp stream) {
  auto type = cast<VectorType>(stream.getResult(0).getType());
  return type.getElementTypeBitWidth() / 8 *
         static_cast<int64_t>(stream.getAccumulators().size());
}

int64_t tile::streamPartialBytesPerChunk(ProgramOp program) {
  OnlineReduceOp stream = onlyTopLevelStream(program);
  if (!stream)
    return 0;
  int64_t bytes = streamPartialElementBytes(stream);
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = program.getKnownExtent(dim);
    if (!extent)
      return 0;
    bytes *= *extent;
  }
  return bytes;
}
