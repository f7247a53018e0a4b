//===- Parser.cpp - Recursive-descent parser for .tensor ------------------===//
//
// Grammar (LANGUAGE.md; precedence from loosest to tightest):
//   file      := { NEWLINE | kernel } EOF
//   kernel    := 'kernel' ID '(' [param {',' param}] ')' '->' results
//                '{' { statement (NEWLINE | ';') } '}'
//   results   := param | '(' param {',' param} ')'
//   param     := ID ':' DTYPE ['[' dim {',' dim} ']']
//   statement := ID '[' ID {',' ID} ']' '=' expr | ID '=' expr
//              | 'require' expr
//   expr      := and {'or' and};  and := not {'and' not}
//   not       := 'not' not | cmp; cmp := add [CMPOP add]
//   add       := mul {('+'|'-') mul};  mul := unary {('*'|'/'|'%') unary}
//   unary     := '-' unary | primary
//   primary   := INT | FLOAT | 'inf' | 'true' | 'false' | '(' expr ')'
//              | ID '[' expr {',' expr} ']' | ID '(' args ')' | ID
//              | REDUCE '[' ID {',' ID} ']' '(' expr ')'
//              | ('max'|'min') '(' expr ',' expr ')'
//              | 'where' '(' expr ',' expr ',' expr ')'
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Diagnostics.h"

#include <cmath>

using namespace nautilus::frontend;

namespace {

class Parser {
public:
  Parser(llvm::StringRef buffer, Diagnostics &diags)
      : lexer(buffer, diags), diags(diags) {
    tok = lexer.next();
  }

  std::optional<Module> parseFile();

private:
  // Token helpers.
  void consume() { tok = lexer.next(); }
  bool consumeIf(Tok kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  bool expect(Tok kind, const char *context);
  bool fail(llvm::SMLoc loc, const llvm::Twine &message) {
    // The first error only (later ones are usually echoes); a lexical error
    // has been reported by the lexer already.
    if (!failed && !diags.hadError())
      diags.error(loc, message);
    failed = true;
    return false;
  }
  void skipNewlines() {
    while (tok.is(Tok::Newline))
      consume();
  }
  std::string describe(const Token &t) {
    if (t.is(Tok::Identifier) || t.is(Tok::Integer) || t.is(Tok::Float))
      return "'" + t.text.str() + "'";
    return tokSpelling(t.kind);
  }

  bool parseKernel(Kernel &kernel);
  bool parseParam(ParamDecl &param, const char *what);
  bool parseStatement(Kernel &kernel);

  ExprPtr parseExpr();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseCompare();
  ExprPtr parseAdd();
  ExprPtr parseMul();
  ExprPtr parseUnary();
  ExprPtr parsePrimary();
  bool parseArgs(Tok close, std::vector<ExprPtr> &args, const char *context);

  Lexer lexer;
  Diagnostics &diags;
  Token tok;
  bool failed = false;
  unsigned depth = 0;
  unsigned binaryOperators = 0; // in the expression being parsed
  ExprPtr binary(BinaryOp op, llvm::SMLoc loc, ExprPtr lhs, ExprPtr rhs);
};

struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
};

} // namespace

bool Parser::expect(Tok kind, const char *context) {
  if (tok.is(kind)) {
    consume();
    return true;
  }
  if (tok.is(Tok::Error))
    return fail(tok.loc, "");
  return fail(tok.loc, llvm::Twine("expected ") + tokSpelling(kind) + " " +
                           context + ", found " + describe(tok));
}

std::optional<Module> Parser::parseFile() {
  Module module;
  while (true) {
    skipNewlines();
    if (tok.is(Tok::Eof) || failed)
      break;
    if (tok.is(Tok::Error)) {
      failed = true;
      break;
    }
    if (!tok.is(Tok::KwKernel)) {
      fail(tok.loc, "expected 'kernel' at top level, found " + describe(tok));
      break;
    }
    Kernel kernel;
    if (!parseKernel(kernel))
      break;
    module.kernels.push_back(std::move(kernel));
  }
  if (failed || diags.hadError())
    return std::nullopt;
  if (module.kernels.empty()) {
    diags.error(tok.loc, "file defines no kernel; expected "
                         "'kernel NAME(INPUTS) -> (OUTPUTS) { ... }'");
    return std::nullopt;
  }
  return module;
}

