//===- InlinePtx.cpp - Inline PTX that the emulator understands -----------===//
#include "runtime/emulator/InlinePtx.h"
#include "runtime/emulator/EmulatorState.h"
#include "runtime/emulator/HostModule.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

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
  unsigned aRegs = k16 ? 4 : 2, bRegs = k16 ? 2 : 1;
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

bool nautilus::emu::detail::translateInlinePtx(CallInst *call,
                                               bool &collective) {
  {
    StringRef text = cast<InlineAsm>(call->getCalledOperand())->getAsmString();
    StringRef stmt = text.trim().rtrim(';').trim();
    auto [opcode, operands] = stmt.split(' ');
    if (opcode.starts_with("mma.sync.")) {
      if (!translateMma(call, opcode, operands))
        return false;
      collective = true;
      return true;
    }
  }
  auto *asmCall = cast<InlineAsm>(call->getCalledOperand());
  // Operands: outputs ('=' constraints) first, then the call's arguments.
  SmallVector<StringRef> constraints;
  StringRef(asmCall->getConstraintString()).split(constraints, ',');
  unsigned outputs = 0;
  for (StringRef c : constraints)
    outputs += c.starts_with("=");
  Type *resultType = call->getType();
  SmallVector<Type *> outputTypes;
  if (outputs == 1)
    outputTypes.push_back(resultType);
  else if (auto *st = dyn_cast<StructType>(resultType))
    outputTypes.append(st->element_begin(), st->element_end());
  if (outputTypes.size() != outputs)
    return false;

  IRBuilder<> b(call);
  LLVMContext &ctx = call->getContext();
  SmallVector<Value *> value(outputs + call->arg_size(), nullptr);
  for (unsigned i = 0; i < call->arg_size(); ++i)
    value[outputs + i] = call->getArgOperand(i);
  for (unsigned i = 0; i < outputs; ++i)
    value[i] = UndefValue::get(outputTypes[i]);
  // A predicated access is checked here, by a runtime call that only checks
  // (and returns the address) when the predicate holds, and otherwise
  // returns a quarantine; the access is then marked as checked.
  Module &m = *call->getModule();
  Type *generic = PointerType::get(ctx, 0);
  FunctionCallee checkIf = m.getOrInsertFunction(
      "__nautilus_emu_access_if",
      FunctionType::get(generic, {b.getInt1Ty(), generic, b.getInt64Ty(),
                                  b.getInt32Ty()},
                        false));
  MDNode *checked = MDNode::get(ctx, {});

  SmallVector<StringRef> statements;
  StringRef(asmCall->getAsmString()).split(statements, ';');
  for (StringRef stmt : statements) {
    stmt = stmt.trim();
    if (stmt.empty())
      continue;
    // An optional predicate `@$N` or `@!$N`.
    Value *predicate = nullptr;
    if (stmt.consume_front("@")) {
      bool negate = stmt.consume_front("!");
      auto [reg, rest] = stmt.split(' ');
      auto n = operandNumber(reg);
      if (!n || *n >= value.size())
        return false;
      predicate = value[*n];
      if (negate)
        predicate = b.CreateNot(predicate);
      stmt = rest.trim();
    }
    auto [opcode, operands] = stmt.split(' ');
    operands = operands.trim();
    if (opcode.starts_with("mov.")) {
      auto [dst, src] = operands.split(',');
      auto d = operandNumber(dst);
      if (!d || *d >= outputs || predicate)
        return false;
      if (auto s = operandNumber(src)) {
        if (*s >= value.size())
          return false;
        value[*d] = b.CreateBitOrPointerCast(value[*s], outputTypes[*d]);
      } else {
        int64_t imm;
        if (src.trim().getAsInteger(0, imm))
          return false;
        value[*d] = ConstantInt::get(outputTypes[*d], imm);
      }
      continue;
    }
    bool isLoad = opcode.starts_with("ld.global");
    bool isStore = opcode.starts_with("st.global");
    if (!isLoad && !isStore)
      return false;
    auto shape = accessShape(opcode);
    if (!shape)
      return false;
    auto [width, lanes] = *shape;
    Type *element = IntegerType::get(ctx, width);
    // ld: "{ $0, ... }, [ $a + off ]"; st: "[ $a + off ], { $v, ... }".
    size_t bracket = operands.find('[');
    size_t close = operands.find(']');
    if (bracket == StringRef::npos || close == StringRef::npos)
      return false;
    auto address = addressOperand(operands.slice(bracket, close + 1));
    StringRef regs = isLoad ? operands.take_front(bracket).rtrim().rtrim(',')
                            : operands.drop_front(close + 1).ltrim().ltrim(',');
    auto registers = operandList(regs);
    if (!address || !registers || registers->size() != lanes ||
        address->first >= value.size())
      return false;
    Value *base = value[address->first];
    Value *pointer = b.CreateGEP(b.getInt8Ty(), base,
                                 b.getInt64(address->second));
    Value *target = pointer;
    if (predicate)
      target = b.CreateCall(
          checkIf, {predicate, b.CreateAddrSpaceCast(pointer, generic),
                    b.getInt64(width / 8 * lanes), b.getInt32(isStore)});
    for (unsigned l = 0; l < lanes; ++l) {
      Value *at = b.CreateGEP(element, target, b.getInt64(l));
      unsigned reg = (*registers)[l];
      if (reg >= value.size())
        return false;
      Instruction *access;
      if (isLoad) {
        if (reg >= outputs)
          return false;
        auto *load = b.CreateLoad(element, at);
        access = load;
        Value *loaded = b.CreateBitOrPointerCast(load, outputTypes[reg]);
        value[reg] = predicate ? b.CreateSelect(predicate, loaded, value[reg])
                               : loaded;
      } else {
        access = b.CreateStore(b.CreateBitOrPointerCast(value[reg], element),
                               at);
      }
      if (predicate)
        access->setMetadata("nautilus.checked", checked);
    }
  }
  if (outputs == 1) {
    call->replaceAllUsesWith(value[0]);
  } else if (outputs > 1) {
    Value *result = PoisonValue::get(resultType);
    for (unsigned i = 0; i < outputs; ++i)
      result = b.CreateInsertValue(result, value[i], i);
    call->replaceAllUsesWith(result);
  }
  call->eraseFromParent();
  return true;
}
