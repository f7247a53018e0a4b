//===- AlgEnums.td - Enums shared by the alg and tile dialects -*- tablegen -*-===//
#ifndef NAUTILUS_ALG_ENUMS
#define NAUTILUS_ALG_ENUMS

include "mlir/IR/EnumAttr.td"

def Alg_ReductionKind : I32EnumAttr<"ReductionKind", "how a definition folds its reduced indices", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"prod", 3>]> {
  let cppNamespace = "::nautilus::alg";
}

#endif
