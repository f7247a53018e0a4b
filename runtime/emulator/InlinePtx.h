//===- InlinePtx.h - Inline PTX that the emulator understands ---*- C++ -*-===//
//
// Compilers such as Triton emit their global loads and stores as inline PTX
// (to attach predicates and cache hints), and MLIR and Triton emit Hopper's
// asynchronous instructions that way. The emulator translates the forms it
// knows into LLVM IR, statement by statement (with `@p` predicates, `.reg`
// declarations, `setp.eq/ne` and tied operands):
//   - `mov` of a register or an immediate;
//   - predicated `ld.global` / `st.global` of 8- to 64-bit elements, scalar,
//     `.v2` or `.v4`, with any cache qualifiers;
//   - `mma.sync.aligned` m16n8k16 / m16n8k8 with f16 or bf16 inputs and f32
//     accumulators;
//   - `cp.async.{ca,cg}` of 4, 8 or 16 bytes (with a source size), and
//     commit_group, wait_group, wait_all;
//   - `mbarrier.init/inval/arrive(.expect_tx)/expect_tx/complete_tx` and
//     loops polling `mbarrier.try_wait(.parity)`;
//   - `cp.async.bulk.tensor` 1d-5d loads into shared::cta (or ::cluster,
//     for a cluster of one) completing on an mbarrier, and stores;
//   - `wgmma.mma_async` m64nNk16 (f16, bf16) and m64nNk8 (tf32) with f32
//     (or f16) accumulators, A from a descriptor or from registers;
//   - fences, wgmma and bulk groups (which order nothing here).
// Anything else is left for the caller to refuse.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H
#define NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H

namespace llvm {
class CallInst;
}

namespace nautilus::emu::detail {

/// Replaces `call` (an inline-asm call) by equivalent IR and erases it;
/// sets `collective` if the PTX waits for other threads (mma.sync,
/// mbarriers), which makes the kernel need fibres. Returns false if its PTX is not understood.
bool translateInlinePtx(llvm::CallInst *call, bool &collective);

} // namespace nautilus::emu::detail

#endif
