//===- InlinePtx.cpp - Inline PTX that the emulator understands -----------===//
#include "runtime/emulator/InlinePtx.h"
#include "runtime/emulator/EmulatorState.h"
#include "runtime/emulator/HostModule.h"
#include "runtime/emulator/WgmmaLanding.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace nautilus::emu::detail;

namespace {

/// `$N` as an operand number.
std::optional<unsigned> operandNumber(StringRef token) {
  token = token.trim();
  unsigned n;
  if (!token.consume_front("$") || token.getAsInteger(10, n))
    return std::nullopt;
  return n;
}

/// The operand list `{ $0, $1 }` or `$0` as numbers.
std::optional<SmallVector<unsigned>> operandList(StringRef text) {
  text = text.trim();
  if (text.consume_front("{") && !text.consume_back("}"))
    return std::nullopt;
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  SmallVector<unsigned> numbers;
  for (StringRef p : parts) {
    auto n = operandNumber(p);
    if (!n)
      return std::nullopt;
    numbers.push_back(*n);
  }
  return numbers;
}

/// `[ $N + OFFSET ]` as {operand, byte offset}.
std::optional<std::pair<unsigned, int64_t>> addressOperand(StringRef text) {
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return std::nullopt;
  auto [reg, offset] = text.split('+');
  auto n = operandNumber(reg);
  int64_t bytes = 0;
  if (!n || (!offset.trim().empty() && offset.trim().getAsInteger(0, bytes)))
    return std::nullopt;
  return std::make_pair(*n, bytes);
}

/// The element width and vector length of a `ld`/`st` type suffix list,
/// e.g. ["global", "L1::evict_last", "v4", "b32"].
std::optional<std::pair<unsigned, unsigned>> accessShape(StringRef opcode) {
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  unsigned width = 0, lanes = 1;
  for (StringRef p : ArrayRef<StringRef>(parts).drop_front()) {
    if (p == "v2") lanes = 2;
    else if (p == "v4") lanes = 4;
    else if (p.size() >= 2 && (p[0] == 'b' || p[0] == 'u' || p[0] == 's' ||
                               p[0] == 'f') &&
             !p.drop_front().getAsInteger(10, width)) {
    }
  }
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return std::nullopt;
  return std::make_pair(width, lanes);
}

} // namespace

