//===- Lexer.cpp - Tokens of the .tensor language -------------------------===//
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace nautilus::frontend;

const char *nautilus::frontend::tokSpelling(Tok kind) {
  switch (kind) {
  case Tok::Eof: return "end of file";
  case Tok::Error: return "invalid token";
  case Tok::Newline: return "end of line";
  case Tok::Identifier: return "identifier";
  case Tok::Integer: return "integer";
  case Tok::Float: return "number";
  case Tok::LParen: return "'('";
  case Tok::RParen: return "')'";
  case Tok::LBracket: return "'['";
  case Tok::RBracket: return "']'";
  case Tok::LBrace: return "'{'";
  case Tok::RBrace: return "'}'";
  case Tok::Comma: return "','";
  case Tok::Colon: return "':'";
  case Tok::Semicolon: return "';'";
  case Tok::Arrow: return "'->'";
  case Tok::Assign: return "'='";
  case Tok::Plus: return "'+'";
  case Tok::Minus: return "'-'";
  case Tok::Star: return "'*'";
  case Tok::Slash: return "'/'";
  case Tok::Percent: return "'%'";
  case Tok::Less: return "'<'";
  case Tok::LessEq: return "'<='";
  case Tok::Greater: return "'>'";
  case Tok::GreaterEq: return "'>='";
  case Tok::EqEq: return "'=='";
  case Tok::NotEq: return "'!='";
  case Tok::KwKernel: return "'kernel'";
  case Tok::KwRequire: return "'require'";
  case Tok::KwWhere: return "'where'";
  case Tok::KwSum: return "'sum'";
  case Tok::KwMax: return "'max'";
  case Tok::KwMin: return "'min'";
  case Tok::KwProd: return "'prod'";
  case Tok::KwTrue: return "'true'";
  case Tok::KwFalse: return "'false'";
  case Tok::KwInf: return "'inf'";
  case Tok::KwAnd: return "'and'";
  case Tok::KwOr: return "'or'";
  case Tok::KwNot: return "'not'";
  }
  return "token";
}

Lexer::Lexer(llvm::StringRef buffer, Diagnostics &diags)
    : buffer(buffer), cur(buffer.begin()), diags(diags) {}

Token Lexer::make(Tok kind, const char *start) {
  Token t;
  t.kind = kind;
  t.text = llvm::StringRef(start, cur - start);
  t.loc = llvm::SMLoc::getFromPointer(start);
  return t;
}

Token Lexer::error(const char *at, const llvm::Twine &message) {
  diags.error(llvm::SMLoc::getFromPointer(at), message);
  failed = true;
  cur = buffer.end();
  Token t;
  t.kind = Tok::Error;
  t.loc = llvm::SMLoc::getFromPointer(at);
  return t;
}

Token Lexer::next() {
  if (failed) {
    Token t;
    t.kind = Tok::Eof;
    t.loc = llvm::SMLoc::getFromPointer(buffer.end());
    return t;
  }
  while (true) {
    if (cur == buffer.end())
      return make(Tok::Eof, cur);
    char c = *cur;
    if (c == '#') { // comment to end of line
      while (cur != buffer.end() && *cur != '\n')
        ++cur;
      continue;
    }
    if (c == '\n') {
      const char *start = cur++;
      if (nesting > 0)
        continue;
      return make(Tok::Newline, start);
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++cur;
      continue;
    }
    break;
  }

  const char *start = cur;
  char c = *cur++;
  auto peekIs = [&](char want) {
    if (cur != buffer.end() && *cur == want) {
      ++cur;
      return true;
    }
    return false;
  };
  switch (c) {
  case '(': ++nesting; return make(Tok::LParen, start);
  case '[': ++nesting; return make(Tok::LBracket, start);
  case ')': if (nesting > 0) --nesting; return make(Tok::RParen, start);
  case ']': if (nesting > 0) --nesting; return make(Tok::RBracket, start);
  case '{': return make(Tok::LBrace, start);
  case '}': return make(Tok::RBrace, start);
  case ',': return make(Tok::Comma, start);
  case ':': return make(Tok::Colon, start);
  case ';': return make(Tok::Semicolon, start);
  case '+': return make(Tok::Plus, start);
  case '*': return make(Tok::Star, start);
  case '/': return make(Tok::Slash, start);
  case '%': return make(Tok::Percent, start);
  case '-': return make(peekIs('>') ? Tok::Arrow : Tok::Minus, start);
  case '<': return make(peekIs('=') ? Tok::LessEq : Tok::Less, start);
  case '>': return make(peekIs('=') ? Tok::GreaterEq : Tok::Greater, start);
  case '=': return make(peekIs('=') ? Tok::EqEq : Tok::Assign, start);
  case '!':
    if (peekIs('='))
      return make(Tok::NotEq, start);
    return error(start, "unexpected character '!'; write 'not' for logical "
                        "negation or '!=' for inequality");
  default:
    break;
  }
  if (std::isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && cur != buffer.end() &&
       std::isdigit(static_cast<unsigned char>(*cur))))
    return lexNumber(start);
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
    return lexIdentifier(start);

  unsigned char uc = static_cast<unsigned char>(c);
  if (std::isprint(uc))
    return error(start, llvm::Twine("unexpected character '") + llvm::Twine(c) +
                            "'");
  char hex[8];
  snprintf(hex, sizeof(hex), "0x%02x", uc);
  return error(start, llvm::Twine("unexpected byte ") + hex +
                          " (is this a .tensor text file?)");
}

