//===- InlinePtx.h - Inline PTX that the emulator understands ---*- C++ -*-===//
//
// Compilers such as Triton emit their global loads and stores as inline PTX
// (to attach predicates and cache hints). The emulator translates the forms
// it knows into LLVM IR: `mov` of a register or an immediate, predicated
// `ld.global` / `st.global` of 8-, 16-, 32- or 64-bit elements, scalar or
// `.v2`/`.v4`, with any cache qualifiers, and `mma.sync.aligned` m16n8k16 /
// m16n8k8 with f16 or bf16 inputs and f32 accumulators (a call into the
// emulation runtime). Anything else is left for the caller to refuse.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H
#define NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H

namespace llvm {
class CallInst;
}

namespace nautilus::emu::detail {

/// Replaces `call` (an inline-asm call) by equivalent IR and erases it;
/// sets `collective` if the PTX was a warp collective (mma.sync), which
/// makes the kernel need fibres. Returns false if its PTX is not understood.
bool translateInlinePtx(llvm::CallInst *call, bool &collective);

} // namespace nautilus::emu::detail

#endif
