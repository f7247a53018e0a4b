//===- Parser.h - Recursive-descent parser for .tensor ----------*- C++ -*-===//
#ifndef NAUTILUS_FRONTEND_PARSER_H
#define NAUTILUS_FRONTEND_PARSER_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Lexer.h"

namespace nautilus::frontend {

/// Parses one buffer. Stops at the first syntax error (reported through
/// `diags`) and returns std::nullopt; a file with no kernel is an error.
std::optional<Module> parseModule(llvm::StringRef buffer, Diagnostics &diags);

/// Deepest expression nesting the parser accepts; deeper input is an error,
/// not a stack overflow.
constexpr unsigned kMaxExpressionDepth = 256;
/// The most binary operators one expression may hold: a chain of them is
/// as deep as it is long in every pass that walks the tree (20,000 `+`
/// overflowed the stack), far beyond any kernel's definition.
constexpr unsigned kMaxBinaryOperators = 4096;

} // namespace nautilus::frontend

#endif