/// `mma.sync.aligned.m16n8k{16,8}.row.col.f32.{f16,bf16}.{f16,bf16}.f32
/// {d...}, {a...}, {b...}, {c...}`, handed to the runtime's mma.
static bool translateMma(CallInst *call, StringRef opcode, StringRef operands) {
  std::optional<MmaKind> kind;
  if (opcode == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
    kind = M16N8K16F16;
  else if (opcode == "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    kind = M16N8K16BF16;
  else if (opcode == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")
    kind = M16N8K8F16;
  else if (opcode == "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")
    kind = M16N8K8BF16;
  else if (opcode == "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
    kind = M16N8K8TF32;
  else
    return false;
  // Four brace groups: d, a, b, c.
  SmallVector<SmallVector<unsigned>> groups;
  while (!operands.trim().empty()) {
    operands = operands.trim();
    size_t close = operands.find('}');
    if (!operands.starts_with("{") || close == StringRef::npos)
      return false;
    auto list = operandList(operands.take_front(close + 1));
    if (!list)
      return false;
    groups.push_back(*list);
    operands = operands.drop_front(close + 1).ltrim().ltrim(',');
  }
  bool k16 = *kind == M16N8K16F16 || *kind == M16N8K16BF16;
  bool tf32 = *kind == M16N8K8TF32;
  unsigned aRegs = k16 || tf32 ? 4 : 2, bRegs = k16 || tf32 ? 2 : 1;
  if (groups.size() != 4 || groups[0].size() != 4 ||
      groups[1].size() != aRegs || groups[2].size() != bRegs ||
      groups[3].size() != 4)
    return false;
  auto *result = dyn_cast<StructType>(call->getType());
  if (!result || result->getNumElements() != 4)
    return false;
  // The four outputs are operands 0-3, so the call's arguments start at 4.
  SmallVector<Value *> registers;
  for (unsigned g = 1; g < 4; ++g)
    for (unsigned n : groups[g]) {
      if (n < 4 || n - 4 >= call->arg_size())
        return false;
      registers.push_back(call->getArgOperand(n - 4));
    }
  emitEmulatedMma(call, *kind, registers);
  return true;
}

namespace {

/// Translates the statements of one inline-asm call, in order, keeping the
/// value of each operand ($N) and of the registers the PTX declares.
class StatementTranslator {
public:
  StatementTranslator(CallInst *call) : call(call), b(call) {}

  /// Returns false if some statement is not understood.
  bool run(bool &collective);

private:
  CallInst *call;
  IRBuilder<> b;
  unsigned outputs = 0;
  SmallVector<Type *> outputTypes;
  SmallVector<Value *> value;
  StringMap<Value *> registers; // declared with .reg
  bool collectiveSeen = false;

  Module &module() { return *call->getModule(); }
  LLVMContext &ctx() { return call->getContext(); }
  Type *generic() { return PointerType::get(ctx(), 0); }

  FunctionCallee runtime(StringRef name, Type *result, ArrayRef<Type *> args) {
    return module().getOrInsertFunction(name,
                                        FunctionType::get(result, args, false));
  }

  /// `$N`, a declared register, or an integer literal.
  Value *operand(StringRef token) {
    token = token.trim();
    if (auto n = operandNumber(token))
      return *n < value.size() ? value[*n] : nullptr;
    if (Value *reg = registers.lookup(token))
      return reg;
    int64_t imm;
    if (!token.getAsInteger(0, imm))
      return b.getInt32(static_cast<int32_t>(imm));
    return nullptr;
  }

  /// A shared-memory address operand `[x]` (a shared pointer, or its offset
  /// as an integer) as a host pointer.
  Value *sharedAddress(StringRef text) {
    text = text.trim();
    if (!text.consume_front("[") || !text.consume_back("]"))
      return nullptr;
    Value *v = operand(text);
    if (!v)
      return nullptr;
    if (v->getType()->isPointerTy())
      return b.CreateAddrSpaceCast(v, generic());
    auto shared = runtime("__nautilus_emu_shared", generic(), {b.getInt64Ty()});
    return b.CreateCall(shared, {b.CreateZExtOrTrunc(v, b.getInt64Ty())});
  }

  /// A generic address operand (a pointer or a 64-bit integer).
  Value *genericAddress(StringRef text) {
    Value *v = operand(text);
    if (!v)
      return nullptr;
    return v->getType()->isPointerTy() ? b.CreateAddrSpaceCast(v, generic())
                                       : b.CreateIntToPtr(v, generic());
  }

  /// Emits `emit` under `predicate` (if any) and continues after it.
  void guarded(Value *predicate, function_ref<void(IRBuilder<> &)> emit) {
    if (!predicate) {
      emit(b);
      return;
    }
    Instruction *then = SplitBlockAndInsertIfThen(predicate, call->getIterator(),
                                                  /*Unreachable=*/false);
    IRBuilder<> inner(then);
    emit(inner);
    b.SetInsertPoint(call);
  }

  bool translateStatement(StringRef stmt);
  bool translateGlobalAccess(StringRef opcode, StringRef operands,
                             Value *predicate);
  bool translateMBarrier(StringRef opcode, StringRef operands, Value *predicate);
  bool translateBulkTensor(StringRef opcode, StringRef operands,
                           Value *predicate);
  bool translateWgmma(StringRef opcode, StringRef operands);
  bool translateCpAsync(StringRef opcode, StringRef operands, Value *predicate);
};

/// Splits `text` at top-level commas (not inside braces or brackets).
SmallVector<StringRef> splitOperands(StringRef text) {
  SmallVector<StringRef> parts;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(text.slice(begin, i).trim());
      begin = i + 1;
    }
  }
  if (!text.drop_front(begin).trim().empty())
    parts.push_back(text.drop_front(begin).trim());
  return parts;
}

} // namespace

bool StatementTranslator::translateGlobalAccess(StringRef opcode,
                                                StringRef operands,
                                                Value *predicate) {
  bool isLoad = opcode.starts_with("ld.global");
  auto shape = accessShape(opcode);
  if (!shape)
    return false;
  auto [width, lanes] = *shape;
  Type *element = IntegerType::get(ctx(), width);
  // ld: "{ $0, ... }, [ $a + off ]"; st: "[ $a + off ], { $v, ... }".
  size_t bracket = operands.find('[');
  size_t close = operands.find(']');
  if (bracket == StringRef::npos || close == StringRef::npos)
    return false;
  auto address = addressOperand(operands.slice(bracket, close + 1));
  StringRef regs = isLoad ? operands.take_front(bracket).rtrim().rtrim(',')
                          : operands.drop_front(close + 1).ltrim().ltrim(',');
  auto list = operandList(regs);
  if (!address || !list || list->size() != lanes ||
      address->first >= value.size())
    return false;
  // A predicated access is checked here, by a runtime call that only checks
  // (and returns the address) when the predicate holds, and otherwise
  // returns a quarantine; the access is then marked as checked.
  FunctionCallee checkIf = runtime(
      "__nautilus_emu_access_if", generic(),
      {b.getInt1Ty(), generic(), b.getInt64Ty(), b.getInt32Ty()});
  Value *pointer = b.CreateGEP(b.getInt8Ty(), value[address->first],
                               b.getInt64(address->second));
  Value *target = pointer;
  if (predicate)
    target = b.CreateCall(
        checkIf, {predicate, b.CreateAddrSpaceCast(pointer, generic()),
                  b.getInt64(width / 8 * lanes), b.getInt32(!isLoad)});
  MDNode *checked = MDNode::get(ctx(), {});
  for (unsigned l = 0; l < lanes; ++l) {
    Value *at = b.CreateGEP(element, target, b.getInt64(l));
    unsigned reg = (*list)[l];
    if (reg >= value.size())
      return false;
    Instruction *access;
    if (isLoad) {
      if (reg >= outputs)
        return false;
      auto *load = b.CreateLoad(element, at);
      access = load;
      Value *loaded = b.CreateBitOrPointerCast(load, outputTypes[reg]);
      value[reg] =
          predicate ? b.CreateSelect(predicate, loaded, value[reg]) : loaded;
    } else {
      access = b.CreateStore(b.CreateBitOrPointerCast(value[reg], element), at);
    }
    if (predicate)
      access->setMetadata("nautilus.checked", checked);
  }
  return true;
}

/// mbarrier.init / inval / arrive(.expect_tx) / expect_tx / complete_tx on
/// a shared::cta barrier (try_wait loops are handled as a whole).
bool StatementTranslator::translateMBarrier(StringRef opcode, StringRef operands,
                                            Value *predicate) {
  SmallVector<StringRef> args = splitOperands(operands);
  Type *i32 = b.getInt32Ty(), *voidTy = b.getVoidTy();
  if (opcode.starts_with("mbarrier.inval"))
    return true; // a later init starts afresh
  if (opcode.starts_with("mbarrier.init")) {
    Value *address = args.size() == 2 ? sharedAddress(args[0]) : nullptr;
    Value *count = args.size() == 2 ? operand(args[1]) : nullptr;
    if (!address || !count)
      return false;
    auto init = runtime("__nautilus_emu_mbarrier_init", voidTy, {generic(), i32});
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(init, {address, at.CreateZExtOrTrunc(count, i32)});
    });
    return true;
  }
  bool expectTx = opcode.contains(".expect_tx");
  if (opcode.starts_with("mbarrier.arrive")) {
    // mbarrier.arrive{.expect_tx}.shared{::cta}.b64 state, [addr]{, n}
    if (args.size() < 2 || args.size() > 3 || args[0] != "_" ||
        opcode.contains(".release.cluster") || opcode.contains("::cluster"))
      return false;
    Value *address = sharedAddress(args[1]);
    Value *extra = args.size() == 3 ? operand(args[2]) : nullptr;
    if (!address || (args.size() == 3 && !extra))
      return false;
    Value *count = b.getInt32(1), *tx = b.getInt32(0);
    if (extra && expectTx)
      tx = b.CreateZExtOrTrunc(extra, i32);
    else if (extra)
      count = b.CreateZExtOrTrunc(extra, i32);
    auto arrive = runtime("__nautilus_emu_mbarrier_arrive", b.getInt64Ty(),
                          {generic(), i32, i32, i32});
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(arrive, {address, count, tx, at.getInt32(0)});
    });
    return true;
  }
  if (opcode.starts_with("mbarrier.expect_tx") ||
      opcode.starts_with("mbarrier.complete_tx")) {
    Value *address = args.size() == 2 ? sharedAddress(args[0]) : nullptr;
    Value *bytes = args.size() == 2 ? operand(args[1]) : nullptr;
    if (!address || !bytes)
      return false;
    auto tx = runtime("__nautilus_emu_mbarrier_tx", voidTy, {generic(), i32});
    guarded(predicate, [&](IRBuilder<> &at) {
      Value *n = at.CreateZExtOrTrunc(bytes, i32);
      if (opcode.starts_with("mbarrier.complete_tx"))
        n = at.CreateNeg(n);
      at.CreateCall(tx, {address, n});
    });
    return true;
  }
  return false;
}

