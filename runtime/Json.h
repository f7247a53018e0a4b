//===- Json.h - A small JSON reader and writer ------------------*- C++ -*-===//
//
// The JSON the runtime's own files need (bundles, Bundle.h), without LLVM:
// objects, arrays, strings with every escape (\uXXXX with surrogate pairs
// becomes UTF-8), integers (64-bit, signed), true, false and null. Numbers
// with a fraction or an exponent are rejected: no runtime file has one.
//
// The reader treats its input as untrusted: every access is bounds-checked,
// nesting is limited (kMaxDepth), duplicate keys and trailing bytes other
// than whitespace are errors, and an error says what is wrong and where
// (line and column). Bytes of 0x80 and above inside strings are kept as
// they are (not checked as UTF-8). Each value records the byte range of its
// text in the input, so that a caller can find what it read (a checksum's
// digits, say).
//
// The writer prints as LLVM's `formatv("{0:2}", json::Value)` does: keys in
// byte order, two spaces of indentation, `[]` and `{}` when empty, the
// escapes \" \\ \t \n \r and \u00XX for the other control characters.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_JSON_H
#define NAUTILUS_RUNTIME_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nautilus::rt::json {

enum class Kind { Null, Bool, Int, String, Array, Object };

/// "null", "a boolean", "an integer", "a string", "an array", "an object".
const char *kindName(Kind kind);

struct Value {
  Kind kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0;
  std::string string;
  std::vector<Value> elements; // an array's
  /// An object's members, in the order of the text (or of insertion).
  std::vector<std::string> keys;
  std::vector<Value> members;
  /// The value's text in the parsed input: [begin, end) (0, 0 when built).
  size_t begin = 0, end = 0;

  Value() = default;
  static Value makeBool(bool b);
  static Value makeInt(int64_t i);
  static Value makeString(std::string s);
  static Value makeArray(std::vector<Value> elements = {});
  static Value makeObject();

  /// An object's member `key`, or null when there is none.
  const Value *find(std::string_view key) const;
  /// Adds (or replaces) an object's member.
  void set(std::string key, Value value);
};

/// The deepest nesting of arrays and objects the reader accepts.
constexpr int kMaxDepth = 64;

/// Parses `text` (one value, surrounded by whitespace only). On failure
/// returns false and sets `error` to "line L, column C: what is wrong";
/// `out` is unspecified then.
bool parse(std::string_view text, Value &out, std::string &error);

/// `value` as pretty-printed JSON (see above), without a final newline.
std::string write(const Value &value);

} // namespace nautilus::rt::json

#endif // NAUTILUS_RUNTIME_JSON_H
