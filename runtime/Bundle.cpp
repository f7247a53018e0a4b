//===- Bundle.cpp - A compiled kernel as one checksummed file -------------===//

#include "runtime/Bundle.h"
#include "runtime/Base64.h"
#include "runtime/Hash.h"
#include "runtime/Json.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <set>

namespace nautilus::rt {

namespace {

using json::Kind;
using json::Value;

const char *const kRoleNames[] = {"input", "output", "workspace", "scalar"};
constexpr std::string_view kChecksumPrefix = "fnv1a64:";
constexpr size_t kChecksumDigits = 16;

std::string formatName(int version) {
  return "nautilus-bundle-" + std::to_string(version);
}

//===----------------------------------------------------------------------===//
// Writing.
//===----------------------------------------------------------------------===//

Value stringsJson(const std::vector<std::string> &strings) {
  Value out = Value::makeArray();
  for (const std::string &s : strings)
    out.elements.push_back(Value::makeString(s));
  return out;
}

Value intsJson(const std::vector<int64_t> &ints) {
  Value out = Value::makeArray();
  for (int64_t i : ints)
    out.elements.push_back(Value::makeInt(i));
  return out;
}

Value dimsJson(const std::vector<Dim> &dims) {
  Value out = Value::makeArray();
  for (const Dim &d : dims)
    out.elements.push_back(d.isLiteral() ? Value::makeInt(d.literal)
                                         : Value::makeString(d.size));
  return out;
}

Value derivedJson(const DerivedSize &d) {
  Value terms = Value::makeArray();
  for (const DerivedSize::Term &t : d.terms) {
    Value term = Value::makeObject();
    term.set("coefficient", Value::makeInt(t.coefficient));
    term.set("factors", stringsJson(t.factors));
    terms.elements.push_back(std::move(term));
  }
  Value out = Value::makeObject();
  out.set("name", Value::makeString(d.name));
  out.set("terms", std::move(terms));
  return out;
}

Value requirementJson(const Requirement &r);

Value bufferJson(const BufferDesc &b) {
  Value out = Value::makeObject();
  out.set("name", Value::makeString(b.name));
  out.set("role", Value::makeString(kRoleNames[static_cast<int>(b.role)]));
  out.set("dtype", Value::makeString(dtypeName(b.dtype)));
  out.set("dims", dimsJson(b.dims));
  if (b.allocateWhen)
    out.set("allocate_when", requirementJson(*b.allocateWhen));
  return out;
}

Value exprJson(const SizeExpr &e) {
  switch (e.kind) {
  case SizeExpr::Kind::Constant:
    return Value::makeInt(e.constant);
  case SizeExpr::Kind::Size:
    return Value::makeString(e.name);
  case SizeExpr::Kind::Operation:
    break;
  }
  Value out = Value::makeArray({Value::makeString(e.name)});
  for (const SizeExpr &o : e.operands)
    out.elements.push_back(exprJson(o));
  return out;
}

Value requirementJson(const Requirement &r) {
  Value out = Value::makeObject();
  out.set("text", Value::makeString(r.text));
  out.set("condition", exprJson(r.condition));
  return out;
}

Value requirementsJson(const std::vector<Requirement> &requirements) {
  Value out = Value::makeArray();
  for (const Requirement &r : requirements)
    out.elements.push_back(requirementJson(r));
  return out;
}

Value programJson(const ProgramDesc &p) {
  Value maps = Value::makeArray();
  for (const TensorMapDesc &m : p.tensorMaps) {
    Value map = Value::makeObject();
    map.set("buffer", Value::makeString(m.buffer));
    map.set("box", intsJson(m.box));
    map.set("swizzle_bytes", Value::makeInt(m.swizzleBytes));
    maps.elements.push_back(std::move(map));
  }
  Value out = Value::makeObject();
  out.set("name", Value::makeString(p.name));
  out.set("output_dims", dimsJson(p.outputDims));
  out.set("tile", intsJson(p.tile));
  out.set("threads", Value::makeInt(p.threads));
  out.set("dynamic_shared_bytes", Value::makeInt(p.dynamicSharedBytes));
  out.set("persistent", Value::makeBool(p.persistent));
  out.set("tensor_maps", std::move(maps));
  if (p.launchWhen)
    out.set("launch_when", requirementJson(*p.launchWhen));
  return out;
}

Value planJson(const LaunchPlan &plan) {
  Value bindings = Value::makeObject();
  for (const auto &[name, value] : plan.bindings)
    bindings.set(name, Value::makeInt(value));
  Value derived = Value::makeArray(), buffers = Value::makeArray(),
        programs = Value::makeArray();
  for (const DerivedSize &d : plan.derivedSizes)
    derived.elements.push_back(derivedJson(d));
  for (const BufferDesc &b : plan.buffers)
    buffers.elements.push_back(bufferJson(b));
  for (const ProgramDesc &p : plan.programs)
    programs.elements.push_back(programJson(p));
  Value out = Value::makeObject();
  out.set("kernel", Value::makeString(plan.kernel));
  out.set("sizes", stringsJson(plan.sizes));
  out.set("bindings", std::move(bindings));
  out.set("derived_sizes", std::move(derived));
  out.set("buffers", std::move(buffers));
  out.set("programs", std::move(programs));
  out.set("requirements", requirementsJson(plan.requirements));
  return out;
}

bool isCodeKind(std::string_view kind) {
  for (const char *known : kCodeKinds)
    if (kind == known)
      return true;
  return false;
}

} // namespace

std::string writeBundle(const Bundle &bundle) {
  Value doc = planJson(bundle.plan);
  doc.set("format", Value::makeString(formatName(kBundleFormatVersion)));
  doc.set("target", Value::makeString(bundle.target));
  doc.set("chip", Value::makeString(bundle.chip));
  for (const auto &[kind, code] : bundle.code)
    if (isCodeKind(kind))
      doc.set(kind, Value::makeString(
                        isBinaryCodeKind(kind) ? base64Encode(code) : code));
  if (!bundle.explain.empty())
    doc.set("explain", Value::makeString(bundle.explain));
  if (!bundle.cpuFeatures.empty())
    doc.set("cpu_features", stringsJson(bundle.cpuFeatures));
  // The checksum covers the whole document as written with its own digits
  // zero (readBundle zeroes them again to verify); the digits are then
  // written over the zeros.
  std::string zeros(kChecksumDigits, '0');
  doc.set("checksum", Value::makeString(std::string(kChecksumPrefix) + zeros));
  std::string text = json::write(doc) + "\n";
  // The document's first "checksum" key is the top-level one: the keys
  // before it ("bindings", "buffers") hold no string with an unescaped quote.
  std::string zeroedField =
      "\"checksum\": \"" + std::string(kChecksumPrefix) + zeros + "\"";
  size_t at = text.find(zeroedField);
  std::string digits = hex64(fnv1a64(text));
  text.replace(at + zeroedField.size() - 1 - kChecksumDigits, kChecksumDigits,
               digits);
  return text;
}

//===----------------------------------------------------------------------===//
// Reading.
//===----------------------------------------------------------------------===//

namespace {

/// Reads the fields of a parsed bundle; the first error wins.
class FieldReader {
public:
  std::string error;