/// cp.async.bulk.tensor.Nd loads (shared::cta or shared::cluster
/// destination, completing on an mbarrier) and stores (bulk_group).
bool StatementTranslator::translateBulkTensor(StringRef opcode,
                                              StringRef operands,
                                              Value *predicate) {
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  // cp.async.bulk.tensor.<N>d.<dst>.<src>[.tile].<completion>
  if (parts.size() < 7 || parts[4].size() != 2 || parts[4][1] != 'd')
    return false;
  int rank = parts[4][0] - '0';
  if (rank < 1 || rank > 5)
    return false;
  bool load = parts[5].starts_with("shared::") && parts[6] == "global";
  bool store = parts[5] == "global" && parts[6] == "shared::cta";
  if ((!load && !store) || opcode.contains("multicast") ||
      opcode.contains("im2col") || opcode.contains("L2::cache_hint"))
    return false;
  if (load && !opcode.ends_with("mbarrier::complete_tx::bytes"))
    return false;
  if (store && !opcode.ends_with("bulk_group"))
    return false;
  SmallVector<StringRef> args = splitOperands(operands);
  // The tensor operand: [map, {c0, ..}].
  StringRef tensor = load ? (args.size() == 3 ? args[1] : "")
                          : (args.size() == 2 ? args[0] : "");
  if (!tensor.consume_front("[") || !tensor.consume_back("]"))
    return false;
  SmallVector<StringRef> mapAndCoordinates = splitOperands(tensor);
  if (mapAndCoordinates.size() != 2)
    return false;
  Value *map = genericAddress(mapAndCoordinates[0]);
  auto list = StringRef(mapAndCoordinates[1]).trim();
  if (!map || !list.consume_front("{") || !list.consume_back("}"))
    return false;
  SmallVector<StringRef> coordinateTokens = splitOperands(list);
  if (coordinateTokens.size() != size_t(rank))
    return false;
  IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
  Value *coordinates = entry.CreateAlloca(ArrayType::get(b.getInt32Ty(), 5));
  for (auto [i, token] : llvm::enumerate(coordinateTokens)) {
    Value *c = operand(token);
    if (!c)
      return false;
    b.CreateStore(b.CreateZExtOrTrunc(c, b.getInt32Ty()),
                  b.CreateConstGEP1_32(b.getInt32Ty(), coordinates, i));
  }
  Type *voidTy = b.getVoidTy(), *i32 = b.getInt32Ty();
  if (load) {
    Value *destination = sharedAddress(args[0]);
    Value *mbarrier = sharedAddress(args[2]);
    if (!destination || !mbarrier)
      return false;
    auto tma = runtime("__nautilus_emu_tma_load", voidTy,
                       {generic(), generic(), i32, generic(), generic()});
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(tma, {destination, map, at.getInt32(rank), coordinates,
                          mbarrier});
    });
  } else {
    Value *source = sharedAddress(args[1]);
    if (!source)
      return false;
    auto tma = runtime("__nautilus_emu_tma_store", voidTy,
                       {generic(), i32, generic(), generic()});
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(tma, {map, at.getInt32(rank), coordinates, source});
    });
  }
  return true;
}

