//===- LibcallsToIntrinsics.cpp - Device-library calls to intrinsics ------===//
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

#include <set>

namespace nautilus {
#define GEN_PASS_DEF_LIBCALLSTOINTRINSICS
#include "compiler/Transforms/LLVM/Passes.h.inc"
} // namespace nautilus

using namespace mlir;

namespace {

enum class Intrinsic { None, Sqrt, Floor, Ceil, FAbs, FMA, Exp2 };

Intrinsic intrinsicFor(StringRef callee) {
  return llvm::StringSwitch<Intrinsic>(callee)
      .Cases({"__nv_sqrtf", "__nv_sqrt", "__ocml_sqrt_f32", "__ocml_sqrt_f64"},
             Intrinsic::Sqrt)
      .Cases({"__nv_floorf", "__nv_floor", "__ocml_floor_f32",
              "__ocml_floor_f64"},
             Intrinsic::Floor)
      .Cases({"__nv_ceilf", "__nv_ceil", "__ocml_ceil_f32", "__ocml_ceil_f64"},
             Intrinsic::Ceil)
      .Cases({"__nv_fabsf", "__nv_fabs", "__ocml_fabs_f32", "__ocml_fabs_f64"},
             Intrinsic::FAbs)
      .Cases({"__nv_fmaf", "__nv_fma", "__ocml_fma_f32", "__ocml_fma_f64"},
             Intrinsic::FMA)
      .Cases({"__nv_exp2f", "__ocml_exp2_f32"}, Intrinsic::Exp2)
      .Default(Intrinsic::None);
}

/// The source's name of a device library's function of `type` values:
/// "exp" for __nv_exp, __nv_expf (f32) and __ocml_exp_f64.
std::string functionName(StringRef callee, Type type) {
  StringRef name = callee;
  if (name.consume_front("__ocml_"))
    return name.rsplit('_').first.str();
  name.consume_front("__nv_");
  if (type.isF32())
    name.consume_back("f");
  return name.str();
}

bool isDeviceLibrary(StringRef callee) {
  return callee.starts_with("__nv_") || callee.starts_with("__ocml_") ||
         callee.starts_with("__ockl_");
}

struct LibcallsToIntrinsicsPass
    : public nautilus::impl::LibcallsToIntrinsicsBase<
          LibcallsToIntrinsicsPass> {
  void runOnOperation() override {
    bool ok = true, usersInput = false;
    std::set<std::pair<std::string, const void *>> reported;
    getOperation()->walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !isDeviceLibrary(*callee))
        return;
      OpBuilder b(call);
      Location loc = call.getLoc();
      ValueRange args = call.getArgOperands();
      Value result;
      switch (intrinsicFor(*callee)) {
      case Intrinsic::Sqrt: result = LLVM::SqrtOp::create(b, loc, args[0]); break;
      case Intrinsic::Floor: result = LLVM::FFloorOp::create(b, loc, args[0]); break;
      case Intrinsic::Ceil: result = LLVM::FCeilOp::create(b, loc, args[0]); break;
      case Intrinsic::FAbs: result = LLVM::FAbsOp::create(b, loc, args[0]); break;
      case Intrinsic::Exp2: result = LLVM::Exp2Op::create(b, loc, args[0]); break;
      case Intrinsic::FMA:
        result = LLVM::FMAOp::create(b, loc, args[0], args[1], args[2]);
        break;
      case Intrinsic::None: {
        // (Once a function and place: a vector's elements each call it.)
        // Of f64, the input's: nautilus-legalize-math expands the others.
        Type type = getElementTypeOrSelf(args.front().getType());
        usersInput |= type.isF64();
        if (reported.insert({callee->str(), call.getLoc().getAsOpaquePointer()})
                .second)
          call.emitError()
              << "'" << functionName(*callee, type) << "' of " << type
              << " values has no code on this target (nautilus links no "
                 "device math library: '"
              << *callee << "'"
              << (type.isF64()
                      ? "; sigmoid, silu, gelu and pow are made of exp, log "
                        "and erfc): compute it in f32 (f32(...) of its "
                        "argument), or compile for cpu"
                      : ")");
        ok = false;
        return;
      }
      }
      call.getResult().replaceAllUsesWith(result);
      call.erase();
    });
    // Declarations left without callers.
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      if (func.isExternal() && isDeviceLibrary(func.getName()) &&
          SymbolTable::symbolKnownUseEmpty(func, getOperation()))
        func.erase();
    });
    if (!ok) {
      if (usersInput)
        getOperation()->setAttr(nautilus::kNeedsDeviceLibraryAttrName,
                                UnitAttr::get(&getContext()));
      signalPassFailure();
    }
  }
};

} // namespace