bool Parser::parseParam(ParamDecl &param, const char *what) {
  if (!tok.is(Tok::Identifier))
    return fail(tok.loc, llvm::Twine("expected the name of ") + what +
                             ", found " + describe(tok));
  param.name = tok.text.str();
  param.loc = tok.loc;
  consume();
  if (!expect(Tok::Colon, "after the parameter name"))
    return false;
  if (!tok.is(Tok::Identifier))
    return fail(tok.loc, "expected a dtype (f16, bf16, f32, f64, i8, i32, "
                         "i64, bool), found " + describe(tok));
  auto type = parseScalarType(tok.text.str());
  if (!type)
    return fail(tok.loc, "unknown dtype '" + tok.text +
                             "'; expected one of f16, bf16, f32, f64, i8, "
                             "i32, i64, bool");
  param.type = *type;
  consume();
  if (!consumeIf(Tok::LBracket))
    return true;
  param.isTensor = true;
  while (true) {
    DimSpec dim;
    dim.loc = tok.loc;
    if (tok.is(Tok::Identifier)) {
      if (parseScalarType(tok.text.str()))
        return fail(tok.loc, "'" + tok.text +
                                 "' is a dtype name and cannot name a size");
      dim.sizeName = tok.text.str();
    } else if (tok.is(Tok::Integer)) {
      if (tok.intValue <= 0)
        return fail(tok.loc, "a dimension must be positive");
      dim.literal = tok.intValue;
    } else {
      return fail(tok.loc, "expected a size name or a positive integer as a "
                           "dimension, found " + describe(tok));
    }
    consume();
    param.dims.push_back(dim);
    if (consumeIf(Tok::Comma))
      continue;
    return expect(Tok::RBracket, "to close the dimension list");
  }
}

bool Parser::parseKernel(Kernel &kernel) {
  kernel.loc = tok.loc;
  consume(); // 'kernel'
  if (!tok.is(Tok::Identifier))
    return fail(tok.loc, "expected a kernel name after 'kernel', found " +
                             describe(tok));
  kernel.name = tok.text.str();
  consume();
  if (!expect(Tok::LParen, "to open the input list"))
    return false;
  if (!tok.is(Tok::RParen)) {
    while (true) {
      ParamDecl p;
      if (!parseParam(p, "an input"))
        return false;
      kernel.inputs.push_back(std::move(p));
      if (!consumeIf(Tok::Comma))
        break;
    }
  }
  if (!expect(Tok::RParen, "to close the input list"))
    return false;
  if (!expect(Tok::Arrow, "before the outputs"))
    return false;
  bool parenthesised = consumeIf(Tok::LParen);
  while (true) {
    ParamDecl p;
    if (!parseParam(p, "an output"))
      return false;
    if (!p.isTensor)
      return fail(p.loc, "output '" + p.name +
                             "' must be a tensor: give its dimensions, e.g. " +
                             p.name + ": " + scalarTypeName(p.type) + "[N]");
    kernel.outputs.push_back(std::move(p));
    if (!parenthesised || !consumeIf(Tok::Comma))
      break;
  }
  if (parenthesised && !expect(Tok::RParen, "to close the output list"))
    return false;
  skipNewlines();
  if (!expect(Tok::LBrace, "to open the kernel body"))
    return false;
  while (true) {
    while (tok.is(Tok::Newline) || tok.is(Tok::Semicolon))
      consume();
    if (tok.is(Tok::RBrace)) {
      kernel.endLoc = tok.loc;
      consume();
      return true;
    }
    if (tok.is(Tok::Eof))
      return fail(tok.loc, "expected '}' to close kernel '" + kernel.name +
                               "'");
    if (!parseStatement(kernel))
      return false;
    if (tok.is(Tok::RBrace))
      continue;
    if (!tok.is(Tok::Newline) && !tok.is(Tok::Semicolon))
      return fail(tok.loc, "expected the end of the statement (a newline or "
                           "';'), found " + describe(tok));
  }
}

