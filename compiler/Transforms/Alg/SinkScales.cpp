//===- SinkScales.cpp - Positive scales move into what reads them ---------===//
//
// A reduction stored with a positive scale, D = c * D0 (attention's
// S = sum[d](Q K) * rsqrt(D), or 30 * tanh(sum[d](Q K) / 30)), becomes D0,
// and each read of it c * D0, when every read takes the scale where it
// costs nothing:
//
//   - as a factor of a reduction's term: factoring (Factoring.h) moves it
//     into that reduction's epilogue, applied once per element of a
//     smaller domain (max(c x) = c max(x) exactly for c > 0, rounding
//     being monotonic); the reader is then a candidate itself;
//   - in the affine argument of an exp or exp2: alg-exp-to-exp2 folds it
//     into the coefficient log2(e) it multiplies by anyway.
//
// So attention's first contraction is a plain sum, its max is taken over
// the unscaled scores, and exp(S - Mx) becomes exp2(k S0 - k Mx0) with
// k = rsqrt(D) log2(e): one FMA and one ex2 per score. c must be provably
// positive and finite (Algebra.h's isPositive): otherwise, or where a read
// would not take it, the definition keeps it, and says why.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Factoring.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/SinkScales.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGSINKSCALES
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// The scale of a stored value: its positive finite point-free factors.
FactorChoice scaleFactor(Value v, bool) {
  if (isPointFree(v))
    return isPositive(v) ? FactorChoice::Move : FactorChoice::Keep;
  if (isa_and_nonnull<alg::InputOp>(v.getDefiningOp()))
    return FactorChoice::Keep; // a scalar input: its sign is unknown
  return FactorChoice::Descend;
}

/// Whether `reader`'s domain has fewer elements than `def`'s for every
/// value of the sizes: its dims are a strict sub-multiset of def's.
bool smallerDomain(alg::DefineOp reader, alg::DefineOp def) {
  SmallVector<Attribute> dims(def.getDims().begin(), def.getDims().end());
  for (Attribute d : reader.getDims()) {
    auto it = llvm::find(dims, d);
    if (it == dims.end())
      return false;
    dims.erase(it);
  }
  return !dims.empty();
}

/// One definition whose scale moves into its readers.
struct Sinking {
  alg::DefineOp def;
  SmallVector<alg::LoadOp> reads;
  llvm::SetVector<alg::DefineOp> factoring; // readers taking it as a factor
};

class ScaleSinker {
public:
  explicit ScaleSinker(alg::KernelOp kernel) : ret(kernel.getReturn()) {}

  /// Whether `def`'s scale can move into its readers; `why` says why not
  /// (empty when `def` has no scale).
  FailureOr<Sinking> analyse(alg::DefineOp def, std::string &why);
  /// Moves it; returns the readers that took it as a factor.
  SmallVector<alg::DefineOp> sink(Sinking &s);
  /// Whether every read of `s.def` takes a positive scale; collects them.
  LogicalResult readsAbsorb(Sinking &s, std::string &why);

private:
  bool absorbs(Value v, bool affine, bool multiplicative, Sinking &s,
               std::string &why);
  bool absorbsAtYield(Operation *yield, Sinking &s, std::string &why);

  alg::ReturnOp ret;
  std::string readerName; // the reader being looked at
};

/// A read taking the scale as a factor of a reduction's term.
bool ScaleSinker::absorbsAtYield(Operation *yield, Sinking &s,
                                 std::string &why) {
  auto reader = dyn_cast<alg::DefineOp>(yield->getParentOp());
  if (!reader || yield->getParentRegion() != &reader.getBody() ||
      !reader.isReduction() || *reader.getKind() == alg::ReductionKind::prod) {
    why = "'" + readerName + "' stores it as it is";
    return false;
  }
  if (!smallerDomain(reader, s.def)) {
    why = "'" + reader.getName().str() + "' has no fewer elements than '" +
          s.def.getName().str() + "', so the scale would cost as much there";
    return false;
  }
  if (*reader.getKind() != alg::ReductionKind::sum && streamFollowerOf(reader)) {
    // A max or min that a stream could follow must pass the scale on: kept
    // in its epilogue, it could no longer lead the stream.
    std::string inner, name = readerName;
    bool passes = reader.getEpilogue().empty() && readsTakeScale(reader, inner);
    readerName = name;
    if (!passes) {
      why = "'" + name + "' could not pass it on" +
            (inner.empty() ? "" : " (" + inner + ")");
      return false;
    }
  }
  s.factoring.insert(reader);
  return true;
}

