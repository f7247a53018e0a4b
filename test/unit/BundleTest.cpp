//===- BundleTest.cpp - Tests for runtime/Json and runtime/Bundle ---------===//

#include "runtime/Bundle.h"
#include "compiler/Pipeline/Artifacts.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "runtime/Hash.h"
#include "runtime/Json.h"
#include "runtime/LaunchChecks.h"
#include "test/unit/ExampleKernelUtil.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

using namespace nautilus;
using namespace nautilus::rt;

namespace {

//===----------------------------------------------------------------------===//
// JSON.
//===----------------------------------------------------------------------===//

std::string parseError(std::string_view text) {
  json::Value v;
  std::string error;
  if (json::parse(text, v, error))
    return "(parsed)";
  return error;
}

TEST(Json, ReadsEveryKindAndEscape) {
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(
      " {\"a\": [1, -2, 9223372036854775807, -9223372036854775808],"
      " \"s\": \"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\","
      " \"t\": true, \"f\": false, \"n\": null, \"o\": {}, \"e\": []}\n",
      v, error))
      << error;
  ASSERT_EQ(v.kind, json::Kind::Object);
  const json::Value *a = v.find("a");
  ASSERT_TRUE(a && a->kind == json::Kind::Array && a->elements.size() == 4);
  EXPECT_EQ(a->elements[1].integer, -2);
  EXPECT_EQ(a->elements[2].integer, INT64_MAX);
  EXPECT_EQ(a->elements[3].integer, INT64_MIN);
  EXPECT_EQ(v.find("s")->string, "q\"b\\s/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v.find("t")->boolean);
  EXPECT_EQ(v.find("f")->kind, json::Kind::Bool);
  EXPECT_EQ(v.find("n")->kind, json::Kind::Null);
  EXPECT_EQ(v.find("o")->kind, json::Kind::Object);
  EXPECT_EQ(v.find("e")->kind, json::Kind::Array);
  // Each value knows its text.
  EXPECT_EQ(a->begin, 7u);
  EXPECT_EQ(std::string_view(" {\"a\": [1").substr(a->begin), "[1");
}

TEST(Json, WritesWhatItReads) {
  json::Value v = json::Value::makeObject();
  v.set("z", json::Value::makeString(std::string("\x01\"\\\t\n\r\xc3\xa9", 8)));
  v.set("a", json::Value::makeArray({json::Value::makeInt(INT64_MIN),
                                     json::Value::makeBool(true), json::Value(),
                                     json::Value::makeArray()}));
  v.set("m", json::Value::makeObject());
  std::string text = json::write(v);
  EXPECT_EQ(text, "{\n  \"a\": [\n    -9223372036854775808,\n    true,\n"
                  "    null,\n    []\n  ],\n  \"m\": {},\n"
                  "  \"z\": \"\\u0001\\\"\\\\\\t\\n\\r\xc3\xa9\"\n}");
  json::Value back;
  std::string error;
  ASSERT_TRUE(json::parse(text, back, error)) << error;
  EXPECT_EQ(json::write(back), text);
}

TEST(Json, RejectsMalformedTextSayingWhere) {
  EXPECT_EQ(parseError(""), "line 1, column 1: unexpected end of input "
                            "(truncated?)");
  EXPECT_EQ(parseError("{\"a\": [1, 2"),
            "line 1, column 12: unexpected end of input (truncated?)");
  EXPECT_EQ(parseError("{\n  \"a\": 1,\n  \"a\": 2}"),
            "line 3, column 3: duplicate key \"a\"");
  EXPECT_EQ(parseError("[1,]"), "line 1, column 4: unexpected character ']'");
  EXPECT_EQ(parseError("[1 2]"), "line 1, column 4: expected ',' or ']'");
  EXPECT_EQ(parseError("{\"a\" 1}"),
            "line 1, column 6: expected ':' after a key");
  EXPECT_EQ(parseError("{1: 2}"),
            "line 1, column 2: expected a key (a string)");
  EXPECT_EQ(parseError("1 2"),
            "line 1, column 3: unexpected text after the value");
  EXPECT_EQ(parseError("01"), "line 1, column 1: a number with a leading zero");
  EXPECT_EQ(parseError("1.5"),
            "line 1, column 2: a number that is not an integer (not "
            "supported)");
  EXPECT_EQ(parseError("9223372036854775808"),
            "line 1, column 20: an integer out of the 64-bit range");
  EXPECT_EQ(parseError("-"), "line 1, column 2: unexpected end of input "
                             "(truncated?)");
  EXPECT_EQ(parseError("tru"), "line 1, column 4: unexpected end of input "
                               "(truncated?)");
  EXPECT_EQ(parseError("nul!"), "line 1, column 1: unexpected character 'n'");
  EXPECT_EQ(parseError("\"a\x01\""),
            "line 1, column 3: a control character in a string (it must be "
            "escaped)");
  EXPECT_EQ(parseError("\"\\x\""), "line 1, column 3: unknown escape '\\x'");
  EXPECT_EQ(parseError("\"\\u12g4\""),
            "line 1, column 6: a \\u escape needs four hexadecimal digits");
  EXPECT_EQ(parseError("\"\\udc00\""),
            "line 1, column 8: a lone low surrogate in a \\u escape");
  EXPECT_EQ(parseError("\"\\ud800x\""),
            "line 1, column 8: a high surrogate without its low");
  EXPECT_EQ(parseError("\x80"),
            "line 1, column 1: unexpected character '\\x80'");
  std::string deep(json::kMaxDepth, '[');
  deep += std::string(json::kMaxDepth, ']');
  EXPECT_EQ(parseError(deep), "(parsed)");
  EXPECT_EQ(parseError("[" + deep + "]"),
            "line 1, column 65: nested too deeply");
  EXPECT_EQ(parseError(std::string(100000, '[')),
            "line 1, column 65: nested too deeply");
}

//===----------------------------------------------------------------------===//
// Bundles.
//===----------------------------------------------------------------------===//

/// A bundle with every field of the format set, and some of each twice.
Bundle everyField() {
  Bundle b;
  LaunchPlan &plan = b.plan;
  plan.kernel = "moe_ffn";
  plan.sizes = {"T", "D", "J", "routed(ids)"};
  plan.bindings = {{"D", 2048}, {"routed(ids)", 3016}};
  plan.derivedSizes = {{"routed(ids)", {{1, {"T", "J"}}, {-127, {}}}}};
  plan.buffers = {{"X", BufferRole::Input, DType::BF16, {{"T", 0}, {"", 2048}}},
                  {"Y", BufferRole::Output, DType::F32, {{"T", 0}}},
                  {"W", BufferRole::Workspace, DType::I64, {{"", 7}}},
                  {"alpha", BufferRole::Scalar, DType::F16, {}},
                  {"mask", BufferRole::Input, DType::Bool, {{"D", 0}}},
                  {"moe_ffn_route.partial0",
                   BufferRole::Workspace,
                   DType::F32,
                   {{"", 4}, {"T", 0}}}};
  plan.buffers.back().allocateWhen = Requirement{
      "T <= 127", SizeExpr::op("le", {SizeExpr::size("T"), SizeExpr::of(127)})};
  ProgramDesc plain;
  plain.name = "moe_ffn_route";
  plain.outputDims = {{"T", 0}, {"", 64}};
  plain.tile = {128, 64};
  plain.threads = 256;
  plain.launchWhen = Requirement{
      "T < 128", SizeExpr::op("lt", {SizeExpr::size("T"), SizeExpr::of(128)})};
  ProgramDesc tma;
  tma.name = "moe_ffn_G";
  tma.outputDims = {{"routed(ids)", 0}};
  tma.tile = {128};
  tma.threads = 384;
  tma.dynamicSharedBytes = 196672;
  tma.persistent = true;
  tma.tensorMaps = {{"X", {64, 128}, 128}, {"W", {32}, 0}};
  plan.programs = {plain, tma};
  b.target = "sm_90";
  b.chip = "sm_90a";
  // Every kind of byte a text may hold: quotes, backslashes, control
  // characters (NUL among them), DEL, UTF-8.
  static const char kPtx[] =
      ".entry moe_ffn_G(\"q\" \\ \t\n\r\x01\x7f\xc3\xa9)\0end";
  b.code["ptx"] = std::string(kPtx, sizeof kPtx - 1);
  // Every byte value, through base64.
  std::string library;
  for (int i = 0; i < 256; ++i)
    library += static_cast<char>(i);
  b.code["host_library"] = library + "\x7f" + "ELF";
  plan.requirements = {
      {"T % 8 == 0", SizeExpr::op("eq", {SizeExpr::op("rem",
                                                      {SizeExpr::size("T"),
                                                       SizeExpr::of(8)}),
                                         SizeExpr::of(0)})},
      {"D > 0", SizeExpr::op("gt", {SizeExpr::size("D"), SizeExpr::of(0)})}};
  b.explain = "remark: fused \"Mx\" into L\n";
  b.cpuFeatures = {"avx2", "fma"};
  return b;
}

void expectSameDims(const std::vector<Dim> &a, const std::vector<Dim> &b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].size, b[i].size);
    EXPECT_EQ(a[i].literal, b[i].literal);
  }
}

