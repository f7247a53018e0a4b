//===- Mutations.cpp - Faults put into kernel models on purpose -----------===//
//
// Each mutation is a compiler bug the verifier must catch, made in the
// model the way the bug would show there: a swizzle that is not a
// permutation, a layout that drops an element, an operand loaded in the
// other operand's layout, a missing barrier, an accumulator read before
// its wait, an overlapping grid, an off-by-one mask, ...
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/KernelModel.h"

#include <functional>

using namespace nautilus;
using namespace nautilus::verify;

namespace {

struct MutationRule {
  Mutation mutation;
  /// Breaks `model` and returns true, or returns false when the model has
  /// nothing the mutation applies to.
  std::function<bool(ProgramModel &)> apply;
};

/// A layout with the first lane bit sent where register bit 0 goes (or,
/// without register bits, where lane bit 1 goes): two holders then share an
/// element and another element has none.
bool dropElement(ProgramModel &model) {
  for (DistributedLayout &d : model.layouts) {
    std::vector<layout::LinearLayout::InDim> ins = d.layout.getInDims();
    layout::LinearLayout::InDim *lane = nullptr, *reg = nullptr;
    for (auto &in : ins) {
      if (in.name == "lane")
        lane = &in;
      else if (in.name == "register")
        reg = &in;
    }
    if (!lane || lane->bases.empty())
      continue;
    if (reg && !reg->bases.empty())
      lane->bases[0] = reg->bases[0];
    else if (lane->bases.size() > 1)
      lane->bases[0] = lane->bases[1];
    else
      continue;
    d.layout = layout::LinearLayout(ins, d.layout.getOutDims());
    d.what += " (mutated: a lane bit duplicates another bit)";
    return true;
  }
  return false;
}

/// A descriptor's stride byte offset (between 8-row core matrices) one row
/// of the swizzle short.
bool shortDescriptorStride(ProgramModel &model) {
  for (DescriptorRead &r : model.descriptorReads) {
    r.descriptor.strideBytes -= r.descriptor.swizzleBytes;
    return true;
  }
  return false;
}

/// K-major descriptors advanced 16 bytes a k step (16 elements of 2 bytes
/// are 32), where a stage has more than one.
bool kStepInElements(ProgramModel &model) {
  for (DescriptorRead &r : model.descriptorReads)
    if (r.kInnermost && r.kSteps > 1) {
      r.descriptor.kStepBytes = 16;
      return true;
    }
  return false;
}

/// A TMA-written stage, its copies and its descriptors moved together 128
/// bytes: the data still meet, but the start's phase in the swizzle's
/// pattern is no longer the descriptor's base offset (0).
bool stageOffPattern(ProgramModel &model) {
  for (DescriptorRead &r : model.descriptorReads)
    if (r.swizzlesAddress) {
      r.descriptor.offset += 128;
      r.regionOffset += 128;
      return true;
    }
  return false;
}

/// A descriptor whose layout type names another swizzle than the one its
/// stage's writer (the tensor map) swizzles with.
bool otherLayoutType(ProgramModel &model) {
  for (DescriptorRead &r : model.descriptorReads) {
    r.descriptor.swizzleBytes = r.descriptor.swizzleBytes == 128 ? 64 : 128;
    return true;
  }
  return false;
}

/// Faults in what the threads hold and where: layouts, stages, fragments,
/// descriptors, conversions.
std::vector<MutationRule> dataRules() {
  return {
      {{"layout-drops-element",
        "a distributed layout in which two holders share an element"},
       dropElement},
      {{"swizzle-not-permutation",
        "an operand stage whose swizzle XORs chunk indices past its row"},
       [](ProgramModel &m) {
         for (StageLayout &s : m.stages)
           if (s.rowBytes >= 32) {
             s.swizzle.maxPhase = 2 * (s.rowBytes / 16);
             s.swizzle.perPhase = 1;
             return true;
           }
         return false;
       }},
      {{"ldmatrix-bank-conflicts",
        "an unswizzled stage that ldmatrix still claims conflict-free"},
       [](ProgramModel &m) {
         for (StageLayout &s : m.stages)
           if (s.ldmatrixClaimsNoConflicts && s.rowBytes >= 128) {
             s.swizzle = layout::SharedSwizzle();
             return true;
           }
         return false;
       }},
      {{"operand-in-other-layout",
        "the rhs's fragments loaded as the lhs's (ldmatrix matrices)"},
       [](ProgramModel &m) {
         for (FragmentLoad &f : m.fragments)
           if (!f.isLhs) {
             f.matrices = layout::ldmatrixMatrixLayout(/*isLhs=*/true);
             return true;
           }
         return false;
       }},
      {{"swizzle-mismatch",
        "ldmatrix reads a stage with another swizzle than its copies wrote"},
       [](ProgramModel &m) {
         for (FragmentLoad &f : m.fragments)
           if (f.readerSwizzle.maxPhase > 1) {
             f.readerSwizzle = layout::SharedSwizzle();
             return true;
           }
         return false;
       }},
      {{"wgmma-descriptor-stride",
        "a wgmma descriptor whose stride byte offset is one row short of 8"},
       shortDescriptorStride},
      {{"wgmma-layout-type",
        "a wgmma descriptor's layout type naming another swizzle than the "
        "tensor map's"},
       otherLayoutType},
      {{"wgmma-k-step-in-elements",
        "wgmma descriptors advanced by 16 bytes a k step of 16 elements"},
       kStepInElements},
      {{"wgmma-stage-off-pattern",
        "a wgmma operand's stage 128 bytes off its swizzle's pattern (its "
        "copies and descriptors both)"},
       stageOffPattern},
      {{"staging-pitch-short",
        "a layout conversion's staging rows one chunk closer than their "
        "width"},
       [](ProgramModel &m) {
         if (m.conversions.empty())
           return false;
         m.conversions.front().pitchShort = true;
         return true;
       }},
  };
}

/// Faults in when and over what they run: synchronisation, the grid,
/// masks, bounds, split reductions.
std::vector<MutationRule> scheduleRules() {
  return {
      {{"missing-barrier",
        "no block barrier between a stage's reads and the copies that refill "
        "it"},
       [](ProgramModel &m) {
         if (!m.pipeline ||
             m.pipeline->kind != tile::PipelineProtocol::Kind::CopyRing)
           return false;
         m.pipeline->barrierBeforeIssue = false;
         return true;
       }},
      {{"short-copy-wait",
        "cp.async.wait_group leaves the step's own copies pending"},
       [](ProgramModel &m) {
         if (!m.pipeline ||
             m.pipeline->kind != tile::PipelineProtocol::Kind::CopyRing)
           return false;
         m.pipeline->copyWaitPending = m.pipeline->prefetch;
         return true;
       }},
      {{"wgmma-read-before-wait",
        "the epilogue reads the accumulators with a wgmma group in flight"},
       [](ProgramModel &m) {
         if (!m.pipeline || !m.wgmma)
           return false;
         m.pipeline->epilogueWait = 1;
         return true;
       }},
      {{"early-release",
        "consumers release a stage while its wgmma group may still read it"},
       [](ProgramModel &m) {
         if (!m.pipeline ||
             m.pipeline->kind != tile::PipelineProtocol::Kind::ProducerConsumer)
           return false;
         m.pipeline->wgmmaInFlight = m.pipeline->releaseLag + 1;
         return true;
       }},
      {{"overlapping-grid", "tiles placed one element closer than their size"},
       [](ProgramModel &m) {
         if (!m.grid || m.grid->tile.empty() || m.grid->tile.back() < 2)
           return false;
         m.grid->originOverlap = 1;
         return true;
       }},
      {{"persistent-stride",
        "persistent blocks stepping one tile short of the block count"},
       [](ProgramModel &m) {
         if (!m.grid || !m.grid->persistent)
           return false;
         m.grid->strideSlack = 1;
         return true;
       }},
      {{"off-by-one-mask", "the output store's mask keeps index == extent"},
       [](ProgramModel &m) {
         if (!m.grid)
           return false;
         m.grid->maskSlack = 1;
         return true;
       }},
      {{"interior-past-edge",
        "copies without bound checks for a stage tile whose rows end one "
        "past the extent"},
       [](ProgramModel &m) {
         if (m.interiorCopies.empty())
           return false;
         m.interiorCopies.front().interiorSlack = 1;
         return true;
       }},
      {{"split-chunk-gap", "a split reduction's chunks skip an element"},
       [](ProgramModel &m) {
         // (A split in parts sized at launch: its chunks sized for one
         // part more than it has programs.)
         if (m.split && m.split->parts) {
           *m.split->parts += 1;
           return true;
         }
         if (!m.split || m.split->chunk < 2)
           return false;
         m.split->chunk -= 1;
         return true;
       }},
      {{"sweep-stride-short",
        "a sweep's main loop steps one point short of its group's stride"},
       [](ProgramModel &m) {
         if (!m.sweep || m.sweep->split.copies == 1)
           return false;
         m.sweep->split.stride -= 1;
         return true;
       }},
  };
}

const std::vector<MutationRule> &rules() {
  static const std::vector<MutationRule> all = [] {
    std::vector<MutationRule> out = dataRules();
    for (MutationRule &rule : scheduleRules())
      out.push_back(std::move(rule));
    return out;
  }();
  return all;
}

} // namespace

const std::vector<Mutation> &verify::mutations() {
  static const std::vector<Mutation> all = [] {
    std::vector<Mutation> out;
    for (const MutationRule &rule : rules())
      out.push_back(rule.mutation);
    return out;
  }();
  return all;
}

bool verify::applyMutation(llvm::StringRef name,
                           std::vector<ProgramModel> &models) {
  for (const MutationRule &rule : rules()) {
    if (rule.mutation.name != name)
      continue;
    for (ProgramModel &model : models)
      if (rule.apply(model))
        return true;
    return false;
  }
  return false;
}
