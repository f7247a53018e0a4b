//===- Check.cpp - Outputs checked against the reference ------------------===//
#include "compiler/Pipeline/Check.h"
#include "compiler/Interpreter/AlgInterpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;

namespace {

/// The operation whose result an output definition stores (its rounding is
/// the output's), or null when it stores a folded sum.
Operation *storedValue(alg::DefineOp def) {
  Region &region =
      def.getEpilogue().empty() ? def.getBody() : def.getEpilogue();
  if (def.isReduction() && &region == &def.getBody())
    return nullptr;
  return cast<alg::YieldOp>(region.front().getTerminator())
      .getValue()
      .getDefiningOp();
}

/// The length of `def`'s reduction at `sizes`.
double reductionLength(alg::DefineOp def, const SizeValues &sizes) {
  double length = 1;
  if (ArrayAttr dims = def.getReduceDimsAttr())
    for (Attribute d : dims)
      length *= isa<StringAttr>(d)
                    ? sizes.at(cast<StringAttr>(d).getValue().str())
                    : cast<IntegerAttr>(d).getInt();
  return length;
}

/// How much of each source of rounding a path's results carry, in units of
/// the source's scale (RoundingSources). The tolerance is relative to
/// |expected| + mean |expected|: twice an element's error scale where
/// |expected| is at its mean, never less than the mean.
///
/// accumulation: a sum of L terms rounded at each step errs by
/// sum_k d_k S_k (d_k the k-th rounding, |d_k| <= u, S_k the k-th partial
/// sum): for independent roundings (standard deviation u / sqrt(3)) and
/// terms of mixed signs, by 0.5 u sqrt(L) mean |sum| (one standard
/// deviation); for terms of one sign, by u sqrt(L) / 3 of the sum. Three
/// units times sqrt(L), against |expected| + mean |expected|, is six
/// standard deviations of the mean element at the least (the tails of a
/// million elements' errors reach five). Summing in vector lanes or
/// blocks, or a tensor core's dot product of 8 or 16 terms at a time (the
/// emulator accumulates each in double and rounds once), rounds less
/// often, never more. Measured: 0.98 units (the tests, the fuzzers).
///
/// arithmetic: the interpreter rounds every operation to its IR type as
/// the compiled code does, but the compiler rewrites some: exp(x) becomes
/// exp2(x log2(e)) (rounding the product moves the result by |x| units),
/// scales move into or out of reductions, and math functions are
/// polynomial approximations within 2 units in the last place (4 units).
/// Eight units of the narrowest type of 32 bits or more cover a chain of
/// them. Measured: 2.2 units (four exponentials summed).
///
/// narrowTyped: a value the IR rounds to 16 bits (an intermediate typed
/// bf16, tanh of an f16 input) is rounded so by the compiled code too, and
/// is the interpreter's but where the values before rounding straddle a
/// boundary: one unit in the last place (2 units) off, a flip a chain of
/// 16-bit operations may carry: 4 units. Measured: 1.05 units (gelu(tanh)
/// of an f16 input).
///
/// narrowed: each element of an f32 intermediate the compiled kernel rounds
/// to 16 bits for tensor cores (attention's P, a mixture of experts'
/// silu(G) U) moves by up to one unit, independently; a contraction over
/// them averages their relative errors (standard deviation u / sqrt(3) of
/// the terms' root mean square) and a product of two rounded values adds
/// them, so the tails of a few thousand elements reach 4 units. Eight
/// units. Measured: 4.1 units (a mixture of experts at T = 40, D = 128,
/// F = 192).
///
/// truncation (a GPU's tensor cores): mma aligns a step's products to the
/// largest and truncates (Fasi et al., "Numerical behavior of NVIDIA tensor
/// cores", 2021, on V100, T4 and A100; wgmma is taken to do the same): each
/// step of 16 terms rounds toward zero, by up to one unit in the last place
/// of the partial sum (2 units), the same way every time: L / 16 steps of
/// 2 units of partial sums about the size of the result, L / 8 units. The
/// GPU also evaluates ex2, rsqrt, rcp and division with the approximate
/// instructions (within 2 units in the last place, PTX ISA), and its
/// reference kernels' f32 math functions are CUDA's (within 2 more): eight
/// more units of arithmetic. Not yet measured on a GPU.
///
/// The emulator rounds as the CPU does (the host's IEEE operations, for the
/// approximate instructions too), so the two paths differ by what their
/// kernels round, `narrowed`, which the compiled module tells (Precision.h):
/// nothing on the CPU.
struct PathCoefficients {
  double accumulation, truncation, arithmetic, narrowTyped, narrowed;
};

const PathCoefficients &coefficientsOf(CheckPath path) {
  static const PathCoefficients host{3, 0, 8, 4, 8};
  static const PathCoefficients emulator{3, 0, 8, 4, 8};
  static const PathCoefficients gpu{3, 1.0 / 8, 16, 4, 8};
  switch (path) {
  case CheckPath::Host:
    return host;
  case CheckPath::Emulator:
    return emulator;
  case CheckPath::Gpu:
    return gpu;
  }
  return gpu;
}

} // namespace