/// wgmma.mma_async.sync.aligned.m64nNkK.<d>.<a>.<b> {d..}, a-desc or {a..},
/// b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-a][, imm-trans-b].
bool StatementTranslator::translateWgmma(StringRef opcode, StringRef operands) {
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  if (parts.size() != 8)
    return false;
  unsigned n = 0;
  StringRef shape = parts[4];
  if (!shape.consume_front("m64n"))
    return false;
  auto [nText, kText] = shape.split('k');
  if (nText.getAsInteger(10, n) || n % 8 != 0 || n == 0 || n > 256)
    return false;
  int32_t type;
  if (parts[6] == "f16" && parts[7] == "f16" && kText == "16")
    type = WgmmaF16;
  else if (parts[6] == "bf16" && parts[7] == "bf16" && kText == "16")
    type = WgmmaBF16;
  else if (parts[6] == "tf32" && parts[7] == "tf32" && kText == "8")
    type = WgmmaTF32;
  else
    return false;
  bool halfAccumulator = parts[5] == "f16";
  if (!halfAccumulator && parts[5] != "f32")
    return false;
  if (halfAccumulator && type != WgmmaF16)
    return false;
  SmallVector<StringRef> args = splitOperands(operands);
  bool registerA = args.size() > 1 && args[1].starts_with("{");
  size_t expected = type == WgmmaTF32 ? 6 : (registerA ? 7 : 8);
  if (args.size() != expected)
    return false;
  auto d = operandList(args[0]);
  unsigned dRegs = halfAccumulator ? n / 4 : n / 2;
  if (!d || d->size() != dRegs)
    return false;
  for (unsigned reg : *d)
    if (reg >= outputs)
      return false;
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
  AllocaInst *accumulator = entry.CreateAlloca(ArrayType::get(i32, dRegs));
  markWgmmaAccumulator(accumulator);
  int32_t site = newWgmmaSite(*call->getFunction());
  for (auto [i, reg] : llvm::enumerate(*d))
    b.CreateStore(b.CreateBitCast(value[reg], i32),
                  b.CreateConstGEP1_32(i32, accumulator, i));
  Value *registersA = ConstantPointerNull::get(PointerType::get(ctx(), 0));
  Value *descriptorA = b.getInt64(0);
  if (registerA) {
    if (type == WgmmaTF32)
      return false;
    auto a = operandList(args[1]);
    if (!a || a->size() != 4)
      return false;
    registersA = entry.CreateAlloca(ArrayType::get(i32, 4));
    for (auto [i, reg] : llvm::enumerate(*a)) {
      if (reg >= value.size())
        return false;
      b.CreateStore(b.CreateBitCast(value[reg], i32),
                    b.CreateConstGEP1_32(i32, registersA, i));
    }
  } else {
    Value *v = operand(args[1]);
    if (!v || !v->getType()->isIntegerTy(64))
      return false;
    descriptorA = v;
  }
  Value *descriptorB = operand(args[2]);
  Value *scaleD = operand(args[3]);
  if (!descriptorB || !descriptorB->getType()->isIntegerTy(64) || !scaleD)
    return false;
  // The immediates: scale-a, scale-b (1 or -1), then the transposes.
  int32_t flags = 0;
  for (size_t i = 4; i < args.size(); ++i) {
    // A literal, or an operand bound to a constant ("n" constraint).
    auto *constant = dyn_cast_or_null<ConstantInt>(operand(args[i]));
    if (!constant)
      return false;
    int64_t imm = constant->getSExtValue();
    size_t which = i - 4;
    if (which < 2) {
      if (imm != 1 && imm != -1)
        return false;
      if (imm == -1)
        flags |= which == 0 ? WgmmaNegateA : WgmmaNegateB;
    } else if (imm == 1) {
      bool isA = !registerA && which == 2;
      flags |= isA ? WgmmaTransposeA : WgmmaTransposeB;
    } else if (imm != 0) {
      return false;
    }
  }
  auto wgmma =
      runtime("__nautilus_emu_wgmma", b.getVoidTy(),
              {i32, i32, i32, i64, generic(), i64, generic(), i32, i32, i32});
  b.CreateCall(wgmma, {b.getInt32(type), b.getInt32(n),
                       b.getInt32(halfAccumulator), descriptorA, registersA,
                       descriptorB, accumulator,
                       b.CreateZExtOrTrunc(scaleD, i32), b.getInt32(flags),
                       b.getInt32(site)});
  // The results are the registers' once the group lands (WgmmaLanding.h).
  for (auto [i, reg] : llvm::enumerate(*d)) {
    LoadInst *result =
        b.CreateLoad(i32, b.CreateConstGEP1_32(i32, accumulator, i));
    markWgmmaResult(result, site);
    value[reg] = b.CreateBitCast(result, outputTypes[reg]);
  }
  collectiveSeen |= registerA; // register A is gathered with shuffles
  return true;
}

