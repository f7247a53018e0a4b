//===- ReferenceHost.h - The reference kernels run on the host --*- C++ -*-===//
//
// The reference kernels (ReferenceCuda.h) compiled by the host's C++
// compiler ($CXX, else c++) into a shared library and run on the CPU as a
// GPU host would run them: the launches in order, each launch's blocks and
// threads in turn (through the source's host launchers). This is how the
// reference is checked against the interpreter without a GPU: `nautc run
// --device reference-host --check`. It is slow (one thread, no
// vectorisation), and meant for the small sizes the interpreter runs too.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_REFERENCEHOST_H
#define NAUTILUS_PIPELINE_REFERENCEHOST_H

#include "compiler/Pipeline/ReferenceCuda.h"
#include "runtime/HostTensor.h"

#include <memory>

namespace nautilus {

class ReferenceHostExecutor {
public:
  /// Generates the reference of `kernel`, compiles and loads it. Returns
  /// null and sets `error` (the generator's refusal, no C++ compiler, or
  /// the compiler's messages: then `*rejected` is set, the generator's bug).
  static std::unique_ptr<ReferenceHostExecutor>
  create(alg::KernelOp kernel, std::string &error, bool *rejected = nullptr);
  ~ReferenceHostExecutor();

  /// Runs the launches under `sizes` (every size resolved) on `inputs` (in
  /// signature order; scalars as 0-d tensors) and fills `outputs` (in
  /// signature order). Returns "" or the error.
  std::string run(const SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs);

  const ReferenceProgram &program() const { return reference; }

private:
  ReferenceHostExecutor() = default;
  ReferenceProgram reference;
  void *library = nullptr;
};

} // namespace nautilus

#endif
