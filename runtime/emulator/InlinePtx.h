//===- InlinePtx.h - Inline PTX that the emulator understands ---*- C++ -*-===//
//
// Compilers such as Triton emit their global loads and stores as inline PTX
// (to attach predicates and cache hints). The emulator translates the forms
// it knows into LLVM IR: `mov` of a register or an immediate, and
// predicated `ld.global` / `st.global` of 8-, 16-, 32- or 64-bit elements,
// scalar or `.v2`/`.v4`, with any cache qualifiers. Anything else is left
// for the caller to refuse.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H
#define NAUTILUS_RUNTIME_EMULATOR_INLINEPTX_H

namespace llvm {
class CallInst;
}

namespace nautilus::emu::detail {

/// Replaces `call` (an inline-asm call) by equivalent IR and erases it.
/// Returns false, leaving it untouched, if its PTX is not understood.
bool translateInlinePtx(llvm::CallInst *call);

} // namespace nautilus::emu::detail

#endif
