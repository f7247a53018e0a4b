//===- AlgInterpreter.cpp - Reference semantics of the alg dialect --------===//
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Interpreter/CancellationExcess.h"
#include "compiler/Interpreter/ScalarSemantics.h"
#include "dialects/Alg/AlgOps.h"
#include "runtime/SizeExpr.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <functional>
#include <memory>
#include <limits>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::interp;

namespace {

/// The elements of an intermediate definition that read out of range, and
/// the first such read: an error only where such an element reaches a
/// result unguarded.
struct PoisonedElements {
  std::vector<bool> elements;
  std::string read;
  std::string definition; // whose element made the read
};

/// A region flattened into straight-line code over numbered slots.
struct Tape {
  struct Inst {
    Operation *op;
    int result;
    SmallVector<int, 3> operands;
    Kind kind;        // of the result
    Kind operandKind; // of the first operand (casts, comparisons)
    const rt::HostTensor *tensor = nullptr; // alg.load
    const std::vector<double> *excess = nullptr; // of its elements, if any
    const PoisonedElements *poisoned = nullptr;  // if any
    std::string tensorName;
    Scalar constant;  // arith.constant, alg.size, scalar inputs
    /// A nested alg.reduce: its body, kind and extents.
    std::shared_ptr<Tape> nested;
    alg::ReductionKind nestedKind = alg::ReductionKind::sum;
    SmallVector<int64_t> nestedExtents;
  };
  unsigned numArgs = 0;
  unsigned numSlots = 0;
  SmallVector<Inst> insts;
  int yield = -1;           // the (first) value yielded
  SmallVector<int> yields;  // every value yielded
};

/// A fold in progress: floats in `f`, integers in `i`.
struct Fold {
  double f = 0;
  int64_t i = 0;
  FoldExcess excess;
  /// A term read out of range: the fold is poison (a `where` around the
  /// reduction may still discard it).
  bool poison = false;

  explicit Fold(alg::ReductionKind kind);
  void add(alg::ReductionKind kind, const Scalar &v);
};

class Interpreter {
public:
  Interpreter(alg::KernelOp kernel, const SizeValues &sizes)
      : kernel(kernel) {
    for (Attribute s : kernel.getSizes())
      symbols.push_back(sizes.at(cast<StringAttr>(s).getValue().str()));
    this->sizes = &sizes;
  }

  std::string run(const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs,
                  std::vector<std::vector<double>> *outputExcesses);
  std::string evalCondition(Value v, bool &result);

private:
  std::string compile(Block &block, Tape &tape);
  /// Runs `tape` at the point `index` (its index arguments); an epilogue's
  /// last argument, the folded value, is `folded`. A result that read out
  /// of range is an error unless `poisonIsError` is false (a term of a
  /// fold, which carries the poison on to its `where`).
  std::string execute(const Tape &tape, SmallVectorImpl<Scalar> &slots,
                      ArrayRef<int64_t> index, std::optional<Scalar> folded,
                      Scalar &result, bool poisonIsError = true);
  /// The element an alg.load reads at the point `dims`, or a poison value
  /// (and `outOfRange` set) for a read out of range.
  Scalar readTensor(alg::LoadOp load, const Tape::Inst &inst,
                    const Operands &in, ArrayRef<int64_t> dims);
  std::string runDefine(alg::DefineOp def);
  std::string runStream(alg::OnlineReduceOp stream);
  /// One output element of `stream`: its accumulators at `point` (the
  /// left-hand indices, then the streamed index).
  std::string streamElement(alg::OnlineReduceOp stream, const Tape &body,
                            ArrayRef<Tape> repairs,
                            MutableArrayRef<int64_t> point, int64_t extent,
                            SmallVectorImpl<double> &accumulators);
  /// A nested alg.reduce at the point `dims` of its enclosing block.
  std::string runNested(const Tape::Inst &inst, ArrayRef<int64_t> dims,
                        Scalar &result);
  int64_t extent(Attribute dim) {
    if (auto name = dyn_cast<StringAttr>(dim))
      return sizes->at(name.getValue().str());
    return cast<IntegerAttr>(dim).getInt();
  }

