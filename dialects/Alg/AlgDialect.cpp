//===- AlgDialect.cpp - The alg dialect -----------------------------------===//
#include "dialects/Alg/AlgOps.h"

using namespace nautilus::alg;

#include "dialects/Alg/AlgDialect.cpp.inc"
#include "dialects/Alg/AlgEnums.cpp.inc"

void AlgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Alg/AlgOps.cpp.inc"
      >();
}
