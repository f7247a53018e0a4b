//===- DescriptorInvariants.cpp - wgmma operands hold the right elements --===//
//
// dataflow.wgmma-operands follows each element of a wgmma operand from
// where its writer put it in the stage to where the instruction's matrix
// descriptor reads it, for every stage, warpgroup, k step, row and k of
// the instruction and every base the dynamic shared memory may have
// (a multiple of its alignment):
//
//  1. The writer: TMA stores element (row p, k q) of stage s in box
//     p / boxRows, at byte (p % boxRows) x rowStride + q x kStride of it
//     (the box's dimensions innermost first), and swizzles the absolute
//     shared address (PTX ISA / CUDA: the 16-byte chunk bits 4.. XOR the
//     row bits 7..). A computed operand's producers store it K-major and
//     swizzle the offset within the operand's stage.
//  2. The descriptor, decoded from the bits the lowering encodes: its
//     start (address bits 4-17), leading and stride byte offsets (bits
//     16-29, 32-45, in 16 bytes), base offset (bits 49-51) and layout
//     type (bits 62-63: the swizzle).
//  3. The reader (PTX ISA, "Shared Memory Matrix Layout"): element (mn,
//     k) of a K-major operand lies in the canonical layout
//     ((8, m), (T, 2k)) : ((W / 16 T, SBO), (1, T)) (no swizzle: ((8, m),
//     (T, 2k)) : ((T, SBO), (1, LBO))), of an M/N-major one in
//     ((T, W / 16, m), (8, k)) : ((1, T, LBO), (W / 16 T, SBO)) (no
//     swizzle: ((T, 1, m), (8, k)) : ((1, T, SBO), (T, LBO))), T = 16 /
//     the element's bytes, W the swizzle's bytes; the swizzle applies to
//     the address start + that offset. The base offset field must give
//     the start's phase in the swizzle's repeating pattern.
//
// Warpgroup g's A reads rows 64 g .. 64 g + 63 of the tile; k step j reads
// K 16 j .. 16 j + 15 of the stage. The element read must be one the
// writer writes (a box it issues holds it; TMA's boxes start at multiples
// of 128 bytes), and the one it put there.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// The fields of a descriptor's fixed bits.
struct DecodedDescriptor {
  int64_t leadingBytes, strideBytes, baseOffset, swizzleBytes;
};

DecodedDescriptor decode(uint64_t bits) {
  static const int64_t widths[] = {0, 128, 64, 32};
  return {int64_t((bits >> 16) & 0x3fff) << 4,
          int64_t((bits >> 32) & 0x3fff) << 4, int64_t((bits >> 49) & 7),
          widths[bits >> 62]};
}

/// The shared addresses a descriptor's start (bits 4-17) reaches.
constexpr int64_t kDescriptorReach = int64_t(1) << 18;

/// The shared-memory swizzle of `width` bytes (0: none) applied to `at`.
z3::expr swizzled(z3::context &ctx, const z3::expr &at, int64_t width) {
  if (width == 0)
    return at;
  z3::expr phase = z3::lshr(at, 7) & constant(ctx, width / 16 - 1);
  return at ^ z3::shl(phase, 4);
}

/// The symbols of one read: the base, the stage, the warpgroup, the k step
/// and the element (mn, k) of the instruction's operand.
struct ReadSymbols {
  z3::expr base, stage, group, kStep, mn, k;
  std::vector<std::pair<std::string, z3::expr>> named() const {
    return {{"base", base},    {"stage", stage}, {"warpgroup", group},
            {"k step", kStep}, {"row", mn},      {"k", k}};
  }
};

/// The offset of element (mn, k) from the descriptor's start in the ISA's
/// canonical layout.
z3::expr canonicalOffset(z3::context &ctx, const DescriptorRead &r,
                         const DecodedDescriptor &d, const z3::expr &mn,
                         const z3::expr &k) {
  auto c = [&](int64_t v) { return constant(ctx, v); };
  int64_t t = 16 / r.elementBytes, w = d.swizzleBytes;
  z3::expr eb = c(r.elementBytes);
  if (r.kInnermost) {
    z3::expr rows = z3::urem(mn, c(8)) * c(w ? w : 16) +
                    z3::udiv(mn, c(8)) * c(d.strideBytes);
    z3::expr along =
        z3::urem(k, c(t)) * eb + z3::udiv(k, c(t)) * c(w ? 16 : d.leadingBytes);
    return rows + along;
  }
  if (w == 0)
    return z3::urem(mn, c(t)) * eb + z3::udiv(mn, c(t)) * c(d.strideBytes) +
           z3::urem(k, c(8)) * c(16) + z3::udiv(k, c(8)) * c(d.leadingBytes);
  int64_t chunks = w / 16;
  return z3::urem(mn, c(t)) * eb +
         z3::urem(z3::udiv(mn, c(t)), c(chunks)) * c(16) +
         z3::udiv(mn, c(t * chunks)) * c(d.leadingBytes) +
         z3::urem(k, c(8)) * c(w) + z3::udiv(k, c(8)) * c(d.strideBytes);
}