  alg::KernelOp kernel;
  const SizeValues *sizes;
  SmallVector<int64_t> symbols;
  llvm::DenseMap<Value, rt::HostTensor> tensors;
  /// The excesses of the elements of a definition where any is not 0.
  llvm::DenseMap<Value, std::vector<double>> excesses;
  llvm::DenseMap<Value, PoisonedElements> poisoned;
  llvm::DenseMap<Value, Scalar> scalars; // scalar inputs
  std::string outOfRange; // the last read out of range
  /// The intermediate whose element made it; empty where it was the
  /// definition being run.
  std::string outOfRangeIn;
};

} // namespace

std::string Interpreter::compile(Block &block, Tape &tape) {
  llvm::DenseMap<Value, int> slot;
  tape.numArgs = block.getNumArguments();
  for (BlockArgument arg : block.getArguments())
    slot[arg] = arg.getArgNumber();
  int next = tape.numArgs;
  // A scalar value from outside the region: a scalar input, or a constant
  // a canonicalization hoisted out of the region, which becomes a constant
  // slot.
  auto outerSlot = [&](Value operand, int &result) -> std::string {
    auto sc = scalars.find(operand);
    Scalar outer;
    if (sc != scalars.end()) {
      outer = sc->second;
    } else if (auto c = operand.getDefiningOp<arith::ConstantOp>()) {
      if (auto f = dyn_cast<FloatAttr>(c.getValue()))
        outer.f = f.getValueAsDouble();
      else if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        outer.i = i.getValue().getSExtValue();
    } else {
      return "internal error: region uses an unknown outer value";
    }
    Tape::Inst load;
    load.op = nullptr;
    load.result = next;
    load.kind = kindOf(operand.getType());
    load.operandKind = load.kind;
    load.constant = outer;
    tape.insts.push_back(load);
    slot[operand] = next;
    result = next++;
    return "";
  };
  for (Operation &op : block) {
    if (auto yield = dyn_cast<alg::YieldOp>(op)) {
      // (a definition may yield a scalar input as it is: C[i] = s)
      for (Value v : yield.getValues()) {
        int at;
        auto it = slot.find(v);
        if (it != slot.end())
          at = it->second;
        else if (std::string e = outerSlot(v, at); !e.empty())
          return e;
        tape.yields.push_back(at);
      }
      tape.yield = tape.yields.front();
      break;
    }
    Tape::Inst inst;
    inst.op = &op;
    for (Value operand : op.getOperands()) {
      auto it = slot.find(operand);
      if (it != slot.end()) {
        inst.operands.push_back(it->second);
        continue;
      }
      // A tensor from outside the region is read by alg.load.
      if (isa<RankedTensorType>(operand.getType()))
        continue;
      int outer;
      if (std::string e = outerSlot(operand, outer); !e.empty())
        return e;
      inst.operands.push_back(outer);
    }
    if (op.getNumResults() != 1)
      return "the interpreter does not support '" +
             op.getName().getStringRef().str() + "'";
    inst.kind = kindOf(op.getResult(0).getType());
    inst.operandKind = op.getNumOperands()
                           ? kindOf(op.getOperand(0).getType())
                           : inst.kind;
    if (auto load = dyn_cast<alg::LoadOp>(op)) {
      auto it = tensors.find(load.getTensor());
      if (it == tensors.end())
        return "internal error: alg.load of a tensor not yet computed";
      inst.tensor = &it->second;
      if (auto e = excesses.find(load.getTensor()); e != excesses.end())
        inst.excess = &e->second;
      if (auto p = poisoned.find(load.getTensor()); p != poisoned.end())
        inst.poisoned = &p->second;
      if (auto def = load.getTensor().getDefiningOp<alg::DefineOp>())
        inst.tensorName = def.getName().str();
      else if (auto in = load.getTensor().getDefiningOp<alg::InputOp>())
        inst.tensorName = in.getName().str();
    } else if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto f = dyn_cast<FloatAttr>(c.getValue()))
        inst.constant.f = f.getValueAsDouble();
      else if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        inst.constant.i = inst.kind == Kind::Bool ? (i.getValue().getBoolValue())
                                                  : i.getValue().getSExtValue();
      else
        return "the interpreter does not support this constant";
    } else if (auto size = dyn_cast<alg::SizeOp>(op)) {
      inst.constant.i = sizes->at(size.getName().str());
    } else if (auto reduce = dyn_cast<alg::ReduceOp>(op)) {
      inst.nested = std::make_shared<Tape>();
      if (std::string e = compile(reduce.getBody().front(), *inst.nested);
          !e.empty())
        return e;
      inst.nestedKind = reduce.getKind();
      for (Attribute d : reduce.getReduceDims())
        inst.nestedExtents.push_back(extent(d));
    }
    inst.result = next;
    slot[op.getResult(0)] = next++;
    tape.insts.push_back(std::move(inst));
  }
  tape.numSlots = next;
  return "";
}

