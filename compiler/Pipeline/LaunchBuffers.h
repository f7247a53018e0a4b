//===- LaunchBuffers.h - The buffers of one kernel launch ------*- C++ -*-===//
//
// Allocates what a launch plan needs (inputs as given, outputs and
// workspaces zeroed) and packs the programs' parameters the way MLIR's
// lowering expands them: each memref as (allocated, aligned, offset,
// sizes..., strides...), each scalar and size by value. Shared by every
// device that runs the compiled programs in-process (cpu, emu).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_LAUNCHBUFFERS_H
#define NAUTILUS_PIPELINE_LAUNCHBUFFERS_H

#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"

namespace nautilus {

class LaunchBuffers {
public:
  /// `inputs` follow the plan's input and scalar buffers in order.
  std::string allocate(const rt::LaunchPlan &plan, const rt::SizeValues &sizes,
                       const std::vector<rt::HostTensor> &inputs);

  /// Pointers to every parameter value of a program (buffers, then sizes).
  /// Valid while this object lives and is not moved.
  std::vector<void *> packedArgs();

  /// Buffer `name` of the plan: its data and shape (null if there is none).
  struct View {
    void *data = nullptr;
    std::vector<int64_t> shape;
    rt::DType dtype = rt::DType::F32;
  };
  View view(const std::string &name) const;

  /// Every tensor buffer: its first byte, its size in bytes, and whether
  /// it is an input (which the programs only read).
  struct Range {
    const void *begin;
    size_t bytes;
    bool input;
  };
  std::vector<Range> ranges() const;

  /// The outputs, in plan order.
  std::vector<rt::HostTensor> takeOutputs();

private:
  struct Descriptor {
    void *allocated = nullptr;
    void *aligned = nullptr;
    int64_t offset = 0;
    std::vector<int64_t> sizes, strides;
    bool isScalar = false;
    size_t bytes = 0;
  };
  const rt::LaunchPlan *plan = nullptr;
  std::vector<rt::HostTensor> owned;
  std::vector<Descriptor> descriptors;
  std::vector<int64_t> sizeValues;
};

} // namespace nautilus

#endif