void expectSamePrograms(const ProgramDesc &a, const ProgramDesc &b) {
  EXPECT_EQ(a.name, b.name);
  expectSameDims(a.outputDims, b.outputDims);
  EXPECT_EQ(a.tile, b.tile);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.dynamicSharedBytes, b.dynamicSharedBytes);
  EXPECT_EQ(a.persistent, b.persistent);
  ASSERT_EQ(a.launchWhen.has_value(), b.launchWhen.has_value());
  if (a.launchWhen) {
    EXPECT_EQ(a.launchWhen->text, b.launchWhen->text);
    for (int64_t t : {127, 128}) {
      SizeValues sizes = {{"T", t}};
      EXPECT_EQ(a.launchesAt(sizes), b.launchesAt(sizes)) << t;
    }
  }
  ASSERT_EQ(a.tensorMaps.size(), b.tensorMaps.size());
  for (size_t i = 0; i < a.tensorMaps.size(); ++i) {
    EXPECT_EQ(a.tensorMaps[i].buffer, b.tensorMaps[i].buffer);
    EXPECT_EQ(a.tensorMaps[i].box, b.tensorMaps[i].box);
    EXPECT_EQ(a.tensorMaps[i].swizzleBytes, b.tensorMaps[i].swizzleBytes);
  }
}