Scalar Interpreter::readTensor(alg::LoadOp load, const Tape::Inst &inst,
                               const Operands &in, ArrayRef<int64_t> dims) {
  Scalar r;
  const rt::HostTensor &t = *inst.tensor;
  AffineMap map = load.getMap();
  ArrayRef<int64_t> positions = load.getIndirectPositions();
  size_t flat = 0, mapped = 0, indirect = 0;
  SmallVector<int64_t, 6> index;
  for (size_t d = 0; d < t.rank(); ++d) {
    int64_t v;
    if (indirect < positions.size() &&
        positions[indirect] == static_cast<int64_t>(d))
      v = in(indirect++).i;
    else
      v = evalAffine(map.getResult(mapped++), dims, symbols);
    index.push_back(v);
    if (v < 0 || v >= t.shape()[d]) {
      std::string where;
      for (int64_t x : index)
        where += (where.empty() ? "" : ", ") + std::to_string(x);
      outOfRange = std::string(kOutOfRangeRead) + " " + inst.tensorName + "[" +
                   where + (d + 1 < t.rank() ? ", ...]" : "]") +
                   " of a tensor of shape " + rt::formatShape(t.shape());
      outOfRangeIn.clear();
      r.poison = true;
      return r;
    }
    flat = flat * t.shape()[d] + v;
  }
  if (inst.poisoned && inst.poisoned->elements[flat]) {
    outOfRange = inst.poisoned->read;
    outOfRangeIn = inst.poisoned->definition;
    r.poison = true;
  }
  if (isFloatKind(inst.kind)) {
    r.f = t.getAsDouble(flat);
    r.excess = inst.excess ? (*inst.excess)[flat] : 0;
  } else
    r.i = t.getAsInt64(flat);
  return r;
}