/// Whether every use of `v` (computed from a read of the scaled
/// definition) takes the scale: on a path of products to a reduction's
/// term (`multiplicative`) or of affine operations to an exponent
/// (`affine`).
bool ScaleSinker::absorbs(Value v, bool affine, bool multiplicative,
                          Sinking &s, std::string &why) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    unsigned operand = use.getOperandNumber();
    if (isa<alg::YieldOp>(user)) {
      if (!multiplicative) {
        why = "'" + readerName + "' adds it to other terms before folding";
        return false;
      }
      if (!absorbsAtYield(user, s, why))
        return false;
      continue;
    }
    if (isa<math::ExpOp, math::Exp2Op>(user)) {
      if (!affine) {
        why = "an exponent in '" + readerName + "' multiplies it by a value "
              "that varies";
        return false;
      }
      continue;
    }
    bool aff = affine, mul = multiplicative;
    if (isa<arith::MulFOp>(user)) {
      aff = aff && isPointFree(user->getOperand(1 - operand));
    } else if (isa<arith::DivFOp>(user)) {
      aff = aff && operand == 0 && isPointFree(user->getOperand(1));
    } else if (isa<arith::AddFOp, arith::SubFOp>(user)) {
      mul = false;
    } else if (isa<arith::SelectOp>(user)) {
      aff = false;
      mul = mul && operand != 0 &&
            isScaleFree(user->getOperand(operand == 1 ? 2 : 1));
    } else if (!isa<arith::NegFOp>(user)) {
      why = "'" + readerName + "' reads it through " +
            describeValue(user->getResult(0));
      return false;
    }
    if (!aff && !mul) {
      why = "'" + readerName + "' reads it through " +
            describeValue(user->getResult(0)) + ", which would not take it";
      return false;
    }
    if (!absorbs(user->getResult(0), aff, mul, s, why))
      return false;
  }
  return true;
}

FailureOr<Sinking> ScaleSinker::analyse(alg::DefineOp def, std::string &why) {
  if (!def.isReduction() || def.getEpilogue().empty() ||
      llvm::is_contained(ret.getOutputs(), def.getResult()))
    return failure();
  Block &epilogue = def.getEpilogue().front();
  Value stored = cast<alg::YieldOp>(epilogue.getTerminator()).getValue();
  if (!isa<FloatType>(stored.getType()) || isPointFree(stored))
    return failure();
  FactorSplit scale = splitFactors(stored, scaleFactor);
  if (scale.empty()) {
    if (!scale.kept.empty())
      why = "its scale " + describeValue(scale.kept.front()) +
            " is not known to be positive and finite";
    return failure();
  }
  Sinking s{def, {}, {}};
  if (failed(readsAbsorb(s, why)))
    return failure();
  return s;
}

LogicalResult ScaleSinker::readsAbsorb(Sinking &s, std::string &why) {
  for (Operation *user : s.def->getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load || !load.getIndirect().empty()) {
      why = "it is read through an indirect index";
      return failure();
    }
    s.reads.push_back(load);
    readerName = load->getParentOfType<alg::DefineOp>().getName().str();
    if (!absorbs(load.getResult(), /*affine=*/true, /*multiplicative=*/true, s,
                 why))
      return failure();
  }
  return success();
}