void expectSameBundles(const Bundle &a, const Bundle &b) {
  EXPECT_EQ(a.formatVersion, b.formatVersion);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.chip, b.chip);
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.explain, b.explain);
  EXPECT_EQ(a.cpuFeatures, b.cpuFeatures);
  ASSERT_EQ(a.plan.requirements.size(), b.plan.requirements.size());
  for (size_t i = 0; i < a.plan.requirements.size(); ++i) {
    EXPECT_EQ(a.plan.requirements[i].text, b.plan.requirements[i].text);
    int64_t x = -1, y = -2;
    SizeValues sizes = {{"T", 24}, {"D", 5}};
    EXPECT_EQ(evaluate(a.plan.requirements[i].condition, sizes, x), "");
    EXPECT_EQ(evaluate(b.plan.requirements[i].condition, sizes, y), "");
    EXPECT_EQ(x, y);
  }
  EXPECT_EQ(a.plan.kernel, b.plan.kernel);
  EXPECT_EQ(a.plan.sizes, b.plan.sizes);
  EXPECT_EQ(a.plan.bindings, b.plan.bindings);
  ASSERT_EQ(a.plan.derivedSizes.size(), b.plan.derivedSizes.size());
  for (size_t i = 0; i < a.plan.derivedSizes.size(); ++i) {
    const DerivedSize &x = a.plan.derivedSizes[i], &y = b.plan.derivedSizes[i];
    EXPECT_EQ(x.name, y.name);
    ASSERT_EQ(x.terms.size(), y.terms.size());
    for (size_t t = 0; t < x.terms.size(); ++t) {
      EXPECT_EQ(x.terms[t].coefficient, y.terms[t].coefficient);
      EXPECT_EQ(x.terms[t].factors, y.terms[t].factors);
    }
  }
  ASSERT_EQ(a.plan.buffers.size(), b.plan.buffers.size());
  for (size_t i = 0; i < a.plan.buffers.size(); ++i) {
    const BufferDesc &x = a.plan.buffers[i], &y = b.plan.buffers[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.role, y.role);
    EXPECT_EQ(x.dtype, y.dtype);
    expectSameDims(x.dims, y.dims);
    ASSERT_EQ(x.allocateWhen.has_value(), y.allocateWhen.has_value());
    if (x.allocateWhen) {
      EXPECT_EQ(x.allocateWhen->text, y.allocateWhen->text);
      for (int64_t t : {127, 128}) {
        SizeValues sizes = {{"T", t}};
        EXPECT_EQ(extentsOf(x, sizes), extentsOf(y, sizes)) << t;
      }
    }
  }
  ASSERT_EQ(a.plan.programs.size(), b.plan.programs.size());
  for (size_t i = 0; i < a.plan.programs.size(); ++i)
    expectSamePrograms(a.plan.programs[i], b.plan.programs[i]);
}