std::string Interpreter::execute(const Tape &tape,
                                 SmallVectorImpl<Scalar> &slots,
                                 ArrayRef<int64_t> index,
                                 std::optional<Scalar> folded, Scalar &result,
                                 bool poisonIsError) {
  for (unsigned i = 0; i < index.size(); ++i)
    slots[i].i = index[i];
  if (folded)
    slots[index.size()] = *folded;
  ArrayRef<int64_t> dims = index;
  for (const Tape::Inst &inst : tape.insts) {
    Operands in{inst.operands, slots, inst.operandKind};
    Scalar r;
    Operation *op = inst.op;
    if (!op) { // an outer scalar
      slots[inst.result] = inst.constant;
      continue;
    }
    std::string error;
    bool handled = true;
    if (isa<arith::ConstantOp, alg::SizeOp>(op))
      r = inst.constant;
    else if (auto load = dyn_cast<alg::LoadOp>(op))
      r = readTensor(load, inst, in, dims);
    else if (inst.nested)
      error = runNested(inst, dims, r);
    else if (auto apply = dyn_cast<alg::ApplyOp>(op))
      r.i = evalAffine(apply.getMap().getResult(0), dims, symbols);
    else
      handled = evalArith(op, in, r, error) || evalCast(op, in, r) ||
                evalMath(op, in, r);
    if (!handled)
      return "the interpreter does not support '" +
             op->getName().getStringRef().str() + "'";
    if (!error.empty())
      return error;
    if (!isa<arith::SelectOp>(op))
      for (int operand : inst.operands)
        r.poison |= slots[operand].poison;
    // (Only where an operand carries one: most values have none.)
    if (isFloatKind(inst.kind) && !inst.nested &&
        !isa<alg::LoadOp, arith::SelectOp>(op) &&
        llvm::any_of(inst.operands,
                     [&](int operand) { return slots[operand].excess != 0; })) {
      SmallVector<double, 3> values, excess;
      for (int operand : inst.operands) {
        values.push_back(slots[operand].f);
        excess.push_back(slots[operand].excess);
      }
      r.excess = propagatedExcess(op, values, excess, r.f);
    }
    slots[inst.result] = normalise(r, inst.kind);
  }
  result = slots[tape.yield];
  if (result.poison && poisonIsError)
    return outOfRange;
  return "";
}

Fold::Fold(alg::ReductionKind kind) {
  switch (kind) {
  case alg::ReductionKind::sum: f = 0; i = 0; break;
  case alg::ReductionKind::prod: f = 1; i = 1; break;
  case alg::ReductionKind::max:
    f = -HUGE_VAL; i = std::numeric_limits<int64_t>::min(); break;
  case alg::ReductionKind::min:
    f = HUGE_VAL; i = std::numeric_limits<int64_t>::max(); break;
  }
}

void Fold::add(alg::ReductionKind kind, const Scalar &v) {
  double before = f;
  switch (kind) {
  case alg::ReductionKind::sum: f += v.f; i += v.i; break;
  case alg::ReductionKind::prod: f *= v.f; i *= v.i; break;
  case alg::ReductionKind::max: f = nanMax(f, v.f); i = std::max(i, v.i); break;
  case alg::ReductionKind::min: f = nanMin(f, v.f); i = std::min(i, v.i); break;
  }
  excess.add(kind, v.f, v.excess, before, f);
  poison |= v.poison;
}

/// Advances a multi-index over `extents` in row-major order; false at the end.
static bool advance(MutableArrayRef<int64_t> index, ArrayRef<int64_t> extents) {
  for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
    if (++index[d] < extents[d])
      return true;
    index[d] = 0;
  }
  return false;
}