  /// `obj`'s member `key` (`path` names `obj`, "" for the document), which
  /// must be of `kind`; null (with an error) otherwise.
  const Value *member(const Value &obj, const std::string &path,
                      const char *key, Kind kind) {
    std::string name = path.empty() ? key : path + "." + key;
    const Value *v = obj.find(key);
    if (!v)
      return fail("missing field '" + name + "'"), nullptr;
    return expect(*v, name, kind) ? v : nullptr;
  }

  bool expect(const Value &v, const std::string &name, Kind kind) {
    if (v.kind == kind)
      return true;
    return fail("field '" + name + "' is " + json::kindName(v.kind) +
                ", expected " + json::kindName(kind));
  }

  bool fail(std::string what) {
    if (error.empty())
      error = std::move(what);
    return false;
  }

  bool readString(const Value &obj, const std::string &path, const char *key,
                  std::string &out) {
    const Value *v = member(obj, path, key, Kind::String);
    return v && (out = v->string, true);
  }

  bool readInt(const Value &obj, const std::string &path, const char *key,
               int64_t &out, int64_t min) {
    const Value *v = member(obj, path, key, Kind::Int);
    if (!v)
      return false;
    if (v->integer < min)
      return fail("field '" + (path.empty() ? key : path + "." + key) +
                  "' is " + std::to_string(v->integer) +
                  ", expected at least " + std::to_string(min));
    out = v->integer;
    return true;
  }

