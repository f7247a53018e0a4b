//===- FrontendTest.cpp - Lexer, parser and sema units --------------------===//
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace nautilus::frontend;

namespace {

/// Holds a source buffer and collects diagnostics as text.
struct Source {
  llvm::SourceMgr sourceMgr;
  std::string messages;
  llvm::raw_string_ostream os{messages};
  Diagnostics diags{sourceMgr, os};
  llvm::StringRef buffer;

  explicit Source(llvm::StringRef text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.tensor"),
        llvm::SMLoc());
    buffer = sourceMgr.getMemoryBuffer(1)->getBuffer();
  }
};

TEST(Lexer, TokensAndNewlinesInsideBrackets) {
  Source src("kernel k(A: f32[N,\n M]) -> x # comment\n1.5e-3 42 <= != ->");
  Lexer lexer(src.buffer, src.diags);
  std::vector<Tok> kinds;
  for (Token t = lexer.next(); !t.is(Tok::Eof); t = lexer.next())
    kinds.push_back(t.kind);
  std::vector<Tok> want = {
      Tok::KwKernel,   Tok::Identifier, Tok::LParen,     Tok::Identifier,
      Tok::Colon,      Tok::Identifier, Tok::LBracket,   Tok::Identifier,
      Tok::Comma,      Tok::Identifier, Tok::RBracket,   Tok::RParen,
      Tok::Arrow,      Tok::Identifier, Tok::Newline,    Tok::Float,
      Tok::Integer,    Tok::LessEq,     Tok::NotEq,      Tok::Arrow};
  EXPECT_EQ(kinds, want);
  EXPECT_FALSE(src.diags.hadError());
}

TEST(Lexer, NumbersHaveTheirValues) {
  Source src("2.0e4 7 inf");
  Lexer lexer(src.buffer, src.diags);
  Token f = lexer.next();
  EXPECT_EQ(f.kind, Tok::Float);
  EXPECT_DOUBLE_EQ(f.floatValue, 2.0e4);
  Token i = lexer.next();
  EXPECT_EQ(i.kind, Tok::Integer);
  EXPECT_EQ(i.intValue, 7);
  EXPECT_EQ(lexer.next().kind, Tok::KwInf);
}

TEST(Lexer, OverflowingLiteralIsAnError) {
  Source src("123456789012345678901234");
  Lexer lexer(src.buffer, src.diags);
  EXPECT_EQ(lexer.next().kind, Tok::Error);
  EXPECT_NE(src.messages.find("does not fit in 64 bits"), std::string::npos);
}

std::optional<CheckedKernel> check(Source &src, Module &module) {
  auto parsed = parseModule(src.buffer, src.diags);
  if (!parsed)
    return std::nullopt;
  module = std::move(*parsed);
  return checkKernel(module.kernels.front(), src.diags);
}

TEST(Sema, InfersExtentsAndTypes) {
  Source src("kernel k(A: bf16[M, K], B: bf16[K, N]) -> C: f32[M, N] {\n"
             "  C[m, n] = sum[k](A[m, k] * B[k, n]) * 0.5\n}\n");
  Module module;
  auto checked = check(src, module);
  ASSERT_TRUE(checked) << src.messages;
  EXPECT_EQ(checked->sizes, (std::vector<std::string>{"M", "K", "N"}));
  const StatementInfo &info = checked->statements[0];
  EXPECT_EQ(info.extents.at("k").sizeName, "K");
  EXPECT_EQ(info.extents.at("n").sizeName, "N");
  // bf16 products accumulate in f32; the literal takes f32.
  EXPECT_EQ(info.valueType, ScalarType::F32);
}

TEST(Sema, HoistsNestedReductions) {
  Source src("kernel k(A: f32[I, J, L]) -> Y: f32[I] {\n"
             "  Y[i] = sum[j](sum[l](A[i, j, l]) * 2.0)\n}\n");
  Module module;
  auto checked = check(src, module);
  ASSERT_TRUE(checked) << src.messages;
  ASSERT_EQ(module.kernels[0].statements.size(), 2u);
  const Statement &hoisted = module.kernels[0].statements[0];
  EXPECT_EQ(hoisted.name, "Y_sum0");
  // The enclosing reduction's index, then the left-hand innermost one.
  EXPECT_EQ(hoisted.lhsIndices, (std::vector<std::string>{"j", "i"}));
  EXPECT_EQ(checked->tensors.lookup("Y_sum0").dims.size(), 2u);
}

TEST(Sema, PromotesHalfTypes) {
  Source src("kernel k(A: f16[N], B: bf16[N]) -> C: f32[N] {\n"
             "  C[i] = A[i] + B[i]\n}\n");
  Module module;
  auto checked = check(src, module);
  ASSERT_TRUE(checked) << src.messages;
  EXPECT_EQ(module.kernels[0].statements[0].value->type, ScalarType::F32);
}

TEST(Sema, ReportsImplicitSummation) {
  Source src("kernel k(A: f32[M, K]) -> C: f32[M] {\n  C[m] = A[m, k]\n}\n");
  Module module;
  EXPECT_FALSE(check(src, module));
  EXPECT_NE(src.messages.find("test.tensor:2:15: error: index 'k' is not "
                              "bound"),
            std::string::npos)
      << src.messages;
}

} // namespace
