//===- Json.cpp - A small JSON reader and writer --------------------------===//

#include "runtime/Json.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>

namespace nautilus::rt::json {

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Int:
    return "an integer";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

Value Value::makeBool(bool b) {
  Value v;
  v.kind = Kind::Bool;
  v.boolean = b;
  return v;
}

Value Value::makeInt(int64_t i) {
  Value v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}

Value Value::makeString(std::string s) {
  Value v;
  v.kind = Kind::String;
  v.string = std::move(s);
  return v;
}

Value Value::makeArray(std::vector<Value> elements) {
  Value v;
  v.kind = Kind::Array;
  v.elements = std::move(elements);
  return v;
}

Value Value::makeObject() {
  Value v;
  v.kind = Kind::Object;
  return v;
}

const Value *Value::find(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key)
      return &members[i];
  return nullptr;
}

void Value::set(std::string key, Value value) {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) {
      members[i] = std::move(value);
      return;
    }
  }
  keys.push_back(std::move(key));
  members.push_back(std::move(value));
}

//===----------------------------------------------------------------------===//
// Reading.
//===----------------------------------------------------------------------===//

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  bool parseDocument(Value &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the value");
    return true;
  }

  /// "line L, column C: message" for the first error.
  std::string error() const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < errorPos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return "line " + std::to_string(line) + ", column " +
           std::to_string(column) + ": " + message;
  }