bool Parser::parseStatement(Kernel &kernel) {
  Statement stmt;
  stmt.loc = tok.loc;
  if (consumeIf(Tok::KwRequire)) {
    stmt.kind = Statement::Kind::Require;
    stmt.value = parseExpr();
    if (!stmt.value)
      return false;
    kernel.statements.push_back(std::move(stmt));
    return true;
  }
  if (!tok.is(Tok::Identifier))
    return fail(tok.loc, "expected a definition ('NAME[i, ...] = ...' or "
                         "'NAME = ...') or 'require', found " + describe(tok));
  stmt.name = tok.text.str();
  stmt.nameLoc = tok.loc;
  consume();
  if (consumeIf(Tok::LBracket)) {
    stmt.kind = Statement::Kind::TensorDef;
    while (true) {
      if (!tok.is(Tok::Identifier))
        return fail(tok.loc, "the left-hand side takes plain index variables "
                             "('" + stmt.name + "[i, j] = ...'), found " +
                             describe(tok));
      stmt.lhsIndices.push_back(tok.text.str());
      stmt.lhsIndexLocs.push_back(tok.loc);
      consume();
      if (consumeIf(Tok::Comma))
        continue;
      if (!tok.is(Tok::RBracket))
        return fail(tok.loc, "the left-hand side takes plain index variables "
                             "separated by ',', found " + describe(tok));
      consume();
      break;
    }
  } else {
    stmt.kind = Statement::Kind::ScalarDef;
  }
  if (!expect(Tok::Assign, "after the defined name"))
    return false;
  stmt.value = parseExpr();
  if (!stmt.value)
    return false;
  kernel.statements.push_back(std::move(stmt));
  return true;
}

ExprPtr Parser::parseExpr() {
  DepthGuard guard(depth);
  if (depth == 1)
    binaryOperators = 0;
  if (depth > kMaxExpressionDepth) {
    fail(tok.loc, llvm::Twine("expression is nested too deeply (more than ") +
                      llvm::Twine(kMaxExpressionDepth) + " levels)");
    return nullptr;
  }
  return parseOr();
}