std::string readError(std::string_view bytes) {
  Bundle b;
  std::string error;
  if (readBundle(bytes, b, error))
    return "(read)";
  return error;
}

/// `text` with its checksum made right again (after an edit).
std::string rechecksum(std::string text) {
  size_t at = text.find("\"fnv1a64:") + 9;
  text.replace(at, 16, std::string(16, '0'));
  text.replace(at, 16, hex64(fnv1a64(text)));
  return text;
}

/// `text` with the first `from` replaced by `to`.
std::string edit(std::string text, const std::string &from,
                 const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Bundle, RoundTripsEveryField) {
  Bundle original = everyField();
  std::string bytes = writeBundle(original);
  Bundle back;
  std::string error;
  ASSERT_TRUE(readBundle(bytes, back, error)) << error;
  expectSameBundles(original, back);
  EXPECT_EQ(writeBundle(back), bytes);
  EXPECT_EQ(bytes.back(), '\n');
  EXPECT_NE(bytes.find("\"format\": \"nautilus-bundle-5\""), std::string::npos);
}

TEST(Bundle, RejectsEveryTruncation) {
  std::string bytes = writeBundle(everyField());
  // Every cut before the closing brace ends the JSON early.
  for (size_t n = 0; n + 1 < bytes.size(); ++n) {
    std::string error = readError(std::string_view(bytes).substr(0, n));
    ASSERT_EQ(error.rfind("malformed JSON: line ", 0), 0u) << n << error;
    ASSERT_NE(error.find(": unexpected end of input (truncated?)"),
              std::string::npos)
        << n << ": " << error;
  }
  // Whole JSON without the final newline: only the checksum sees it.
  EXPECT_EQ(readError(bytes.substr(0, bytes.size() - 1))
                .rfind("checksum mismatch: the bundle says fnv1a64:", 0),
            0u);
}

TEST(Bundle, RejectsEveryFlippedByte) {
  std::string bytes = writeBundle(everyField());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x01;
    ASSERT_NE(readError(flipped), "(read)") << i;
  }
  std::string error =
      readError(edit(bytes, "\"threads\": 384", "\"threads\": 385"));
  EXPECT_EQ(error.rfind("checksum mismatch: the bundle says fnv1a64:", 0), 0u)
      << error;
  EXPECT_NE(error.find("(truncated or edited)"), std::string::npos);
  EXPECT_EQ(readError(edit(bytes, "fnv1a64:", "fnv1a32:")),
            "field 'checksum' is not \"fnv1a64:\" and 16 hexadecimal digits");
  EXPECT_EQ(readError(edit(bytes, "\"checksum\"", "\"checksun\"")),
            "missing field 'checksum'");
}

TEST(Bundle, RejectsOtherVersions) {
  std::string bytes = writeBundle(everyField());
  EXPECT_EQ(readError(rechecksum(
                edit(bytes, "nautilus-bundle-5", "nautilus-bundle-6"))),
            "unsupported bundle format 'nautilus-bundle-6' (this runtime "
            "reads nautilus-bundle-2 to nautilus-bundle-5)");
  EXPECT_EQ(readError(edit(bytes, "nautilus-bundle-5", "nautilus-bundle-1")),
            "unsupported bundle format 'nautilus-bundle-1' (this runtime "
            "reads nautilus-bundle-2 to nautilus-bundle-5)");
  EXPECT_EQ(readError(edit(bytes, "\"nautilus-bundle-5\"", "5")),
            "unsupported bundle format an integer (this runtime reads "
            "nautilus-bundle-2 to nautilus-bundle-5)");
  EXPECT_EQ(readError(edit(bytes, "\"format\"", "\"formal\"")),
            "missing field 'format' (not a nautilus bundle?)");
}