/// cp.async.{ca,cg}.shared{::cta}.global [dst + off], [src + off], size{,
/// source size} and the group operations, as the cp.async intrinsics.
bool StatementTranslator::translateCpAsync(StringRef opcode, StringRef operands,
                                           Value *predicate) {
  Type *voidTy = b.getVoidTy(), *i32 = b.getInt32Ty();
  if (opcode == "cp.async.commit_group" || opcode == "cp.async.wait_all") {
    auto f = runtime(opcode == "cp.async.wait_all"
                         ? "__nautilus_emu_cp_async_wait_all"
                         : "__nautilus_emu_cp_async_commit",
                     voidTy, {});
    guarded(predicate, [&](IRBuilder<> &at) { at.CreateCall(f); });
    return true;
  }
  if (opcode == "cp.async.wait_group") {
    Value *n = operand(operands);
    if (!n || !isa<ConstantInt>(n))
      return false;
    auto f = runtime("__nautilus_emu_cp_async_wait", voidTy, {i32});
    guarded(predicate, [&](IRBuilder<> &at) { at.CreateCall(f, {n}); });
    return true;
  }
  if (!opcode.starts_with("cp.async.ca.shared") &&
      !opcode.starts_with("cp.async.cg.shared"))
    return false;
  SmallVector<StringRef> args = splitOperands(operands);
  if (args.size() != 3 && args.size() != 4)
    return false;
  auto dst = addressOperand(args[0]), src = addressOperand(args[1]);
  Value *size = operand(args[2]);
  if (!dst || !src || !size || !isa<ConstantInt>(size) ||
      dst->first >= value.size() || src->first >= value.size())
    return false;
  int64_t bytes = cast<ConstantInt>(size)->getSExtValue();
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return false;
  Value *sourceBytes = args.size() == 4 ? operand(args[3]) : b.getInt32(bytes);
  if (!sourceBytes)
    return false;
  Value *destination = sharedAddress("[$" + std::to_string(dst->first) + "]");
  destination = b.CreateGEP(b.getInt8Ty(), destination, b.getInt64(dst->second));
  Value *source = genericAddress("$" + std::to_string(src->first));
  source = b.CreateGEP(b.getInt8Ty(), source, b.getInt64(src->second));
  auto copy = runtime("__nautilus_emu_cp_async", voidTy,
                      {generic(), generic(), i32, i32});
  guarded(predicate, [&](IRBuilder<> &at) {
    at.CreateCall(copy, {destination, source, at.getInt32(bytes),
                         at.CreateZExtOrTrunc(sourceBytes, i32)});
  });
  return true;
}

