//===- ProofCacheOptions.h - The proof caches a compile uses -*- C++ -*-===//
//
// Kept apart from Prover.h (which includes Z3) so that the compile driver
// can carry them.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_PROOFCACHEOPTIONS_H
#define NAUTILUS_VERIFY_PROOFCACHEOPTIONS_H

#include <string>

namespace nautilus::verify {

/// Which of the proof caches a verification reads and writes: the
/// process's answers in memory (shared by every Prover) and the proofs on
/// disk, in proofs/ under `directory` (empty: the kernel cache's default,
/// rt::defaultCacheDirectory). NAUTILUS_PROOF_CACHE=0 turns the disk off
/// whatever these say. A JIT compile sets them from its request, so that
/// a compile told to use no cache, or a cache directory of its own, does
/// the same for its proofs.
struct ProofCacheOptions {
  bool memory = true;
  bool disk = true;
  std::string directory;
};

} // namespace nautilus::verify

#endif