std::string Interpreter::runDefine(alg::DefineOp def) {
  SmallVector<int64_t> shape, reduced;
  for (Attribute d : def.getDims())
    shape.push_back(extent(d));
  if (def.getReduceDims())
    for (Attribute d : def.getReduceDimsAttr())
      reduced.push_back(extent(d));
  auto type = cast<RankedTensorType>(def.getResult().getType());
  auto dtype = dtypeOf(type.getElementType());
  std::vector<int64_t> shapeVec(shape.begin(), shape.end());
  if (!rt::shapeNumElements(shapeVec, rt::dtypeSize(*dtype)))
    return "integer overflow in sizes: '" + def.getName().str() +
           "' of shape " + rt::formatShape(shapeVec) + " is too large";
  rt::HostTensor out = rt::HostTensor::zeros(*dtype, shapeVec);

  Tape body, epilogue;
  if (std::string e = compile(def.getBody().front(), body); !e.empty())
    return e;
  bool hasEpilogue = !def.getEpilogue().empty();
  if (hasEpilogue)
    if (std::string e = compile(def.getEpilogue().front(), epilogue);
        !e.empty())
      return e;
  SmallVector<Scalar> bodySlots(body.numSlots), epilogueSlots(epilogue.numSlots);
  Kind bodyKind = kindOf(def.getBodyType());
  bool outFloat = rt::isFloat(*dtype);
  std::optional<alg::ReductionKind> kind = def.getKind();

  SmallVector<int64_t> point(shape.size() + reduced.size(), 0);
  MutableArrayRef<int64_t> par(point.data(), shape.size());
  MutableArrayRef<int64_t> red(point.data() + shape.size(), reduced.size());
  std::vector<double> excess; // sized once an element has one
  // An intermediate may hold elements that read out of range: they are an
  // error where they reach a result unguarded.
  bool isOutput = llvm::any_of(def.getResult().getUsers(), [](Operation *u) {
    return isa<alg::ReturnOp>(u);
  });
  PoisonedElements poison;
  for (size_t flat = 0, total = out.numElements(); flat < total; ++flat) {
    Scalar value;
    if (!kind) {
      if (std::string e = execute(body, bodySlots, point, std::nullopt, value,
                                  /*poisonIsError=*/false);
          !e.empty())
        return "in '" + def.getName().str() + "': " + e;
    } else {
      Fold acc(*kind);
      std::fill(red.begin(), red.end(), 0);
      do {
        Scalar v;
        if (std::string e = execute(body, bodySlots, point, std::nullopt, v,
                                    /*poisonIsError=*/false);
            !e.empty())
          return "in '" + def.getName().str() + "': " + e;
        acc.add(*kind, v);
      } while (advance(red, reduced));
      Scalar folded;
      folded.f = acc.f;
      folded.i = acc.i;
      folded.excess = acc.excess.finish(*kind, acc.f);
      folded = normalise(folded, bodyKind);
      folded.poison = acc.poison;
      if (hasEpilogue) {
        if (std::string e = execute(epilogue, epilogueSlots, par, folded, value,
                                    /*poisonIsError=*/false);
            !e.empty())
          return "in '" + def.getName().str() + "': " + e;
      } else {
        value = folded;
      }
    }
    if (value.poison) {
      std::string from =
          outOfRangeIn.empty() ? def.getName().str() : outOfRangeIn;
      if (isOutput)
        return "in '" + from + "': " + outOfRange;
      if (poison.elements.empty())
        poison = {std::vector<bool>(total, false), outOfRange, from};
      poison.elements[flat] = true;
    }
    if (outFloat)
      out.setFromDouble(flat, value.f);
    else
      out.setFromInt64(flat, value.i);
    if (outFloat && value.excess != 0) {
      excess.resize(total, 0.0);
      excess[flat] = value.excess;
    }
    advance(par, shape);
  }
  tensors[def.getResult()] = std::move(out);
  if (!excess.empty())
    excesses[def.getResult()] = std::move(excess);
  if (!poison.elements.empty())
    poisoned[def.getResult()] = std::move(poison);
  return "";
}

std::string Interpreter::runNested(const Tape::Inst &inst,
                                   ArrayRef<int64_t> dims, Scalar &result) {
  const Tape &body = *inst.nested;
  SmallVector<Scalar> slots(body.numSlots);
  SmallVector<int64_t> point(dims.begin(), dims.end());
  point.resize(dims.size() + inst.nestedExtents.size(), 0);
  MutableArrayRef<int64_t> reduced(point.data() + dims.size(),
                                   inst.nestedExtents.size());
  Fold acc(inst.nestedKind);
  if (llvm::all_of(inst.nestedExtents, [](int64_t e) { return e > 0; })) {
    do {
      Scalar v;
      if (std::string e = execute(body, slots, point, std::nullopt, v,
                                  /*poisonIsError=*/false);
          !e.empty())
        return e;
      acc.add(inst.nestedKind, v);
    } while (advance(reduced, inst.nestedExtents));
  }
  result.f = acc.f;
  result.i = acc.i;
  result.excess = acc.excess.finish(inst.nestedKind, acc.f);
  result.poison = acc.poison;
  return "";
}