bool StatementTranslator::translateStatement(StringRef stmt) {
  stmt = stmt.trim();
  // Scope braces open or close a statement ({ .reg ...; ...; }).
  while (stmt.consume_front("{") || stmt.consume_front("}"))
    stmt = stmt.trim();
  if (stmt.empty())
    return true;
  // A register declaration: `.reg .pred p` or `.reg .b32 r0, r1`.
  if (stmt.consume_front(".reg")) {
    auto [type, names] = stmt.trim().split(' ');
    SmallVector<StringRef> list;
    names.split(list, ',');
    for (StringRef name : list)
      registers[name.trim()] = type == ".pred"
                                   ? static_cast<Value *>(b.getFalse())
                                   : static_cast<Value *>(b.getInt32(0));
    return true;
  }
  // An optional predicate `@$N`, `@!$N` or `@p`.
  Value *predicate = nullptr;
  if (stmt.consume_front("@")) {
    bool negate = stmt.consume_front("!");
    auto [reg, rest] = stmt.split(' ');
    predicate = operand(reg);
    if (!predicate || !predicate->getType()->isIntegerTy(1))
      return false;
    if (negate)
      predicate = b.CreateNot(predicate);
    stmt = rest.trim();
  }
  auto [opcode, operands] = stmt.split(' ');
  operands = operands.trim();
  // fence.proxy.async makes the thread's shared stores visible to the
  // async proxy (checkAsyncProxyRead); wgmma.fence allows the next wgmma
  // (__nautilus_emu_wgmma).
  if (opcode.starts_with("fence.proxy.async")) {
    auto f = runtime("__nautilus_emu_proxy_fence", b.getVoidTy(), {});
    // Over shared memory (or every space), it publishes the thread's
    // mbarrier inits to the async proxy too.
    auto inits =
        runtime("__nautilus_emu_mbarrier_init_fence", b.getVoidTy(), {});
    bool shared = !opcode.contains(".global");
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(f);
      if (shared)
        at.CreateCall(inits);
    });
    return true;
  }
  if (opcode.starts_with("fence.mbarrier_init")) {
    auto f = runtime("__nautilus_emu_mbarrier_init_fence", b.getVoidTy(), {});
    guarded(predicate, [&](IRBuilder<> &at) { at.CreateCall(f); });
    return true;
  }
  if (opcode == "wgmma.fence.sync.aligned") {
    auto f = runtime("__nautilus_emu_wgmma_fence", b.getVoidTy(), {});
    guarded(predicate, [&](IRBuilder<> &at) { at.CreateCall(f); });
    return true;
  }
  // wgmma and TMA store groups: they compute when issued; committing and
  // retiring them ends the reads the async hazard checks track.
  if (opcode == "wgmma.commit_group.sync.aligned" ||
      opcode == "cp.async.bulk.commit_group") {
    auto f = runtime(opcode.starts_with("wgmma") ? "__nautilus_emu_wgmma_commit"
                                                 : "__nautilus_emu_bulk_commit",
                     b.getVoidTy(), {});
    guarded(predicate, [&](IRBuilder<> &at) { at.CreateCall(f); });
    return true;
  }
  if (opcode == "wgmma.wait_group.sync.aligned" ||
      opcode.starts_with("cp.async.bulk.wait_group")) {
    Value *n = operand(operands);
    if (!n || !isa<ConstantInt>(n))
      return false;
    auto f = runtime(opcode.starts_with("wgmma") ? "__nautilus_emu_wgmma_wait"
                                                 : "__nautilus_emu_bulk_wait",
                     b.getVoidTy(), {b.getInt32Ty()});
    guarded(predicate, [&](IRBuilder<> &at) {
      at.CreateCall(f, {at.CreateIntCast(n, at.getInt32Ty(), false)});
    });
    return true;
  }
  if (opcode.starts_with("mov.")) {
    auto [dst, src] = operands.split(',');
    auto d = operandNumber(dst);
    Value *v = operand(src);
    if (!d || *d >= outputs || predicate || !v)
      return false;
    value[*d] = isa<ConstantInt>(v) && !operandNumber(src)
                    ? ConstantInt::get(outputTypes[*d],
                                       cast<ConstantInt>(v)->getSExtValue())
                    : b.CreateBitOrPointerCast(v, outputTypes[*d]);
    return true;
  }
  if (opcode.starts_with("setp.")) {
    // setp.<cmp>.<type> p, a, b
    SmallVector<StringRef> args = splitOperands(operands);
    SmallVector<StringRef> parts;
    opcode.split(parts, '.');
    if (args.size() != 3 || parts.size() != 3 || !registers.count(args[0]) ||
        predicate)
      return false;
    Value *x = operand(args[1]), *y = operand(args[2]);
    if (!x || !y || !x->getType()->isIntegerTy() || !y->getType()->isIntegerTy())
      return false;
    y = b.CreateZExtOrTrunc(y, x->getType());
    CmpInst::Predicate cmp;
    if (parts[1] == "ne") cmp = CmpInst::ICMP_NE;
    else if (parts[1] == "eq") cmp = CmpInst::ICMP_EQ;
    else return false;
    registers[args[0]] = b.CreateICmp(cmp, x, y);
    return true;
  }
  if (opcode.starts_with("ld.global") || opcode.starts_with("st.global"))
    return translateGlobalAccess(opcode, operands, predicate);
  if (opcode.starts_with("mbarrier.") && !opcode.starts_with("mbarrier.try_wait") &&
      !opcode.starts_with("mbarrier.test_wait"))
    return translateMBarrier(opcode, operands, predicate);
  if (opcode.starts_with("cp.async.bulk.tensor."))
    return translateBulkTensor(opcode, operands, predicate);
  if (opcode.starts_with("cp.async.") && !opcode.starts_with("cp.async.bulk"))
    return translateCpAsync(opcode, operands, predicate);
  if (opcode.starts_with("wgmma.mma_async.sync.aligned.") && !predicate)
    return translateWgmma(opcode, operands);
  return false;
}