/// Where the writer put element (row p, k q) of stage `stage`: the byte,
/// the start of the box holding it, and whether the writer writes it at
/// all (a box it issues holds it).
struct Written {
  z3::expr address, boxStart, inside;
};

Written writtenAt(z3::context &ctx, const DescriptorRead &r,
                  const z3::expr &base, const z3::expr &stage,
                  const z3::expr &p, const z3::expr &q) {
  auto c = [&](int64_t v) { return constant(ctx, v); };
  z3::expr box = z3::udiv(p, c(r.boxRows)) * c(r.boxBytes);
  z3::expr inBox = z3::urem(p, c(r.boxRows)) * c(r.rowStride);
  z3::expr inside = z3::ult(z3::udiv(p, c(r.boxRows)), c(r.boxes));
  if (r.kBox) {
    box = box + z3::udiv(q, c(r.kBox)) * c(r.kBoxBytes);
    inBox = inBox + z3::urem(q, c(r.kBox)) * c(r.kStride);
    inside = inside && z3::ult(z3::udiv(q, c(r.kBox)), c(r.kBoxes));
  } else {
    inBox = inBox + q * c(r.kStride);
    inside = inside && z3::ult(q, c(r.boxK));
  }
  z3::expr boxStart =
      base + stage * c(r.writerStageBytes) + c(r.regionOffset) + box;
  if (r.swizzlesAddress)
    return {swizzled(ctx, boxStart + inBox, r.writerSwizzleBytes), boxStart,
            inside};
  z3::expr rowBytes = c(r.writerRowBytes);
  return {boxStart + storedOffset(ctx, r.rowSwizzle, r.writerRowBytes,
                                  z3::udiv(inBox, rowBytes),
                                  z3::urem(inBox, rowBytes)),
          boxStart, inside};
}

/// TMA writes a box to a shared address that is a multiple of 128 bytes.
constexpr int64_t kTmaBoxAlignment = 128;

std::string subjectOf(const ProgramModel &model, const DescriptorRead &r,
                      const DecodedDescriptor &d) {
  return "@" + model.name + ": wgmma's " + (r.isLhs ? "A" : "B") +
         " from the " + r.operand + " stage by descriptor (" +
         (r.kInnermost ? "K-major" : "M/N-major") + ", " +
         (d.swizzleBytes ? std::to_string(d.swizzleBytes) + "-byte swizzle"
                         : std::string("no swizzle")) +
         ", written by " + r.writer + ")";
}

/// The element of the stage the writer put at `address` (concrete, from a
/// counterexample), found by Z3.
std::string elementAt(z3::context &ctx, const DescriptorRead &r, uint64_t base,
                      uint64_t stage, uint64_t address) {
  z3::expr p = variable(ctx, "held row"), q = variable(ctx, "held k");
  z3::solver solver(ctx);
  solver.add(z3::ult(p, constant(ctx, r.warpgroups * r.rows)) &&
             z3::ult(q, constant(ctx, r.kSteps * 16)));
  Written w =
      writtenAt(ctx, r, constant(ctx, base), constant(ctx, stage), p, q);
  solver.add(w.inside && w.address == constant(ctx, address));
  if (solver.check() != z3::sat)
    return "no element of the stage";
  z3::model m = solver.get_model();
  return "(row, k) = (" + std::to_string(valueOf(m, p)) + ", " +
         std::to_string(valueOf(m, q)) + ")";
}