/// Version 4 had no conditional workspaces; its bundles still read, every
/// workspace allocated (a version 4 field of that name is not read).
TEST(Bundle, ReadsVersion4) {
  std::string bytes = writeBundle(everyField());
  Bundle back;
  std::string error;
  ASSERT_TRUE(readBundle(
      rechecksum(edit(bytes, "nautilus-bundle-5", "nautilus-bundle-4")), back,
      error))
      << error;
  EXPECT_EQ(back.formatVersion, 4);
  for (const BufferDesc &b : back.plan.buffers)
    EXPECT_FALSE(b.allocateWhen) << b.name;
  EXPECT_TRUE(back.plan.programs.front().launchWhen);
}

/// Version 3 had no launch conditions; its bundles still read, every
/// program launched (a version 3 field of that name is not read).
TEST(Bundle, ReadsVersion3) {
  std::string bytes = writeBundle(everyField());
  Bundle back;
  std::string error;
  ASSERT_TRUE(readBundle(
      rechecksum(edit(bytes, "nautilus-bundle-5", "nautilus-bundle-3")), back,
      error))
      << error;
  EXPECT_EQ(back.formatVersion, 3);
  for (const ProgramDesc &p : back.plan.programs)
    EXPECT_FALSE(p.launchWhen) << p.name;
}

/// Version 2 had no requirements; its bundles still read, with none.
TEST(Bundle, ReadsVersion2) {
  Bundle b = everyField();
  b.plan.requirements.clear();
  for (ProgramDesc &p : b.plan.programs)
    p.launchWhen.reset();
  for (BufferDesc &w : b.plan.buffers)
    w.allocateWhen.reset();
  std::string bytes = writeBundle(b);
  size_t from = bytes.find("  \"requirements\": []");
  ASSERT_NE(from, std::string::npos);
  bytes.erase(from, bytes.find('\n', from) - from + 1);
  Bundle back;
  std::string error;
  ASSERT_TRUE(readBundle(
      rechecksum(edit(bytes, "nautilus-bundle-5", "nautilus-bundle-2")), back,
      error))
      << error;
  EXPECT_EQ(back.formatVersion, 2);
  EXPECT_TRUE(back.plan.requirements.empty());
}

TEST(Bundle, NamesWrongRequirementsAndCode) {
  std::string bytes = writeBundle(everyField());
  auto edited = [&](const std::string &from, const std::string &to) {
    return readError(rechecksum(edit(bytes, from, to)));
  };
  EXPECT_EQ(edited("\"gt\"", "\"greater\""),
            "field 'requirements[1].condition' applies 'greater' to 2 "
            "operands, which is no size operation");
  EXPECT_EQ(
      edited("\"condition\": [\n        \"eq\"", "\"cond\": [\n        \"eq\""),
      "missing field 'requirements[0].condition'");
  EXPECT_EQ(edited("\"host_library\": \"", "\"host_library\": \"!"),
            "field 'host_library' is not base64");
  // A launch condition read as a requirement is, and names only the
  // plan's sizes.
  EXPECT_EQ(edited("\"lt\"", "\"less\""),
            "field 'programs[0].launch_when.condition' applies 'less' to 2 "
            "operands, which is no size operation");
  Bundle unknown = everyField();
  unknown.plan.programs[0].launchWhen->condition.operands[0].name = "Q";
  EXPECT_EQ(readError(writeBundle(unknown)),
            "inconsistent bundle: program 'moe_ffn_route' is launched under "
            "'T < 128', which uses an unknown size 'Q'");
  unknown = everyField();
  unknown.plan.buffers.back().allocateWhen->condition.operands[0].name = "Q";
  EXPECT_EQ(readError(writeBundle(unknown)),
            "inconsistent bundle: workspace 'moe_ffn_route.partial0' is "
            "allocated under 'T <= 127', which uses an unknown size 'Q'");
  // Only a workspace is allocated under a condition.
  EXPECT_EQ(edited("\"moe_ffn_route.partial0\",\n      \"role\": \"workspace\"",
                   "\"moe_ffn_route.partial0\",\n      \"role\": \"output\""),
            "field 'buffers[5].allocate_when' is on a output buffer; only "
            "workspaces have one");
  unknown = everyField();
  unknown.plan.requirements[1].condition.operands[0].name = "Q";
  EXPECT_EQ(readError(writeBundle(unknown)),
            "inconsistent bundle: requirement 'D > 0' uses an unknown size "
            "'Q'");
}