/// A leader at its identity (no finite term yet) reads as 0 (see
/// alg.online_reduce).
static double safeLeader(double v) { return std::isinf(v) ? 0.0 : v; }

std::string Interpreter::streamElement(alg::OnlineReduceOp stream,
                                       const Tape &body, ArrayRef<Tape> repairs,
                                       MutableArrayRef<int64_t> point,
                                       int64_t extent,
                                       SmallVectorImpl<double> &acc) {
  unsigned rank = stream.getRank(), count = acc.size();
  SmallVector<unsigned> leaders = stream.getLeaders();
  SmallVector<Scalar> slots(body.numSlots);
  for (unsigned i = 0; i < count; ++i)
    acc[i] = Fold(stream.getAccumulatorKind(i)).f;
  for (int64_t k = 0; k < extent; ++k) {
    point[rank] = k;
    // The leaders' terms read no leader: any value will do for them.
    for (unsigned j = 0; j < leaders.size(); ++j)
      slots[rank + 1 + j].f = safeLeader(acc[leaders[j]]);
    Scalar first;
    if (std::string e = execute(body, slots, point, std::nullopt, first);
        !e.empty())
      return e;
    SmallVector<double> oldSafe, newSafe;
    for (unsigned j = 0; j < leaders.size(); ++j) {
      if (stream.isMean(leaders[j])) {
        // The running mean of the k terms before this one (0 before any).
        double old = acc[leaders[j]];
        double next = old + (slots[body.yields[leaders[j]]].f - old) / (k + 1);
        oldSafe.push_back(old);
        newSafe.push_back(next);
        acc[leaders[j]] = next;
        slots[rank + 1 + j].f = next;
        continue;
      }
      Fold fold(stream.getAccumulatorKind(leaders[j]));
      fold.f = acc[leaders[j]];
      fold.add(stream.getAccumulatorKind(leaders[j]),
               slots[body.yields[leaders[j]]]);
      newSafe.push_back(safeLeader(fold.f));
      // A repair from the identity is 1: no term has read that leader yet.
      oldSafe.push_back(std::isinf(acc[leaders[j]]) ? newSafe.back()
                                                    : acc[leaders[j]]);
      acc[leaders[j]] = fold.f;
      slots[rank + 1 + j].f = newSafe.back();
    }
    if (std::string e = execute(body, slots, point, std::nullopt, first);
        !e.empty())
      return e;
    // A max's or min's repairs multiply the partial sums; a mean's add to
    // them (its repair also takes the count of points before).
    SmallVector<double> factor(count, 1.0), addend(count, 0.0);
    for (unsigned j = 0; j < leaders.size(); ++j) {
      bool mean = stream.isMean(leaders[j]);
      SmallVector<Scalar> repairSlots(repairs[j].numSlots);
      repairSlots[0].f = oldSafe[j];
      repairSlots[1].f = newSafe[j];
      if (mean)
        repairSlots[2].f = double(k);
      Scalar unused;
      if (std::string e =
              execute(repairs[j], repairSlots, {}, std::nullopt, unused);
          !e.empty())
        return e;
      unsigned f = 0;
      for (unsigned i = 0; i < count; ++i) {
        if (stream.isLeader(i))
          continue;
        double repair = repairSlots[repairs[j].yields[f++]].f;
        if (mean)
          addend[i] += repair;
        else
          factor[i] *= repair;
      }
    }
    for (unsigned i = 0; i < count; ++i) {
      if (stream.isLeader(i))
        continue;
      acc[i] = acc[i] * factor[i] + addend[i] + slots[body.yields[i]].f;
    }
  }
  return "";
}