void proveDescriptorRead(Prover &prover, const ProgramModel &model,
                         const DescriptorRead &r,
                         std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  auto c = [&](int64_t v) { return constant(ctx, v); };
  const WgmmaDescriptorPlan &plan = r.descriptor;
  DecodedDescriptor d = decode(plan.fixedBits());
  ReadSymbols s{variable(ctx, "base"),      variable(ctx, "stage"),
                variable(ctx, "warpgroup"), variable(ctx, "k step"),
                variable(ctx, "row"),       variable(ctx, "k")};
  // What the writer writes ends below 2^18, what a descriptor's start
  // reaches (the base ranges over what leaves room for it).
  int64_t end = r.regionOffset + (r.stages - 1) * r.writerStageBytes +
                std::max(r.boxes * r.boxBytes, r.kBoxes * r.kBoxBytes);
  if (end > kDescriptorReach) {
    Finding f;
    f.invariant = "dataflow.wgmma-operands";
    f.subject = subjectOf(model, r, d);
    f.verdict = Verdict::Refuted;
    f.detail = "the stages end at shared byte " + std::to_string(end) +
               ", past what a descriptor's start addresses (" +
               std::to_string(kDescriptorReach) + ")";
    findings.push_back(f);
    return;
  }
  z3::expr valid = z3::urem(s.base, c(r.baseAlignment)) == c(0) &&
                   z3::ule(s.base, c(kDescriptorReach - end)) &&
                   z3::ult(s.stage, c(r.stages)) &&
                   z3::ult(s.group, c(r.warpgroups)) &&
                   z3::ult(s.kStep, c(r.kSteps)) && z3::ult(s.mn, c(r.rows)) &&
                   z3::ult(s.k, c(16));
  z3::expr step = s.kStep * c(plan.kStepBytes);
  if (plan.kStepsPerPanel)
    step = z3::udiv(s.kStep, c(plan.kStepsPerPanel)) * c(plan.panelBytes) +
           z3::urem(s.kStep, c(plan.kStepsPerPanel)) * c(plan.kStepBytes);
  z3::expr start = s.base + s.stage * c(plan.stageBytes) +
                   s.group * c(plan.groupBytes) + c(plan.offset) + step;
  // The start as the descriptor holds it: address bits 4-17.
  z3::expr held = z3::shl(z3::lshr(start & c(kDescriptorReach - 1), 4), 4);
  z3::expr read = swizzled(ctx, held + canonicalOffset(ctx, r, d, s.mn, s.k),
                           d.swizzleBytes);
  z3::expr row = (r.isLhs ? s.group * c(64) : c(0)) + s.mn;
  z3::expr kAt = s.kStep * c(16) + s.k;
  Written written = writtenAt(ctx, r, s.base, s.stage, row, kAt);
  z3::expr misaligned =
      r.swizzlesAddress
          ? z3::urem(written.boxStart, c(kTmaBoxAlignment)) != c(0)
          : ctx.bool_val(false);
  z3::expr phase =
      d.swizzleBytes ? z3::lshr(held, 7) & c(d.swizzleBytes / 16 - 1) : c(0);
  z3::expr phaseWrong = phase != c(d.swizzleBytes ? d.baseOffset : 0);
  findings.push_back(prover.prove(
      "dataflow.wgmma-operands", subjectOf(model, r, d),
      valid && (!written.inside || misaligned || read != written.address ||
                phaseWrong),
      [&](const z3::model &m) {
        std::string at = describeValues(m, s.named()) + ": ";
        std::string wanted = "(row, k) = " + describeTuple(m, {row, kAt});
        if (m.eval(!written.inside, true).is_true())
          return at + "wgmma reads " + wanted +
                 ", which no box the writer issues holds";
        if (m.eval(misaligned, true).is_true())
          return at + "TMA writes " + wanted + "'s box at shared byte " +
                 std::to_string(valueOf(m, written.boxStart)) +
                 ", not a multiple of " + std::to_string(kTmaBoxAlignment);
        if (m.eval(phaseWrong, true).is_true())
          return at + "the descriptor starts at shared byte " +
                 std::to_string(valueOf(m, held)) + ", phase " +
                 std::to_string(valueOf(m, phase)) +
                 " of the swizzle's pattern, but its base offset is " +
                 std::to_string(d.baseOffset);
        uint64_t address = valueOf(m, read);
        return at + "wgmma reads shared byte " + std::to_string(address) +
               ", which holds " +
               elementAt(ctx, r, valueOf(m, s.base), valueOf(m, s.stage),
                         address) +
               "; the writer put " + wanted + " at byte " +
               std::to_string(valueOf(m, written.address));
      }));
}

} // namespace

void verify::proveDescriptorReads(Prover &prover, const ProgramModel &model,
                                  std::vector<Finding> &findings) {
  for (const DescriptorRead &r : model.descriptorReads)
    proveDescriptorRead(prover, model, r, findings);
}
