//===- LaunchBuffers.h - The buffers of one kernel launch ------*- C++ -*-===//
//
// Allocates what a launch plan needs on the host (inputs as given, outputs
// and workspaces filled with all-ones bytes) and packs the programs'
// parameters (PackedArgs.h). Used by the devices that run the compiled
// programs in host memory from the command line (`nautc run`: cpu, emu).
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_LAUNCHBUFFERS_H
#define NAUTILUS_RUNTIME_LAUNCHBUFFERS_H

#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"
#include "runtime/PackedArgs.h"

#include <memory>

namespace nautilus {

class LaunchBuffers {
public:
  /// `inputs` follow the plan's input and scalar buffers in order.
  std::string allocate(const rt::LaunchPlan &plan, const rt::SizeValues &sizes,
                       const std::vector<rt::HostTensor> &inputs);

  /// Pointers to every parameter value of a program (buffers, then sizes).
  /// Valid while this object lives.
  const std::vector<void *> &packedArgs() const { return packed->pointers(); }

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
  const rt::LaunchPlan *plan = nullptr;
  std::vector<rt::HostTensor> owned;
  std::vector<rt::BufferView> views; // one a buffer of the plan
  std::vector<size_t> bytes;         // each view's
  std::unique_ptr<rt::PackedArgs> packed;
};

} // namespace nautilus

#endif