std::string Interpreter::runStream(alg::OnlineReduceOp stream) {
  std::string where = "in '" + stream.getName().str() + "': ";
  SmallVector<int64_t> shape;
  for (Attribute d : stream.getDims())
    shape.push_back(extent(d));
  int64_t length = extent(stream.getOver()[0]);
  auto type = cast<RankedTensorType>(stream.getResult().getType());
  std::vector<int64_t> shapeVec(shape.begin(), shape.end());
  auto dtype = dtypeOf(type.getElementType());
  if (!rt::shapeNumElements(shapeVec, rt::dtypeSize(*dtype)))
    return where + "its shape is too large";
  rt::HostTensor out = rt::HostTensor::zeros(*dtype, shapeVec);
  // The values the stream stores beside its result, each over its part of
  // the domain (`along`).
  std::vector<rt::HostTensor> exported;
  SmallVector<SmallVector<unsigned>> along;
  for (auto [i, e] : llvm::enumerate(stream.getExported())) {
    along.push_back(stream.getExportDimPositions(i));
    std::vector<int64_t> kept;
    for (unsigned p : along.back())
      kept.push_back(shape[p]);
    exported.push_back(rt::HostTensor::zeros(
        *dtypeOf(cast<RankedTensorType>(e.getType()).getElementType()), kept));
  }
  Tape body, epilogue;
  std::vector<Tape> repairs(stream.getRepairs().size());
  if (std::string e = compile(stream.getBody().front(), body); !e.empty())
    return where + e;
  if (std::string e = compile(stream.getEpilogue().front(), epilogue);
      !e.empty())
    return where + e;
  for (auto [tape, region] : llvm::zip(repairs, stream.getRepairs()))
    if (std::string e = compile(region.front(), tape); !e.empty())
      return where + e;
  unsigned rank = stream.getRank(), count = stream.getAccumulators().size();
  Kind accKind = kindOf(stream.getAccumulatorType());
  SmallVector<int64_t> point(rank + 1, 0);
  SmallVector<Scalar> epilogueSlots(epilogue.numSlots);
  SmallVector<double> acc(count);
  for (size_t flat = 0, total = out.numElements(); flat < total; ++flat) {
    if (std::string e = streamElement(stream, body, repairs, point, length, acc);
        !e.empty())
      return where + e;
    for (unsigned i = 0; i < count; ++i) {
      Scalar a;
      a.f = acc[i];
      epilogueSlots[rank + i] = normalise(a, accKind);
    }
    Scalar value;
    ArrayRef<int64_t> par(point.data(), rank);
    if (std::string e =
            execute(epilogue, epilogueSlots, par, std::nullopt, value);
        !e.empty())
      return where + e;
    if (rt::isFloat(*dtype))
      out.setFromDouble(flat, value.f);
    else
      out.setFromInt64(flat, value.i);
    for (auto [e, tensor] : llvm::enumerate(exported)) {
      int64_t at = 0;
      for (unsigned p : along[e])
        at = at * shape[p] + point[p];
      tensor.setFromDouble(at, epilogueSlots[epilogue.yields[1 + e]].f);
    }
    advance(MutableArrayRef<int64_t>(point.data(), rank), shape);
  }
  tensors[stream.getResult()] = std::move(out);
  for (auto [value, tensor] : llvm::zip(stream.getExported(), exported))
    tensors[value] = std::move(tensor);
  return "";
}

