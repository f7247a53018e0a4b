//===- Lexer.h - Tokens of the .tensor language ----------------*- C++ -*-===//
//
// Splits a .tensor source buffer into tokens. Newlines are tokens (they end
// statements) except inside parentheses or brackets, which the lexer tracks so
// the parser never sees a newline there.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_FRONTEND_LEXER_H
#define NAUTILUS_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>
#include <string>

namespace nautilus::frontend {

class Diagnostics;

enum class Tok {
  Eof,
  Error,
  Newline,
  Identifier,
  Integer,
  Float,
  // Punctuation.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Comma, Colon, Semicolon, Arrow, Assign,
  Plus, Minus, Star, Slash, Percent,
  Less, LessEq, Greater, GreaterEq, EqEq, NotEq,
  // Keywords.
  KwKernel, KwRequire, KwWhere, KwSum, KwMax, KwMin, KwProd,
  KwTrue, KwFalse, KwInf, KwAnd, KwOr, KwNot,
};

const char *tokSpelling(Tok kind);

struct Token {
  Tok kind = Tok::Eof;
  llvm::StringRef text;
  llvm::SMLoc loc;
  int64_t intValue = 0;
  double floatValue = 0.0;

  bool is(Tok k) const { return kind == k; }
};

class Lexer {
public:
  Lexer(llvm::StringRef buffer, Diagnostics &diags);

  /// Returns the next token; after an error it returns Tok::Error once and
  /// then Tok::Eof, so callers stop at the first lexical error.
  Token next();

private:
  Token make(Tok kind, const char *start);
  Token lexNumber(const char *start);
  Token lexIdentifier(const char *start);
  Token error(const char *at, const llvm::Twine &message);

  llvm::StringRef buffer;
  const char *cur;
  Diagnostics &diags;
  int nesting = 0; // depth of open ( and [
  bool failed = false;
};

/// `source`'s tokens, each followed by one space, with a newline for each
/// statement break: the same text for any two sources that differ only in
/// comments and spacing (what the JIT's cache keys hash). A source with a
/// lexical error gives its text unchanged.
std::string canonicalSource(llvm::StringRef source);

} // namespace nautilus::frontend

#endif