private:
  bool fail(std::string what) {
    errorPos = pos;
    message = std::move(what);
    return false;
  }
  bool atEnd() const { return pos >= text.size(); }
  bool failEnd() { return fail("unexpected end of input (truncated?)"); }

  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool parseValue(Value &out, int depth) {
    if (atEnd())
      return failEnd();
    out = Value();
    out.begin = pos;
    bool ok;
    char c = text[pos];
    if (c == '{')
      ok = parseObject(out, depth + 1);
    else if (c == '[')
      ok = parseArray(out, depth + 1);
    else if (c == '"')
      ok = (out.kind = Kind::String, parseString(out.string));
    else if (c == '-' || (c >= '0' && c <= '9'))
      ok = parseInteger(out);
    else
      ok = parseWord(out);
    out.end = pos;
    return ok;
  }

  bool parseWord(Value &out) {
    static const struct {
      std::string_view word;
      Kind kind;
      bool boolean;
    } words[] = {{"true", Kind::Bool, true},
                 {"false", Kind::Bool, false},
                 {"null", Kind::Null, false}};
    for (const auto &w : words) {
      if (text.substr(pos, w.word.size()) == w.word) {
        pos += w.word.size();
        out.kind = w.kind;
        out.boolean = w.boolean;
        return true;
      }
      if (w.word.substr(0, text.size() - pos) == text.substr(pos))
        return pos = text.size(), failEnd();
    }
    return fail(std::string("unexpected character '") + printable(text[pos]) +
                "'");
  }

  static std::string printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F)
      return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    return buf;
  }

  bool parseInteger(Value &out) {
    bool negative = text[pos] == '-';
    if (negative)
      ++pos;
    if (atEnd())
      return failEnd();
    if (text[pos] < '0' || text[pos] > '9')
      return fail("expected a digit after '-'");
    if (text[pos] == '0' && pos + 1 < text.size() && text[pos + 1] >= '0' &&
        text[pos + 1] <= '9')
      return fail("a number with a leading zero");
    // Accumulated as a negative number: its range holds INT64_MIN.
    int64_t value = 0;
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    for (; !atEnd() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      int digit = text[pos] - '0';
      if (value < (kMin + digit) / 10)
        return fail("an integer out of the 64-bit range");
      value = value * 10 - digit;
    }
    if (!atEnd() && (text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E'))
      return fail("a number that is not an integer (not supported)");
    if (!negative && value == kMin)
      return fail("an integer out of the 64-bit range");
    out.kind = Kind::Int;
    out.integer = negative ? value : -value;
    return true;
  }

  bool parseHex4(uint32_t &out) {
    if (text.size() - pos < 4)
      return pos = text.size(), failEnd();
    out = 0;
    for (int i = 0; i < 4; ++i, ++pos) {
      char c = text[pos];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0)
        return fail("a \\u escape needs four hexadecimal digits");
      out = out * 16 + static_cast<uint32_t>(digit);
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// After a backslash: one escape, appended to `out`.
  bool parseEscape(std::string &out) {
    if (atEnd())
      return failEnd();
    char c = text[pos++];
    switch (c) {
    case '"':
    case '\\':
    case '/':
      out += c;
      return true;
    case 'b':
      out += '\b';
      return true;
    case 'f':
      out += '\f';
      return true;
    case 'n':
      out += '\n';
      return true;
    case 'r':
      out += '\r';
      return true;
    case 't':
      out += '\t';
      return true;
    case 'u':
      break;
    default:
      --pos;
      return fail(std::string("unknown escape '\\") + printable(c) + "'");
    }
    uint32_t cp;
    if (!parseHex4(cp))
      return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
      return fail("a lone low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (text.substr(pos, 2) != "\\u")
        return atEnd() ? failEnd() : fail("a high surrogate without its low");
      pos += 2;
      uint32_t low;
      if (!parseHex4(low))
        return false;
      if (low < 0xDC00 || low > 0xDFFF)
        return fail("a high surrogate without its low");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    appendUtf8(out, cp);
    return true;
  }

  bool parseString(std::string &out) {
    ++pos; // the opening quote
    while (true) {
      if (atEnd())
        return failEnd();
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("a control character in a string (it must be escaped)");
      ++pos;
      if (c != '\\')
        out += c;
      else if (!parseEscape(out))
        return false;
    }
  }

  /// Skips whitespace, then expects `close` or a ',' followed by more.
  /// Sets `done` when `close` was found.
  bool parseSeparator(char close, bool &done) {
    skipSpace();
    if (atEnd())
      return failEnd();
    if (text[pos] == close) {
      ++pos;
      return done = true;
    }
    if (text[pos] != ',')
      return fail(std::string("expected ',' or '") + close + "'");
    ++pos;
    skipSpace();
    done = false;
    return true;
  }

  bool parseArray(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nested too deeply");
    out.kind = Kind::Array;
    ++pos;
    skipSpace();
    if (!atEnd() && text[pos] == ']')
      return ++pos, true;
    for (bool done = false; !done;) {
      out.elements.emplace_back();
      if (!parseValue(out.elements.back(), depth) || !parseSeparator(']', done))
        return false;
    }
    return true;
  }

  bool parseObject(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nested too deeply");
    out.kind = Kind::Object;
    ++pos;
    skipSpace();
    if (!atEnd() && text[pos] == '}')
      return ++pos, true;
    for (bool done = false; !done;) {
      if (atEnd())
        return failEnd();
      if (text[pos] != '"')
        return fail("expected a key (a string)");
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      if (out.find(key))
        return pos = keyPos, fail("duplicate key \"" + key + "\"");
      skipSpace();
      if (atEnd())
        return failEnd();
      if (text[pos] != ':')
        return fail("expected ':' after a key");
      ++pos;
      skipSpace();
      Value member;
      if (!parseValue(member, depth))
        return false;
      out.keys.push_back(std::move(key));
      out.members.push_back(std::move(member));
      if (!parseSeparator('}', done))
        return false;
    }
    return true;
  }

  std::string_view text;
  size_t pos = 0;
  size_t errorPos = 0;
  std::string message;
};

//===----------------------------------------------------------------------===//
// Writing.
//===----------------------------------------------------------------------===//

void writeString(std::string &out, std::string_view s) {
  out += '"';
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u >= 0x20) {
      out += c;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    }
  }
  out += '"';
}

void writeValue(std::string &out, const Value &v, size_t indent) {
  std::string pad(indent + 2, ' ');
  switch (v.kind) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += v.boolean ? "true" : "false";
    return;
  case Kind::Int:
    out += std::to_string(v.integer);
    return;
  case Kind::String:
    writeString(out, v.string);
    return;
  case Kind::Array:
    if (v.elements.empty()) {
      out += "[]";
      return;
    }
    out += "[";
    for (size_t i = 0; i < v.elements.size(); ++i) {
      out += i ? ",\n" : "\n";
      out += pad;
      writeValue(out, v.elements[i], indent + 2);
    }
    out += "\n" + std::string(indent, ' ') + "]";
    return;
  case Kind::Object:
    if (v.keys.empty()) {
      out += "{}";
      return;
    }
    std::vector<size_t> order(v.keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return v.keys[a] < v.keys[b]; });
    out += "{";
    for (size_t i = 0; i < order.size(); ++i) {
      out += i ? ",\n" : "\n";
      out += pad;
      writeString(out, v.keys[order[i]]);
      out += ": ";
      writeValue(out, v.members[order[i]], indent + 2);
    }
    out += "\n" + std::string(indent, ' ') + "}";
    return;
  }
}

} // namespace

bool parse(std::string_view text, Value &out, std::string &error) {
  Parser parser(text);
  if (parser.parseDocument(out))
    return true;
  error = parser.error();
  return false;
}

std::string write(const Value &value) {
  std::string out;
  writeValue(out, value, 0);
  return out;
}

} // namespace nautilus::rt::json