std::string Interpreter::evalCondition(Value v, bool &result) {
  // A require condition: arith over alg.size at the kernel level. Evaluate
  // its defining ops recursively.
  std::function<std::optional<int64_t>(Value)> eval =
      [&](Value x) -> std::optional<int64_t> {
    Operation *op = x.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto size = dyn_cast<alg::SizeOp>(op))
      return sizes->at(size.getName().str());
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return x.getType().isInteger(1) ? int64_t(i.getValue().getBoolValue())
                                        : i.getValue().getSExtValue();
    SmallVector<int64_t> in;
    for (Value operand : op->getOperands()) {
      auto value = eval(operand);
      if (!value)
        return std::nullopt;
      in.push_back(*value);
    }
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
        .Case<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(
            [&](auto) { return in[0]; })
        .Case<arith::AddIOp>([&](auto) { return in[0] + in[1]; })
        .Case<arith::SubIOp>([&](auto) { return in[0] - in[1]; })
        .Case<arith::MulIOp>([&](auto) { return in[0] * in[1]; })
        .Case<arith::FloorDivSIOp>([&](auto) -> std::optional<int64_t> {
          if (in[1] == 0) return std::nullopt;
          return floorDiv(in[0], in[1]);
        })
        .Case<arith::RemSIOp>([&](auto) -> std::optional<int64_t> {
          if (in[1] == 0) return std::nullopt;
          return in[0] % in[1];
        })
        .Case<arith::AndIOp>([&](auto) { return in[0] & in[1]; })
        .Case<arith::OrIOp>([&](auto) { return in[0] | in[1]; })
        .Case<arith::XOrIOp>([&](auto) { return in[0] ^ in[1]; })
        .Case<arith::SelectOp>([&](auto) { return in[0] ? in[1] : in[2]; })
        .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
          return int64_t(compareI(c.getPredicate(), in[0], in[1]));
        })
        .Default([&](Operation *) { return std::nullopt; });
  };
  auto value = eval(v);
  if (!value)
    return "cannot evaluate the condition (division by zero?)";
  result = *value != 0;
  return "";
}

std::string Interpreter::run(const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs,
                             std::vector<std::vector<double>> *outputExcesses) {
  if (std::string e = checkRequirements(kernel, *sizes); !e.empty())
    return e;
  unsigned next = 0;
  for (Operation &op : kernel.getBody().front()) {
    if (auto input = dyn_cast<alg::InputOp>(op)) {
      if (next >= inputs.size())
        return "kernel '" + kernel.getSymName().str() + "' takes more inputs";
      const rt::HostTensor &t = inputs[next++];
      if (isa<RankedTensorType>(input.getType())) {
        tensors[input.getResult()] = t;
      } else {
        Scalar s;
        if (rt::isFloat(t.dtype()))
          s.f = t.getAsDouble(0);
        else
          s.i = t.getAsInt64(0);
        scalars[input.getResult()] = s;
      }
      continue;
    }
    if (auto def = dyn_cast<alg::DefineOp>(op))
      if (std::string e = runDefine(def); !e.empty())
        return e;
    if (auto stream = dyn_cast<alg::OnlineReduceOp>(op))
      if (std::string e = runStream(stream); !e.empty())
        return e;
  }
  outputs.clear();
  if (outputExcesses)
    outputExcesses->clear();
  for (Value out : kernel.getReturn().getOutputs()) {
    outputs.push_back(tensors[out]);
    if (outputExcesses)
      outputExcesses->push_back(excesses.lookup(out));
  }
  return "";
}

std::string nautilus::checkRequirements(alg::KernelOp kernel,
                                        const SizeValues &sizes) {
  Interpreter interp(kernel, sizes);
  for (auto require : kernel.getBody().getOps<alg::RequireOp>()) {
    bool holds = false;
    if (std::string e = interp.evalCondition(require.getCondition(), holds);
        !e.empty())
      return "require " + require.getMessage().str() + ": " + e;
    if (holds)
      continue;
    return rt::requirementFailure(require.getMessage().str(), sizes);
  }
  return "";
}

std::string
nautilus::interpretKernel(alg::KernelOp kernel, const SizeValues &sizes,
                          const std::vector<rt::HostTensor> &inputs,
                          std::vector<rt::HostTensor> &outputs,
                          std::vector<std::vector<double>> *outputExcesses) {
  return Interpreter(kernel, sizes).run(inputs, outputs, outputExcesses);
}