TEST(Bundle, RejectsMalformedJson) {
  EXPECT_EQ(readError(""), "malformed JSON: line 1, column 1: unexpected end "
                           "of input (truncated?)");
  EXPECT_EQ(readError("[]"),
            "not a bundle: the document is an array, not an object");
  std::string bytes = writeBundle(everyField());
  std::string error = readError(edit(bytes, "\"kernel\":", "\"kernel\""));
  EXPECT_EQ(error.rfind("malformed JSON: line ", 0), 0u) << error;
  EXPECT_NE(error.find(": expected ':' after a key"), std::string::npos);
}

TEST(Bundle, NamesMissingAndWrongFields) {
  std::string bytes = writeBundle(everyField());
  auto edited = [&](const std::string &from, const std::string &to) {
    return readError(rechecksum(edit(bytes, from, to)));
  };
  EXPECT_EQ(edited("\"threads\": 384", "\"thread\": 384"),
            "missing field 'programs[1].threads'");
  EXPECT_EQ(edited("\"threads\": 384", "\"threads\": 0"),
            "field 'programs[1].threads' is 0, expected at least 1");
  EXPECT_EQ(edited("\"swizzle_bytes\": 0", "\"swizzle_bytes\": \"0\""),
            "field 'programs[1].tensor_maps[1].swizzle_bytes' is a string, "
            "expected an integer");
  EXPECT_EQ(edited("\"role\": \"workspace\"", "\"role\": \"scratch\""),
            "field 'buffers[2].role' is 'scratch', expected input, output, "
            "workspace or scalar");
  EXPECT_EQ(edited("\"dtype\": \"bf16\"", "\"dtype\": \"f8\""),
            "field 'buffers[0].dtype' is 'f8', not a dtype (f16, bf16, f32, "
            "f64, i8, i32, i64, bool)");
  EXPECT_EQ(edited("\"coefficient\": 1", "\"coefficient\": true"),
            "field 'derived_sizes[0].terms[0].coefficient' is a boolean, "
            "expected an integer");
  EXPECT_EQ(edited("\"D\": 2048", "\"D\": null"),
            "field 'bindings.D' is null, expected an integer");
  EXPECT_EQ(edited("\"tile\": [\n        128\n      ]", "\"tile\": [0]"),
            "field 'programs[1].tile' has an extent below 1");
  EXPECT_EQ(edited("\"tile\": [\n        128\n      ]", "\"tile\": []"),
            "field 'programs[1].tile' has 0 extents for 1 output dims");
  EXPECT_EQ(edited("\"chip\"", "\"chips\""), "missing field 'chip'");
  {
    Bundle noCode = everyField();
    noCode.code.erase("host_library");
    std::string text = writeBundle(noCode);
    EXPECT_EQ(readError(rechecksum(edit(text, "\"ptx\"", "\"cubin\""))),
              "missing the kernels' code (a field 'ptx', 'nvvm_ir', 'hsaco' "
              "or 'host_library')");
  }
}

/// What `nautc compile --emit bundle` writes reads back, and is what the
/// compilation planned.
TEST(Bundle, ReadsWhatNautcWrites) {
  test::ExampleKernel gemm("gemm.tensor", "gemm",
                           {{"M", 256}, {"N", 192}, {"K", 128}});
  ASSERT_TRUE(gemm.loaded());
  std::optional<TargetInfo> target = getTarget("sm_90", 1);
  ASSERT_TRUE(target);
  Compilation compilation(gemm.module(), *target);
  std::string bytes;
  ASSERT_TRUE(
      mlir::succeeded(emitArtifact(compilation, Artifact::Bundle, bytes)));
  Bundle back;
  std::string error;
  ASSERT_TRUE(readBundle(bytes, back, error)) << error;
  EXPECT_EQ(back.target, target->name);
  EXPECT_EQ(back.chip, target->chip);
  EXPECT_NE(back.code.at("ptx").find(".entry gemm_C("), std::string::npos);
  Bundle planned;
  planned.plan = compilation.launchPlan();
  planned.target = back.target;
  planned.chip = back.chip;
  planned.code = back.code;
  expectSameBundles(planned, back);
  EXPECT_EQ(writeBundle(back), bytes);
}

} // namespace