RoundingSources nautilus::roundingSources(alg::KernelOp kernel,
                                          const SizeValues &sizes,
                                          std::optional<rt::DType> narrowed) {
  RoundingSources sources;
  sources.narrowed = narrowed ? rt::unitRoundoff(*narrowed) : 0;
  auto computedIn = [&](Type type) {
    std::optional<rt::DType> dtype = dtypeOf(type);
    if (!dtype || !rt::isFloat(*dtype))
      return;
    double &narrowest =
        rt::dtypeSize(*dtype) == 2 ? sources.narrowTyped : sources.arithmetic;
    narrowest = std::max(narrowest, rt::unitRoundoff(*dtype));
  };
  kernel.walk([&](alg::DefineOp def) {
    bool isOutput =
        llvm::is_contained(kernel.getReturn().getOutputs(), def.getResult());
    if (!isOutput)
      computedIn(cast<RankedTensorType>(def.getType()).getElementType());
    // Values a definition computes in a narrow type (tanh of an f16 input,
    // bf16(x) + R) round there too: all but the value an output stores,
    // whose rounding is the output's, and exact reads and widenings.
    Operation *stored = isOutput ? storedValue(def) : nullptr;
    def->walk([&](Operation *op) {
      if (op != def && op != stored && op->getNumResults() == 1 &&
          !isa<alg::LoadOp, arith::ExtFOp, arith::ConstantOp>(op))
        computedIn(op->getResult(0).getType());
    });
    std::optional<alg::ReductionKind> kind = def.getKind();
    if (!kind || *kind == alg::ReductionKind::max ||
        *kind == alg::ReductionKind::min)
      return; // exact
    std::optional<rt::DType> accumulator = dtypeOf(def.getBodyType());
    if (!accumulator || !rt::isFloat(*accumulator))
      return;
    double roundoff = rt::unitRoundoff(*accumulator);
    double length = reductionLength(def, sizes);
    sources.accumulation += roundoff * std::sqrt(length);
    sources.truncation += roundoff * length;
  });
  return sources;
}

rt::Tolerance nautilus::checkTolerance(const RoundingSources &sources,
                                       CheckPath path) {
  const PathCoefficients &c = coefficientsOf(path);
  rt::Tolerance tolerance;
  tolerance.ulps = 1;
  tolerance.relative =
      c.accumulation * sources.accumulation +
      c.truncation * sources.truncation + c.arithmetic * sources.arithmetic +
      c.narrowTyped * sources.narrowTyped + c.narrowed * sources.narrowed;
  return tolerance;
}

std::string nautilus::checkOutputs(alg::KernelOp reference,
                                   const SizeValues &sizes,
                                   const std::vector<rt::HostTensor> &inputs,
                                   const std::vector<rt::HostTensor> &outputs,
                                   const rt::Tolerance &tolerance,
                                   std::vector<OutputCheck> &checks) {
  std::vector<rt::HostTensor> expected;
  std::vector<std::vector<double>> excesses;
  if (std::string e =
          interpretKernel(reference, sizes, inputs, expected, &excesses);
      !e.empty())
    return e;
  compareOutputs(reference, expected, outputs, tolerance, checks, &excesses);
  return "";
}

void nautilus::compareOutputs(
    alg::KernelOp reference, const std::vector<rt::HostTensor> &expected,
    const std::vector<rt::HostTensor> &outputs, const rt::Tolerance &tolerance,
    std::vector<OutputCheck> &checks,
    const std::vector<std::vector<double>> *excesses) {
  KernelSignature sig = getSignature(reference);
  checks.clear();
  for (size_t i = 0; i < outputs.size(); ++i)
    checks.push_back(
        {sig.outputs[i].name,
         rt::compareTensors(outputs[i], expected[i], tolerance,
                            excesses && i < excesses->size() ? &(*excesses)[i]
                                                             : nullptr)});
}