  /// An array member whose elements are each read by `each(element, name)`.
  template <typename F>
  bool readArray(const Value &obj, const std::string &path, const char *key,
                 F each) {
    const Value *v = member(obj, path, key, Kind::Array);
    if (!v)
      return false;
    std::string name = path.empty() ? key : path + "." + key;
    for (size_t i = 0; i < v->elements.size(); ++i)
      if (!each(v->elements[i], name + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool readStrings(const Value &obj, const std::string &path, const char *key,
                   std::vector<std::string> &out) {
    return readArray(obj, path, key, [&](const Value &e, const auto &name) {
      return expect(e, name, Kind::String) && (out.push_back(e.string), true);
    });
  }

  bool readInts(const Value &obj, const std::string &path, const char *key,
                std::vector<int64_t> &out) {
    return readArray(obj, path, key, [&](const Value &e, const auto &name) {
      return expect(e, name, Kind::Int) && (out.push_back(e.integer), true);
    });
  }

  bool readDims(const Value &obj, const std::string &path, const char *key,
                std::vector<Dim> &out) {
    return readArray(obj, path, key, [&](const Value &e, const auto &name) {
      if (e.kind == Kind::Int)
        return out.push_back(Dim{"", e.integer}), true;
      if (e.kind == Kind::String && !e.string.empty())
        return out.push_back(Dim{e.string, 0}), true;
      return fail("field '" + name + "' is " + json::kindName(e.kind) +
                  ", expected a size name or an integer");
    });
  }

  bool readExpr(const Value &v, const std::string &path, SizeExpr &out,
                int depth = 0);
  bool readDerived(const Value &v, const std::string &path, DerivedSize &out);
  bool readBuffer(const Value &v, const std::string &path, BufferDesc &out);
  bool readProgram(const Value &v, const std::string &path, ProgramDesc &out);
  bool readRequirement(const Value &v, const std::string &path,
                       Requirement &out);
  /// A program's optional `launch_when` (version 4 on).
  bool readLaunchWhen(const Value &program, const std::string &path,
                      ProgramDesc &out);
  /// A workspace's optional `allocate_when` (version 5 on).
  bool readAllocateWhen(const Value &buffer, const std::string &path,
                        BufferDesc &out);
  bool readPlan(const Value &doc, LaunchPlan &out, int version);
};

bool FieldReader::readExpr(const Value &v, const std::string &path,
                           SizeExpr &out, int depth) {
  if (v.kind == Kind::Int)
    return out = SizeExpr::of(v.integer), true;
  if (v.kind == Kind::String && !v.string.empty())
    return out = SizeExpr::size(v.string), true;
  if (v.kind != Kind::Array || v.elements.empty() ||
      v.elements[0].kind != Kind::String)
    return fail("field '" + path +
                "' is not a size expression (an integer, a size name or "
                "[operation, operands...])");
  out = SizeExpr::op(v.elements[0].string, {});
  if (!isSizeOperation(out.name, v.elements.size() - 1))
    return fail("field '" + path + "' applies '" + out.name + "' to " +
                std::to_string(v.elements.size() - 1) +
                " operands, which is no size operation");
  if (depth >= json::kMaxDepth)
    return fail("field '" + path + "' nests too deeply");
  out.operands.resize(v.elements.size() - 1);
  for (size_t i = 1; i < v.elements.size(); ++i)
    if (!readExpr(v.elements[i], path + "[" + std::to_string(i) + "]",
                  out.operands[i - 1], depth + 1))
      return false;
  return true;
}

bool FieldReader::readDerived(const Value &v, const std::string &path,
                              DerivedSize &out) {
  return expect(v, path, Kind::Object) &&
         readString(v, path, "name", out.name) &&
         readArray(v, path, "terms", [&](const Value &t, const auto &name) {
           DerivedSize::Term term;
           bool ok = expect(t, name, Kind::Object) &&
                     readInt(t, name, "coefficient", term.coefficient,
                             std::numeric_limits<int64_t>::min()) &&
                     readStrings(t, name, "factors", term.factors);
           out.terms.push_back(std::move(term));
           return ok;
         });
}

bool FieldReader::readBuffer(const Value &v, const std::string &path,
                             BufferDesc &out) {
  std::string role, dtype;
  if (!expect(v, path, Kind::Object) ||
      !readString(v, path, "name", out.name) ||
      !readString(v, path, "role", role) ||
      !readString(v, path, "dtype", dtype) ||
      !readDims(v, path, "dims", out.dims))
    return false;
  const auto *known = std::find(std::begin(kRoleNames), std::end(kRoleNames),
                                std::string_view(role));
  if (known == std::end(kRoleNames))
    return fail("field '" + path + ".role' is '" + role +
                "', expected input, output, workspace or scalar");
  out.role = static_cast<BufferRole>(known - std::begin(kRoleNames));
  std::optional<DType> parsed = parseDType(dtype);
  if (!parsed)
    return fail("field '" + path + ".dtype' is '" + dtype +
                "', not a dtype (f16, bf16, f32, f64, i8, i32, i64, bool)");
  out.dtype = *parsed;
  return true;
}

bool FieldReader::readProgram(const Value &v, const std::string &path,
                              ProgramDesc &out) {
  const Value *persistent;
  bool ok =
      expect(v, path, Kind::Object) && readString(v, path, "name", out.name) &&
      readDims(v, path, "output_dims", out.outputDims) &&
      readInts(v, path, "tile", out.tile) &&
      readInt(v, path, "threads", out.threads, 1) &&
      readInt(v, path, "dynamic_shared_bytes", out.dynamicSharedBytes, 0) &&
      (persistent = member(v, path, "persistent", Kind::Bool)) &&
      readArray(v, path, "tensor_maps", [&](const Value &m, const auto &name) {
        TensorMapDesc map;
        bool mapOk = expect(m, name, Kind::Object) &&
                     readString(m, name, "buffer", map.buffer) &&
                     readInts(m, name, "box", map.box) &&
                     readInt(m, name, "swizzle_bytes", map.swizzleBytes, 0);
        out.tensorMaps.push_back(std::move(map));
        return mapOk;
      });
  if (!ok)
    return false;
  out.persistent = persistent->boolean;
  if (out.tile.size() != out.outputDims.size())
    return fail("field '" + path + ".tile' has " +
                std::to_string(out.tile.size()) + " extents for " +
                std::to_string(out.outputDims.size()) + " output dims");
  for (int64_t t : out.tile)
    if (t < 1)
      return fail("field '" + path + ".tile' has an extent below 1");
  return true;
}

bool FieldReader::readRequirement(const Value &v, const std::string &path,
                                  Requirement &out) {
  if (!expect(v, path, Kind::Object) || !readString(v, path, "text", out.text))
    return false;
  const Value *condition = v.find("condition");
  if (!condition)
    return fail("missing field '" + path + ".condition'");
  return readExpr(*condition, path + ".condition", out.condition);
}

bool FieldReader::readLaunchWhen(const Value &program, const std::string &path,
                                 ProgramDesc &out) {
  const Value *when = program.find("launch_when");
  if (!when)
    return true;
  out.launchWhen.emplace();
  return readRequirement(*when, path + ".launch_when", *out.launchWhen);
}

bool FieldReader::readAllocateWhen(const Value &buffer, const std::string &path,
                                   BufferDesc &out) {
  const Value *when = buffer.find("allocate_when");
  if (!when)
    return true;
  if (out.role != BufferRole::Workspace)
    return fail("field '" + path + ".allocate_when' is on a " +
                kRoleNames[static_cast<int>(out.role)] +
                " buffer; only workspaces have one");
  out.allocateWhen.emplace();
  return readRequirement(*when, path + ".allocate_when", *out.allocateWhen);
}

bool FieldReader::readPlan(const Value &doc, LaunchPlan &out, int version) {
  if (version >= 3 &&
      !readArray(doc, "", "requirements",
                 [&](const Value &r, const std::string &name) {
                   out.requirements.emplace_back();
                   return readRequirement(r, name, out.requirements.back());
                 }))
    return false;
  if (!readString(doc, "", "kernel", out.kernel) ||
      !readStrings(doc, "", "sizes", out.sizes))
    return false;
  const Value *bindings = member(doc, "", "bindings", Kind::Object);
  if (!bindings)
    return false;
  for (size_t i = 0; i < bindings->keys.size(); ++i) {
    const std::string &size = bindings->keys[i];
    if (!expect(bindings->members[i], "bindings." + size, Kind::Int))
      return false;
    out.bindings[size] = bindings->members[i].integer;
  }
  return readArray(doc, "", "derived_sizes",
                   [&](const Value &d, const std::string &name) {
                     out.derivedSizes.emplace_back();
                     return readDerived(d, name, out.derivedSizes.back());
                   }) &&
         readArray(doc, "", "buffers",
                   [&](const Value &b, const std::string &name) {
                     out.buffers.emplace_back();
                     return readBuffer(b, name, out.buffers.back()) &&
                            (version < 5 ||
                             readAllocateWhen(b, name, out.buffers.back()));
                   }) &&
         readArray(doc, "", "programs",
                   [&](const Value &p, const std::string &name) {
                     out.programs.emplace_back();
                     return readProgram(p, name, out.programs.back()) &&
                            (version < 4 ||
                             readLaunchWhen(p, name, out.programs.back()));
                   });
}

/// The first size `e` names that is not in `known`; "" where none.
std::string unknownSizeOf(const SizeExpr &e,
                          const std::set<std::string> &known) {
  if (e.kind == SizeExpr::Kind::Size)
    return known.count(e.name) ? "" : e.name;
  for (const SizeExpr &o : e.operands)
    if (std::string u = unknownSizeOf(o, known); !u.empty())
      return u;
  return "";
}

/// What the fields say of each other: every size a dimension, a derived
/// size, a requirement or a launch condition names is one of the plan's
/// (or bound), and every tensor map maps a buffer of the plan with one box
/// extent a dimension. "" or the first inconsistency.
std::string checkConsistent(const LaunchPlan &plan) {
  std::set<std::string> known(plan.sizes.begin(), plan.sizes.end());
  for (const auto &[name, value] : plan.bindings)
    known.insert(name);
  auto unknown = [&](const std::vector<Dim> &dims) -> std::string {
    for (const Dim &d : dims)
      if (!d.isLiteral() && !known.count(d.size))
        return d.size;
    return "";
  };
  for (const DerivedSize &d : plan.derivedSizes)
    for (const DerivedSize::Term &t : d.terms)
      for (const std::string &f : t.factors)
        if (!known.count(f))
          return "derived size '" + d.name + "' uses an unknown size '" + f +
                 "'";
  for (const BufferDesc &b : plan.buffers) {
    if (std::string u = unknown(b.dims); !u.empty())
      return "buffer '" + b.name + "' has an unknown size '" + u + "'";
    if (b.allocateWhen)
      if (std::string u = unknownSizeOf(b.allocateWhen->condition, known);
          !u.empty())
        return "workspace '" + b.name + "' is allocated under '" +
               b.allocateWhen->text + "', which uses an unknown size '" + u +
               "'";
  }
  for (const Requirement &r : plan.requirements)
    if (std::string u = unknownSizeOf(r.condition, known); !u.empty())
      return "requirement '" + r.text + "' uses an unknown size '" + u + "'";
  for (const ProgramDesc &p : plan.programs) {
    if (std::string u = unknown(p.outputDims); !u.empty())
      return "program '" + p.name + "' has an unknown size '" + u + "'";
    if (p.launchWhen)
      if (std::string u = unknownSizeOf(p.launchWhen->condition, known);
          !u.empty())
        return "program '" + p.name + "' is launched under '" +
               p.launchWhen->text + "', which uses an unknown size '" + u + "'";
    for (const TensorMapDesc &m : p.tensorMaps) {
      auto b =
          std::find_if(plan.buffers.begin(), plan.buffers.end(),
                       [&](const BufferDesc &x) { return x.name == m.buffer; });
      if (b == plan.buffers.end() || b->role == BufferRole::Scalar)
        return "program '" + p.name + "' maps an unknown buffer '" + m.buffer +
               "'";
      if (m.box.size() != b->dims.size())
        return "program '" + p.name + "' maps '" + m.buffer + "' with " +
               std::to_string(m.box.size()) + " box extents for " +
               std::to_string(b->dims.size()) + " dimensions";
    }
  }
  return "";
}

/// The version `doc` names, when this runtime reads it.
bool checkFormat(const Value &doc, Bundle &out, std::string &error) {
  const Value *format = doc.find("format");
  if (!format) {
    error = "missing field 'format' (not a nautilus bundle?)";
    return false;
  }
  for (int version = kOldestBundleFormatVersion;
       version <= kBundleFormatVersion; ++version)
    if (format->kind == Kind::String && format->string == formatName(version)) {
      out.formatVersion = version;
      return true;
    }
  error = "unsupported bundle format ";
  error += format->kind == Kind::String
               ? "'" + format->string + "'"
               : std::string(json::kindName(format->kind));
  error += " (this runtime reads " + formatName(kOldestBundleFormatVersion) +
           " to " + formatName(kBundleFormatVersion) + ")";
  return false;
}

/// Whether the checksum `doc` carries is that of `bytes`.
bool checkChecksum(std::string_view bytes, const Value &doc,
                   std::string &error) {
  const Value *sum = doc.find("checksum");
  if (!sum) {
    error = "missing field 'checksum'";
    return false;
  }
  std::string_view written = bytes.substr(sum->begin, sum->end - sum->begin);
  bool wellFormed =
      sum->kind == Kind::String &&
      sum->string.size() == kChecksumPrefix.size() + kChecksumDigits &&
      sum->string.compare(0, kChecksumPrefix.size(), kChecksumPrefix) == 0 &&
      sum->string.find_first_not_of(
          "0123456789abcdef", kChecksumPrefix.size()) == std::string::npos &&
      written.size() == sum->string.size() + 2;
  if (!wellFormed) {
    error = "field 'checksum' is not \"fnv1a64:\" and 16 hexadecimal digits";
    return false;
  }
  std::string zeroed(bytes);
  zeroed.replace(sum->end - 1 - kChecksumDigits, kChecksumDigits,
                 kChecksumDigits, '0');
  std::string actual = std::string(kChecksumPrefix) + hex64(fnv1a64(zeroed));
  if (actual == sum->string)
    return true;
  error = "checksum mismatch: the bundle says " + sum->string +
          ", its content hashes to " + actual + " (truncated or edited)";
  return false;
}

} // namespace

bool readBundle(std::string_view bytes, Bundle &out, std::string &error) {
  Value doc;
  std::string parseError;
  if (!json::parse(bytes, doc, parseError)) {
    error = "malformed JSON: " + parseError;
    return false;
  }
  if (doc.kind != Kind::Object) {
    error = std::string("not a bundle: the document is ") +
            json::kindName(doc.kind) + ", not an object";
    return false;
  }
  out = Bundle();
  if (!checkFormat(doc, out, error) || !checkChecksum(bytes, doc, error))
    return false;
  FieldReader reader;
  if (!reader.readString(doc, "", "target", out.target) ||
      !reader.readString(doc, "", "chip", out.chip) ||
      !reader.readPlan(doc, out.plan, out.formatVersion)) {
    error = reader.error;
    return false;
  }
  if (std::string e = checkConsistent(out.plan); !e.empty()) {
    error = "inconsistent bundle: " + e;
    return false;
  }
  for (const char *kind : kCodeKinds) {
    if (const Value *code = doc.find(kind)) {
      if (!reader.expect(*code, kind, Kind::String)) {
        error = reader.error;
        return false;
      }
      if (!isBinaryCodeKind(kind))
        out.code[kind] = code->string;
      else if (!base64Decode(code->string, out.code[kind])) {
        error = std::string("field '") + kind + "' is not base64";
        return false;
      }
    }
  }
  if (out.code.empty()) {
    error = "missing the kernels' code (a field 'ptx', 'nvvm_ir', 'hsaco' "
            "or 'host_library')";
    return false;
  }
  if (doc.find("cpu_features") &&
      !reader.readStrings(doc, "", "cpu_features", out.cpuFeatures)) {
    error = reader.error;
    return false;
  }
  if (const Value *explain = doc.find("explain")) {
    if (!reader.expect(*explain, "explain", Kind::String)) {
      error = reader.error;
      return false;
    }
    out.explain = explain->string;
  }
  return true;
}

} // namespace nautilus::rt