SmallVector<alg::DefineOp> ScaleSinker::sink(Sinking &s) {
  Block &epilogue = s.def.getEpilogue().front();
  auto yield = cast<alg::YieldOp>(epilogue.getTerminator());
  FactorSplit scale = splitFactors(yield.getValue(), scaleFactor);
  OpBuilder builder(yield);
  yield->setOperand(0, rebuildWithout(builder, yield.getValue(), scaleFactor));
  for (alg::LoadOp read : s.reads) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : read.getResult().getUses())
      uses.push_back(&use);
    OpBuilder at(read->getBlock(), ++Block::iterator(read));
    IRMapping mapping;
    SmallVector<Value> multipliers, divisors;
    for (Value m : scale.multipliers)
      multipliers.push_back(clonePointFree(at, m, mapping));
    for (Value d : scale.divisors)
      divisors.push_back(clonePointFree(at, d, mapping));
    Value scaled =
        applyFactors(at, read.getLoc(), read.getResult(), multipliers, divisors);
    for (OpOperand *use : uses)
      use->set(scaled);
  }
  eraseDeadOps(epilogue);
  // An epilogue left storing the folded value as it is goes.
  if (yield.getValue() == epilogue.getArgument(s.def.getRank()))
    epilogue.erase();
  SmallVector<alg::DefineOp> readers(s.factoring.begin(), s.factoring.end());
  for (alg::DefineOp reader : readers)
    factorInvariants(reader);
  return readers;
}

std::string describeScale(alg::DefineOp def) {
  Value stored =
      cast<alg::YieldOp>(def.getEpilogue().front().getTerminator()).getValue();
  FactorSplit scale = splitFactors(stored, scaleFactor);
  SmallVector<std::string> parts;
  for (Value m : scale.multipliers)
    parts.push_back(describeValue(m));
  for (Value d : scale.divisors)
    parts.push_back("1 / " + describeValue(d));
  return llvm::join(parts, " * ");
}

} // namespace

alg::DefineOp nautilus::streamFollowerOf(alg::DefineOp def) {
  for (Operation *user : def->getUsers()) {
    auto reader = dyn_cast<alg::DefineOp>(user->getParentOp());
    if (isa<alg::LoadOp>(user) && reader && reader.isReduction() &&
        user->getParentRegion() == &reader.getBody() &&
        reader.getReduceDimsAttr() == def.getReduceDimsAttr())
      return reader;
  }
  return nullptr;
}

bool nautilus::readsTakeScale(alg::DefineOp def, std::string &why) {
  auto kernel = def->getParentOfType<alg::KernelOp>();
  if (llvm::is_contained(kernel.getReturn().getOutputs(), def.getResult())) {
    why = "it is an output";
    return false;
  }
  ScaleSinker sinker(kernel);
  Sinking s{def, {}, {}};
  return succeeded(sinker.readsAbsorb(s, why));
}

namespace {

struct AlgSinkScalesPass
    : public nautilus::impl::AlgSinkScalesBase<AlgSinkScalesPass> {
  using AlgSinkScalesBase::AlgSinkScalesBase;

  void runOnOperation() override {
    alg::KernelOp kernel = getOperation();
    ScaleSinker sinker(kernel);
    SmallVector<alg::DefineOp> work(kernel.getBody().getOps<alg::DefineOp>());
    // First first: a reader that takes a scale may pass it on.
    for (size_t i = 0; i < work.size(); ++i) {
      alg::DefineOp def = work[i];
      std::string why;
      FailureOr<Sinking> s = sinker.analyse(def, why);
      if (failed(s)) {
        if (explain && !why.empty())
          def.emitRemark() << "'" << def.getName() << "' keeps its scale: "
                           << why;
        continue;
      }
      std::string scale = describeScale(def);
      // The readers, in the kernel's order.
      llvm::SetVector<Operation *> readers;
      for (alg::LoadOp read : s->reads)
        readers.insert(read->getParentOfType<alg::DefineOp>());
      SmallVector<Operation *> ordered(readers.begin(), readers.end());
      llvm::sort(ordered, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      SmallVector<std::string> names;
      for (Operation *reader : ordered)
        names.push_back(cast<alg::DefineOp>(reader).getName().str());
      SmallVector<alg::DefineOp> passedOn = sinker.sink(*s);
      if (explain)
        def.emitRemark() << "'" << def.getName() << "': its positive scale "
                         << scale << " moves into its readers '"
                         << llvm::join(names, "', '") << "'";
      llvm::append_range(work, passedOn);
    }
  }
};

} // namespace
