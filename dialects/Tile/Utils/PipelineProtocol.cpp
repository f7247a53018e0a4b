//===- PipelineProtocol.cpp - How a contraction's stages are handed over --===//
#include "dialects/Tile/Utils/PipelineProtocol.h"

using namespace nautilus;
using namespace nautilus::tile;

PipelineProtocol tile::pipelineProtocol(MmaAttr mma) {
  PipelineProtocol protocol;
  protocol.stages = mma.getStages();
  protocol.prefetch = mma.getStages() - 1;
  protocol.copyWaitPending = mma.getStages() - 2;
  bool wgmma = mma.getInstr() == "wgmma";
  if (wgmma && mma.getProducers() > 0) {
    // The consumers keep the step's group in flight and release the
    // previous step's stage once only this one is pending.
    protocol.kind = PipelineProtocol::Kind::ProducerConsumer;
    protocol.wgmmaInFlight = 1;
    protocol.releaseLag = 1;
  }
  return protocol;
}

PipelineProtocol tile::flashPipelineProtocol(MmaAttr mma) {
  PipelineProtocol protocol = pipelineProtocol(mma);
  if (protocol.kind == PipelineProtocol::Kind::ProducerConsumer) {
    protocol.wgmmaInFlight = 0;
    // With the softmax overlapped, a block's P V runs in the next step,
    // which releases the block's stage once it waited for it.
    protocol.releaseLag = mma.getOverlapSoftmax() ? 1 : 0;
    protocol.lastReadLag = mma.getOverlapSoftmax() ? 1 : 0;
  }
  return protocol;
}