bool StatementTranslator::run(bool &collective) {
  auto *asmCall = cast<InlineAsm>(call->getCalledOperand());
  // Operands: outputs ('=' constraints) first, then the call's arguments;
  // an input tied to output N (constraint "N") gives it its initial value.
  SmallVector<StringRef> constraints;
  StringRef(asmCall->getConstraintString()).split(constraints, ',');
  for (StringRef c : constraints)
    outputs += c.starts_with("=");
  Type *resultType = call->getType();
  if (outputs == 1)
    outputTypes.push_back(resultType);
  else if (auto *st = dyn_cast<StructType>(resultType))
    outputTypes.append(st->element_begin(), st->element_end());
  if (outputTypes.size() != outputs)
    return false;
  value.assign(outputs + call->arg_size(), nullptr);
  for (unsigned i = 0; i < outputs; ++i)
    value[i] = UndefValue::get(outputTypes[i]);
  for (unsigned i = 0; i < call->arg_size(); ++i) {
    value[outputs + i] = call->getArgOperand(i);
    unsigned tied;
    if (outputs + i < constraints.size() &&
        !constraints[outputs + i].getAsInteger(10, tied) && tied < outputs)
      value[tied] = b.CreateBitOrPointerCast(call->getArgOperand(i),
                                             outputTypes[tied]);
  }
  // Comments run to the end of their line.
  std::string text;
  for (StringRef line : llvm::split(asmCall->getAsmString(), '\n'))
    text += line.take_front(line.find("//")).str() + "\n";
  SmallVector<StringRef> statements;
  StringRef(text).split(statements, ';');
  for (StringRef stmt : statements)
    if (!translateStatement(stmt))
      return false;
  if (outputs == 1) {
    call->replaceAllUsesWith(value[0]);
  } else if (outputs > 1) {
    Value *result = PoisonValue::get(resultType);
    for (unsigned i = 0; i < outputs; ++i)
      result = b.CreateInsertValue(result, value[i], i);
    call->replaceAllUsesWith(result);
  }
  call->eraseFromParent();
  collective |= collectiveSeen;
  return true;
}