Token Lexer::lexNumber(const char *start) {
  cur = start;
  auto isDigit = [&](const char *p) {
    return p != buffer.end() && std::isdigit(static_cast<unsigned char>(*p));
  };
  bool isFloat = false;
  while (isDigit(cur))
    ++cur;
  if (cur != buffer.end() && *cur == '.') {
    isFloat = true;
    ++cur;
    while (isDigit(cur))
      ++cur;
  }
  if (cur != buffer.end() && (*cur == 'e' || *cur == 'E')) {
    const char *exp = cur + 1;
    if (exp != buffer.end() && (*exp == '+' || *exp == '-'))
      ++exp;
    if (!isDigit(exp))
      return error(cur, "malformed exponent in number");
    isFloat = true;
    cur = exp;
    while (isDigit(cur))
      ++cur;
  }
  if (cur != buffer.end() &&
      (std::isalpha(static_cast<unsigned char>(*cur)) || *cur == '_'))
    return error(cur, "unexpected character after number");

  Token t = make(isFloat ? Tok::Float : Tok::Integer, start);
  std::string text = t.text.str();
  if (isFloat) {
    errno = 0;
    t.floatValue = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE && std::abs(t.floatValue) > 1.0)
      return error(start, "floating-point literal is out of range; write "
                          "'inf' for infinity");
  } else {
    unsigned long long value = 0;
    if (t.text.getAsInteger(10, value) ||
        value > static_cast<unsigned long long>(
                    std::numeric_limits<int64_t>::max()))
      return error(start, "integer literal '" + t.text +
                              "' does not fit in 64 bits");
    t.intValue = static_cast<int64_t>(value);
    t.floatValue = static_cast<double>(value);
  }
  return t;
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != buffer.end() &&
         (std::isalnum(static_cast<unsigned char>(*cur)) || *cur == '_'))
    ++cur;
  llvm::StringRef text(start, cur - start);
  Tok kind = llvm::StringSwitch<Tok>(text)
                 .Case("kernel", Tok::KwKernel)
                 .Case("require", Tok::KwRequire)
                 .Case("where", Tok::KwWhere)
                 .Case("sum", Tok::KwSum)
                 .Case("max", Tok::KwMax)
                 .Case("min", Tok::KwMin)
                 .Case("prod", Tok::KwProd)
                 .Case("true", Tok::KwTrue)
                 .Case("false", Tok::KwFalse)
                 .Case("inf", Tok::KwInf)
                 .Case("and", Tok::KwAnd)
                 .Case("or", Tok::KwOr)
                 .Case("not", Tok::KwNot)
                 .Default(Tok::Identifier);
  return make(kind, start);
}

std::string nautilus::frontend::canonicalSource(llvm::StringRef source) {
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, "", false), llvm::SMLoc());
  std::string ignored;
  llvm::raw_string_ostream os(ignored);
  Diagnostics diags(sourceMgr, os);
  Lexer lexer(sourceMgr.getMemoryBuffer(id)->getBuffer(), diags);
  std::string out;
  bool lineStart = true; // blank lines and comment lines add nothing
  for (Token t = lexer.next(); !t.is(Tok::Eof); t = lexer.next()) {
    if (t.is(Tok::Error))
      return source.str();
    if (t.is(Tok::Newline) && lineStart)
      continue;
    lineStart = t.is(Tok::Newline);
    out += lineStart ? llvm::StringRef("\n") : t.text;
    out += ' ';
  }
  return out;
}