static ExprPtr makeBinary(BinaryOp op, llvm::SMLoc loc, ExprPtr lhs,
                          ExprPtr rhs) {
  auto e = std::make_unique<Expr>(Expr::Kind::Binary, loc);
  e->binaryOp = op;
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

ExprPtr Parser::binary(BinaryOp op, llvm::SMLoc loc, ExprPtr lhs, ExprPtr rhs) {
  if (++binaryOperators > kMaxBinaryOperators) {
    fail(loc, llvm::Twine("expression has more than ") +
                  llvm::Twine(kMaxBinaryOperators) +
                  " operators; split it into several definitions");
    return nullptr;
  }
  return makeBinary(op, loc, std::move(lhs), std::move(rhs));
}

ExprPtr Parser::parseOr() {
  ExprPtr lhs = parseAnd();
  while (lhs && tok.is(Tok::KwOr)) {
    llvm::SMLoc loc = tok.loc;
    consume();
    ExprPtr rhs = parseAnd();
    if (!rhs)
      return nullptr;
    lhs = binary(BinaryOp::Or, loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseAnd() {
  ExprPtr lhs = parseNot();
  while (lhs && tok.is(Tok::KwAnd)) {
    llvm::SMLoc loc = tok.loc;
    consume();
    ExprPtr rhs = parseNot();
    if (!rhs)
      return nullptr;
    lhs = binary(BinaryOp::And, loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseNot() {
  if (!tok.is(Tok::KwNot))
    return parseCompare();
  DepthGuard guard(depth);
  if (depth > kMaxExpressionDepth) {
    fail(tok.loc, "expression is nested too deeply");
    return nullptr;
  }
  auto e = std::make_unique<Expr>(Expr::Kind::Unary, tok.loc);
  e->unaryOp = UnaryOp::Not;
  consume();
  ExprPtr operand = parseNot();
  if (!operand)
    return nullptr;
  e->operands.push_back(std::move(operand));
  return e;
}

static std::optional<BinaryOp> compareOp(Tok kind) {
  switch (kind) {
  case Tok::Less: return BinaryOp::Lt;
  case Tok::LessEq: return BinaryOp::Le;
  case Tok::Greater: return BinaryOp::Gt;
  case Tok::GreaterEq: return BinaryOp::Ge;
  case Tok::EqEq: return BinaryOp::Eq;
  case Tok::NotEq: return BinaryOp::Ne;
  default: return std::nullopt;
  }
}

ExprPtr Parser::parseCompare() {
  ExprPtr lhs = parseAdd();
  if (!lhs)
    return nullptr;
  auto op = compareOp(tok.kind);
  if (!op)
    return lhs;
  llvm::SMLoc loc = tok.loc;
  consume();
  ExprPtr rhs = parseAdd();
  if (!rhs)
    return nullptr;
  if (compareOp(tok.kind)) {
    fail(tok.loc, "comparisons do not chain; write 'a < b and b < c'");
    return nullptr;
  }
  return binary(*op, loc, std::move(lhs), std::move(rhs));
}

ExprPtr Parser::parseAdd() {
  ExprPtr lhs = parseMul();
  while (lhs && (tok.is(Tok::Plus) || tok.is(Tok::Minus))) {
    BinaryOp op = tok.is(Tok::Plus) ? BinaryOp::Add : BinaryOp::Sub;
    llvm::SMLoc loc = tok.loc;
    consume();
    ExprPtr rhs = parseMul();
    if (!rhs)
      return nullptr;
    lhs = binary(op, loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseMul() {
  ExprPtr lhs = parseUnary();
  while (lhs &&
         (tok.is(Tok::Star) || tok.is(Tok::Slash) || tok.is(Tok::Percent))) {
    BinaryOp op = tok.is(Tok::Star)    ? BinaryOp::Mul
                  : tok.is(Tok::Slash) ? BinaryOp::Div
                                       : BinaryOp::Mod;
    llvm::SMLoc loc = tok.loc;
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = binary(op, loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  if (!tok.is(Tok::Minus))
    return parsePrimary();
  DepthGuard guard(depth);
  if (depth > kMaxExpressionDepth) {
    fail(tok.loc, "expression is nested too deeply");
    return nullptr;
  }
  auto e = std::make_unique<Expr>(Expr::Kind::Unary, tok.loc);
  e->unaryOp = UnaryOp::Neg;
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  e->operands.push_back(std::move(operand));
  return e;
}

bool Parser::parseArgs(Tok close, std::vector<ExprPtr> &args,
                       const char *context) {
  if (tok.is(close)) {
    consume();
    return true;
  }
  while (true) {
    ExprPtr arg = parseExpr();
    if (!arg)
      return false;
    args.push_back(std::move(arg));
    if (consumeIf(Tok::Comma))
      continue;
    return expect(close, context);
  }
}

ExprPtr Parser::parsePrimary() {
  llvm::SMLoc loc = tok.loc;
  switch (tok.kind) {
  case Tok::Integer: {
    auto e = std::make_unique<Expr>(Expr::Kind::IntLit, loc);
    e->intValue = tok.intValue;
    e->floatValue = tok.floatValue;
    consume();
    return e;
  }
  case Tok::Float:
  case Tok::KwInf: {
    auto e = std::make_unique<Expr>(Expr::Kind::FloatLit, loc);
    e->floatValue = tok.is(Tok::KwInf) ? HUGE_VAL : tok.floatValue;
    consume();
    return e;
  }
  case Tok::KwTrue:
  case Tok::KwFalse: {
    auto e = std::make_unique<Expr>(Expr::Kind::BoolLit, loc);
    e->boolValue = tok.is(Tok::KwTrue);
    consume();
    return e;
  }
  case Tok::LParen: {
    consume();
    ExprPtr inner = parseExpr();
    if (!inner || !expect(Tok::RParen, "to close the parenthesis"))
      return nullptr;
    return inner;
  }
  case Tok::KwSum:
  case Tok::KwProd:
  case Tok::KwMax:
  case Tok::KwMin: {
    Tok kw = tok.kind;
    consume();
    if (tok.is(Tok::LParen) && (kw == Tok::KwMax || kw == Tok::KwMin)) {
      // Binary max(a, b) / min(a, b).
      consume();
      auto e = std::make_unique<Expr>(Expr::Kind::Call, loc);
      e->name = kw == Tok::KwMax ? "max" : "min";
      if (!parseArgs(Tok::RParen, e->operands, "to close the argument list"))
        return nullptr;
      return e;
    }
    auto e = std::make_unique<Expr>(Expr::Kind::Reduce, loc);
    e->reduction = kw == Tok::KwSum    ? ReductionKind::Sum
                   : kw == Tok::KwProd ? ReductionKind::Prod
                   : kw == Tok::KwMax  ? ReductionKind::Max
                                       : ReductionKind::Min;
    if (!tok.is(Tok::LBracket)) {
      fail(tok.loc, llvm::Twine("expected '[' with the reduced indices after '") +
                        reductionKindName(e->reduction) + "', e.g. " +
                        reductionKindName(e->reduction) + "[k](...)");
      return nullptr;
    }
    consume();
    while (true) {
      if (!tok.is(Tok::Identifier)) {
        fail(tok.loc, "expected an index variable to reduce over, found " +
                          describe(tok));
        return nullptr;
      }
      e->boundIndices.push_back(tok.text.str());
      e->boundLocs.push_back(tok.loc);
      consume();
      if (consumeIf(Tok::Comma))
        continue;
      if (!expect(Tok::RBracket, "to close the reduced indices"))
        return nullptr;
      break;
    }
    if (!expect(Tok::LParen, "to open the reduction body"))
      return nullptr;
    ExprPtr body = parseExpr();
    if (!body || !expect(Tok::RParen, "to close the reduction body"))
      return nullptr;
    e->operands.push_back(std::move(body));
    return e;
  }
  case Tok::KwWhere: {
    consume();
    auto e = std::make_unique<Expr>(Expr::Kind::Call, loc);
    e->name = "where";
    if (!expect(Tok::LParen, "after 'where'") ||
        !parseArgs(Tok::RParen, e->operands, "to close 'where'"))
      return nullptr;
    return e;
  }
  case Tok::Identifier: {
    std::string name = tok.text.str();
    consume();
    if (tok.is(Tok::LBracket)) {
      consume();
      auto e = std::make_unique<Expr>(Expr::Kind::Access, loc);
      e->name = name;
      if (tok.is(Tok::RBracket)) {
        fail(tok.loc, "expected an index expression");
        return nullptr;
      }
      if (!parseArgs(Tok::RBracket, e->operands, "to close the index list"))
        return nullptr;
      return e;
    }
    if (tok.is(Tok::LParen)) {
      consume();
      auto e = std::make_unique<Expr>(Expr::Kind::Call, loc);
      e->name = name;
      if (!parseArgs(Tok::RParen, e->operands, "to close the argument list"))
        return nullptr;
      return e;
    }
    auto e = std::make_unique<Expr>(Expr::Kind::Name, loc);
    e->name = name;
    return e;
  }
  case Tok::Error:
    failed = true;
    return nullptr;
  default:
    fail(loc, "expected an expression, found " + describe(tok));
    return nullptr;
  }
}

std::optional<Module> nautilus::frontend::parseModule(llvm::StringRef buffer,
                                                      Diagnostics &diags) {
  Parser parser(buffer, diags);
  return parser.parseFile();
}