/// A loop that polls an mbarrier until its phase completes, as compilers
/// write it in PTX: `mbarrier.try_wait{.parity}... p, [addr], state;` and a
/// branch back while `p` is false. Becomes a loop on the runtime's wait.
static bool translateWaitLoop(CallInst *call, StringRef text) {
  size_t at = text.find("mbarrier.try_wait");
  if (at == StringRef::npos || !text.contains("bra"))
    return false;
  StringRef stmt = text.drop_front(at);
  stmt = stmt.take_front(stmt.find(';'));
  auto [opcode, operands] = stmt.split(' ');
  if (opcode.contains("::cluster"))
    return false;
  SmallVector<StringRef> args = splitOperands(operands);
  if (args.size() < 3 || args.size() > 4)
    return false;
  StringRef address = args[1];
  if (!address.consume_front("[") || !address.consume_back("]"))
    return false;
  auto addressOperandNumber = operandNumber(address);
  auto stateOperand = operandNumber(args[2]);
  if (!addressOperandNumber || !stateOperand ||
      *addressOperandNumber >= call->arg_size() ||
      *stateOperand >= call->arg_size() || !call->getType()->isVoidTy())
    return false;
  LLVMContext &ctx = call->getContext();
  Module &m = *call->getModule();
  BasicBlock *before = call->getParent();
  BasicBlock *after = before->splitBasicBlock(call->getIterator());
  BasicBlock *loop = BasicBlock::Create(ctx, "mbarrier.wait", before->getParent(),
                                        after);
  before->getTerminator()->setSuccessor(0, loop);
  IRBuilder<> b(loop);
  Type *ptr = PointerType::get(ctx, 0);
  Value *addressValue = call->getArgOperand(*addressOperandNumber);
  if (addressValue->getType()->isPointerTy())
    addressValue = b.CreateAddrSpaceCast(addressValue, ptr);
  else
    addressValue = b.CreateCall(
        m.getOrInsertFunction("__nautilus_emu_shared",
                              FunctionType::get(ptr, {b.getInt64Ty()}, false)),
        {b.CreateZExtOrTrunc(addressValue, b.getInt64Ty())});
  auto wait = m.getOrInsertFunction(
      "__nautilus_emu_mbarrier_wait",
      FunctionType::get(b.getInt1Ty(), {ptr, b.getInt64Ty(), b.getInt32Ty()},
                        false));
  Value *done = b.CreateCall(
      wait, {addressValue,
             b.CreateZExtOrTrunc(call->getArgOperand(*stateOperand),
                                 b.getInt64Ty()),
             b.getInt32(opcode.contains(".parity"))});
  b.CreateCondBr(done, after, loop);
  call->eraseFromParent();
  return true;
}

bool nautilus::emu::detail::translateInlinePtx(CallInst *call,
                                               bool &collective) {
  StringRef text = cast<InlineAsm>(call->getCalledOperand())->getAsmString();
  StringRef stmt = text.trim().rtrim(';').trim();
  auto [opcode, operands] = stmt.split(' ');
  if (opcode.starts_with("mma.sync.")) {
    if (!translateMma(call, opcode, operands))
      return false;
    collective = true;
    return true;
  }
  if (text.contains("mbarrier.try_wait")) {
    if (!translateWaitLoop(call, text))
      return false;
    collective = true; // waits yield to the threads that arrive
    return true;
  }
  bool async = text.contains("mbarrier.") || text.contains("cp.async.bulk");
  if (!StatementTranslator(call).run(collective))
    return false;
  collective |= async;
  return true;
}
