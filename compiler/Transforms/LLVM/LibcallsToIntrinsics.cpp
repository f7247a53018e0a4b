//===- LibcallsToIntrinsics.cpp - Device-library calls to intrinsics ------===//
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"

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

bool isDeviceLibrary(StringRef callee) {
  return callee.starts_with("__nv_") || callee.starts_with("__ocml_") ||
         callee.starts_with("__ockl_");
}

struct LibcallsToIntrinsicsPass
    : public nautilus::impl::LibcallsToIntrinsicsBase<
          LibcallsToIntrinsicsPass> {
  void runOnOperation() override {
    bool ok = true;
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
      case Intrinsic::None:
        call.emitError() << "needs '" << *callee
                         << "' from a device library, which nautilus does "
                            "not link";
        ok = false;
        return;
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
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
