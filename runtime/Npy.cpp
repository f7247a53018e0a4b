//===- Npy.cpp - Reading and writing numpy .npy files ---------------------===//

#include "runtime/Npy.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <utility>

// The data of supported files is little-endian and is copied as is.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "runtime/Npy.cpp assumes a little-endian host"
#endif

namespace nautilus::rt {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
/// numpy aligns the start of the data to this many bytes.
constexpr size_t kArrayAlign = 64;
/// numpy pads the header with room for the first dimension to grow to this
/// many digits (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS).
constexpr size_t kGrowthAxisMaxDigits = 21;

/// The numpy type codes we support, without the byte-order character.
struct NpyType {
  const char *code;
  DType dtype;
};
constexpr NpyType kNpyTypes[] = {
    {"f2", DType::F16},  {"f4", DType::F32}, {"f8", DType::F64},
    {"i1", DType::I8},   {"i4", DType::I32}, {"i8", DType::I64},
    {"b1", DType::Bool},
};
constexpr const char *kSupportedList =
    "'<f2', '<f4', '<f8', '|i1', '<i4', '<i8', '|b1'";

/// Untrusted text made safe to quote in a message: non-printable bytes are
/// escaped and long strings are cut.
std::string quoteForMessage(std::string_view s) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > kMaxShown)
    out += "...";
  return out + "'";
}

//===----------------------------------------------------------------------===//
// Header dict parser.
//===----------------------------------------------------------------------===//

struct HeaderFields {
  std::string descr;
  bool structured = false; // 'descr' is a list: a record dtype
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Parses the subset of Python literal syntax numpy writes in headers:
///   { 'descr': <str>, 'fortran_order': True|False, 'shape': (<int>, ...) }
/// with keys in any order, single or double quotes, an optional trailing
/// comma, arbitrary whitespace and Python 2 'L' integer suffixes. Every
/// access is bounds-checked against the header text. A list 'descr' (a record
/// dtype, never supported) ends parsing early with `structured` set.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view header) : text(header) {}

  bool parse(HeaderFields &fields, std::string &error) {
    err = &error;
    if (!consume('{'))
      return fail("expected '{'");
    bool seenDescr = false, seenFortran = false, seenShape = false;
    while (!consume('}')) {
      std::string key;
      if (!parseString(key))
        return false;
      if (!consume(':'))
        return fail("expected ':' after key " + quoteForMessage(key));
      if (key == "descr") {
        if (seenDescr)
          return fail("duplicate key 'descr'");
        seenDescr = true;
        skipSpace();
        if (peek() == '[') { // unsupported anyway; the rest is irrelevant
          fields.structured = true;
          return true;
        }
        if (!parseString(fields.descr))
          return false;
      } else if (key == "fortran_order") {
        if (seenFortran)
          return fail("duplicate key 'fortran_order'");
        seenFortran = true;
        if (!parseBool(fields.fortranOrder))
          return false;
      } else if (key == "shape") {
        if (seenShape)
          return fail("duplicate key 'shape'");
        seenShape = true;
        if (!parseShape(fields.shape))
          return false;
      } else {
        return fail("unexpected key " + quoteForMessage(key));
      }
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return fail("expected ',' or '}'");
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the header dict");
    const char *missing = !seenDescr     ? "descr"
                          : !seenFortran ? "fortran_order"
                          : !seenShape   ? "shape"
                                         : nullptr;
    if (missing) {
      error = std::string("header has no '") + missing + "' key";
      return false;
    }
    return true;
  }

private:
  bool fail(const std::string &message) {
    *err = message + " at header offset " + std::to_string(pos);
    return false;
  }

  /// The next character, or '\0' at the end (callers never look for '\0').
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  /// Skips whitespace, then consumes `c` if it comes next.
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool parseString(std::string &out) {
    skipSpace();
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return fail("expected a string");
    size_t start = ++pos;
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\')
        return fail("escape sequences in strings are not supported");
      ++pos;
    }
    if (pos == text.size())
      return fail("unterminated string");
    out.assign(text.substr(start, pos - start));
    ++pos; // closing quote
    return true;
  }

  bool parseBool(bool &out) {
    skipSpace();
    std::string_view rest = text.substr(pos);
    if (rest.substr(0, 4) == "True") {
      out = true;
      pos += 4;
      return true;
    }
    if (rest.substr(0, 5) == "False") {
      out = false;
      pos += 5;
      return true;
    }
    return fail("expected True or False for 'fortran_order'");
  }

  /// A tuple of non-negative integers: "()", "(5,)", "(3, 4)", "(3, 4,)".
  bool parseShape(std::vector<int64_t> &out) {
    if (!consume('('))
      return fail("expected a tuple for 'shape'");
    out.clear();
    if (consume(')'))
      return true;
    while (true) {
      int64_t dim;
      if (!parseInt(dim))
        return false;
      out.push_back(dim);
      if (consume(')')) {
        if (out.size() == 1)
          return fail("'shape' is not a tuple (a 1-d shape is written (n,))");
        return true;
      }
      if (!consume(','))
        return fail("expected ',' or ')' in 'shape'");
      if (consume(')'))
        return true;
    }
  }

  bool parseInt(int64_t &out) {
    skipSpace();
    size_t start = pos;
    int64_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      int digit = text[pos] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
        return fail("dimension too large");
      value = value * 10 + digit;
      ++pos;
    }
    if (pos == start)
      return fail("expected a non-negative integer in 'shape'");
    if (peek() == 'L' || peek() == 'l') // Python 2 long suffix
      ++pos;
    out = value;
    return true;
  }

  std::string_view text;
  size_t pos = 0;
  std::string *err = nullptr;
};

/// Maps a numpy descr to a DType, or explains why it is not supported.
bool descrToDType(const std::string &descr, DType &dtype, std::string &error) {
  std::string_view body = descr;
  char order = '\0';
  if (!body.empty() &&
      std::string_view("<>|=!").find(body[0]) != std::string_view::npos) {
    order = body[0];
    body.remove_prefix(1);
  }
  for (const NpyType &t : kNpyTypes) {
    if (body != t.code)
      continue;
    if (dtypeSize(t.dtype) > 1 && (order == '>' || order == '!')) {
      error = "big-endian dtype " + quoteForMessage(descr) +
              " is not supported (only little-endian data)";
      return false;
    }
    dtype = t.dtype;
    return true;
  }
  error = "unsupported dtype " + quoteForMessage(descr) +
          " (supported: " + kSupportedList + ")";
  return false;
}

//===----------------------------------------------------------------------===//
// Byte sources: the decoder reads from a file or from memory.
//===----------------------------------------------------------------------===//

class ByteSource {
public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  /// Reads exactly `n` bytes at `offset`; false if that is not possible.
  virtual bool read(uint64_t offset, void *dst, size_t n) = 0;
  /// Why the last read failed, for messages.
  virtual std::string readError() const = 0;
};

class MemorySource final : public ByteSource {
public:
  MemorySource(const void *data, size_t size)
      : bytes(static_cast<const uint8_t *>(data)), length(size) {}
  uint64_t size() const override { return length; }
  bool read(uint64_t offset, void *dst, size_t n) override {
    if (offset > length || n > length - offset)
      return false;
    if (n != 0)
      std::memcpy(dst, bytes + offset, n);
    return true;
  }
  std::string readError() const override { return "read past the end"; }

private:
  const uint8_t *bytes;
  size_t length;
};

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

class FileSource final : public ByteSource {
public:
  FileSource(std::FILE *f, uint64_t size) : file(f), length(size) {}
  uint64_t size() const override { return length; }
  bool read(uint64_t offset, void *dst, size_t n) override {
    errno = 0;
    if (offset > static_cast<uint64_t>(LONG_MAX) ||
        std::fseek(file, static_cast<long>(offset), SEEK_SET) != 0) {
      savedErrno = errno;
      return false;
    }
    if (n == 0 || std::fread(dst, 1, n, file) == n)
      return true;
    savedErrno = errno;
    return false;
  }
  std::string readError() const override {
    return savedErrno ? std::strerror(savedErrno)
                      : "the file changed while being read";
  }

private:
  std::FILE *file;
  uint64_t length;
  int savedErrno = 0;
};

uint32_t readLE(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = n; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

bool decode(ByteSource &src, const std::string &name, HostTensor &out,
            std::string &error) {
  auto fail = [&](const std::string &message) {
    error = name + ": " + message;
    return false;
  };
  const uint64_t size = src.size();

  // Preamble: magic, version, header length.
  uint8_t pre[12];
  size_t have = size < sizeof pre ? static_cast<size_t>(size) : sizeof pre;
  if (!src.read(0, pre, have))
    return fail("read error: " + src.readError());
  size_t magicHave = have < kMagicLen ? have : kMagicLen;
  if (std::memcmp(pre, kMagic, magicHave) != 0)
    return fail("not an npy file (bad magic string)");
  if (have < kMagicLen + 2)
    return fail("truncated file (" + std::to_string(size) +
                " bytes, too short for an npy header)");
  unsigned major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0)
    return fail("unsupported npy format version " + std::to_string(major) +
                "." + std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t preambleLen = kMagicLen + 2 + lenBytes;
  if (have < preambleLen)
    return fail("truncated file (" + std::to_string(size) +
                " bytes, too short for an npy header)");
  uint64_t headerLen = readLE(pre + kMagicLen + 2, lenBytes);
  if (headerLen > size - preambleLen)
    return fail("truncated header (header length " + std::to_string(headerLen) +
                ", but only " + std::to_string(size - preambleLen) +
                " bytes follow)");

  // The header dict. headerLen is at most the file size here.
  std::string header(static_cast<size_t>(headerLen), '\0');
  if (!src.read(preambleLen, header.data(), header.size()))
    return fail("read error: " + src.readError());
  HeaderFields fields;
  std::string why;
  if (!HeaderParser(header).parse(fields, why))
    return fail("malformed npy header: " + why);
  if (fields.structured)
    return fail(std::string("unsupported structured dtype (supported: ") +
                kSupportedList + ")");
  DType dtype;
  if (!descrToDType(fields.descr, dtype, why))
    return fail(why);
  if (fields.fortranOrder)
    return fail("Fortran-order arrays are not supported (save a C-order "
                "array, e.g. with np.ascontiguousarray)");

  // The data: exactly numElements * itemSize bytes must follow.
  size_t itemSize = dtypeSize(dtype);
  std::optional<size_t> numElements = shapeNumElements(fields.shape, itemSize);
  if (!numElements)
    return fail("shape " + formatShape(fields.shape) + " is too large");
  uint64_t dataLen = static_cast<uint64_t>(*numElements) * itemSize;
  uint64_t dataOffset = preambleLen + headerLen;
  uint64_t remaining = size - dataOffset;
  std::string what = "shape " + formatShape(fields.shape) + " of " +
                     quoteForMessage(fields.descr) + " needs " +
                     std::to_string(dataLen) + " bytes of data";
  if (remaining < dataLen)
    return fail("truncated data: " + what + ", the file has " +
                std::to_string(remaining));
  if (remaining > dataLen)
    return fail(std::to_string(remaining - dataLen) +
                " unexpected bytes after the data (" + what + ")");

  HostTensor tensor = HostTensor::zeros(dtype, std::move(fields.shape));
  if (!src.read(dataOffset, tensor.data(), tensor.numBytes()))
    return fail("read error: " + src.readError());
  if (dtype == DType::Bool) { // numpy treats any nonzero byte as True
    auto *p = static_cast<uint8_t *>(tensor.data());
    for (size_t i = 0; i < tensor.numBytes(); ++i)
      p[i] = p[i] != 0;
  }
  out = std::move(tensor);
  return true;
}

//===----------------------------------------------------------------------===//
// Conversions for readNpyAs.
//===----------------------------------------------------------------------===//

/// The row-major multi-index of element `flat`, formatted like "[1, 2]".
std::string formatIndex(const std::vector<int64_t> &shape, size_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    auto dim = static_cast<size_t>(shape[i]);
    index[i] = static_cast<int64_t>(flat % dim);
    flat /= dim;
  }
  return formatShape(index);
}

bool fitsInteger(int64_t v, DType t) {
  switch (t) {
  case DType::I8:
    return v >= std::numeric_limits<int8_t>::min() &&
           v <= std::numeric_limits<int8_t>::max();
  case DType::I32:
    return v >= std::numeric_limits<int32_t>::min() &&
           v <= std::numeric_limits<int32_t>::max();
  default:
    return true;
  }
}

/// Whether integer v survives a store into float dtype t unchanged.
bool exactlyRepresentable(int64_t v, DType t) {
  double d = static_cast<double>(v);
  // d == 2^63 when v rounds up past INT64_MAX; the cast would overflow.
  if (d >= 0x1p63 || static_cast<int64_t>(d) != v)
    return false;
  return roundToDType(d, t) == d;
}

/// Converts `src` (read from `name`) to dtype `want` per readNpyAs's rules.
bool convert(HostTensor &src, DType want, const std::string &name,
             HostTensor &out, std::string &error) {
  DType from = src.dtype();
  if (from == want) {
    out = std::move(src);
    return true;
  }
  auto fail = [&](size_t i, const std::string &problem) {
    error = name + ": value " + std::to_string(src.getAsInt64(i)) +
            " at index " + formatIndex(src.shape(), i) + " " + problem;
    return false;
  };
  HostTensor dst = HostTensor::zeros(want, src.shape());
  size_t n = src.numElements();
  if (isFloat(from) && isFloat(want)) {
    for (size_t i = 0; i < n; ++i) {
      // A finite value beyond the narrower type's range would become an
      // infinity, and every result downstream of it NaN, unannounced.
      double v = src.getAsDouble(i);
      dst.setFromDouble(i, v);
      if (std::isfinite(v) && !std::isfinite(dst.getAsDouble(i))) {
        error = name + ": value " + std::to_string(v) + " at index " +
                formatIndex(src.shape(), i) + " is beyond the range of " +
                dtypeName(want);
        return false;
      }
    }
  } else if (isInteger(from) && isInteger(want)) {
    for (size_t i = 0; i < n; ++i) {
      int64_t v = src.getAsInt64(i);
      if (!fitsInteger(v, want))
        return fail(i, std::string("does not fit in ") + dtypeName(want));
      dst.setFromInt64(i, v);
    }
  } else if (isInteger(from) && isFloat(want)) {
    for (size_t i = 0; i < n; ++i) {
      int64_t v = src.getAsInt64(i);
      if (!exactlyRepresentable(v, want))
        return fail(i, std::string("is not exactly representable in ") +
                           dtypeName(want));
      dst.setFromInt64(i, v);
    }
  } else {
    error = name + ": cannot read " + quoteForMessage(npyDescr(from)) +
            " data as " + dtypeName(want) +
            " (supported conversions: float to float, integer to integer, "
            "and integer to float when exact)";
    return false;
  }
  out = std::move(dst);
  return true;
}

} // namespace

const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "<f2";
  case DType::BF16: // widened on write
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I8:
    return "|i1";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::Bool:
    return "|b1";
  }
  return "";
}

std::string encodeNpyHeader(DType dtype, const std::vector<int64_t> &shape) {
  // Python's repr of the shape tuple.
  std::string shapeRepr = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      shapeRepr += ", ";
    shapeRepr += std::to_string(shape[i]);
  }
  shapeRepr += shape.size() == 1 ? ",)" : ")";

  std::string dict = std::string("{'descr': '") + npyDescr(dtype) +
                     "', 'fortran_order': False, 'shape': " + shapeRepr + ", }";
  if (!shape.empty()) {
    size_t digits = std::to_string(shape[0]).size();
    if (digits < kGrowthAxisMaxDigits)
      dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }

  // Like numpy's _wrap_header: pad with spaces plus a final '\n' so that the
  // data starts at a multiple of 64 (always at least one space, so an already
  // aligned header gets 64 more bytes, exactly as numpy does).
  auto wrap = [&](uint8_t major, size_t lenBytes) {
    size_t hlen = dict.size() + 1;
    size_t padLen =
        kArrayAlign - (kMagicLen + 2 + lenBytes + hlen) % kArrayAlign;
    size_t total = hlen + padLen;
    std::string out(kMagic, kMagicLen);
    out += static_cast<char>(major);
    out += '\0';
    for (size_t i = 0; i < lenBytes; ++i)
      out += static_cast<char>((total >> (8 * i)) & 0xFF);
    out += dict;
    out.append(padLen, ' ');
    out += '\n';
    return std::make_pair(out, total);
  };
  auto v1 = wrap(1, 2);
  if (v1.second <= 0xFFFF)
    return v1.first;
  return wrap(2, 4).first;
}

bool decodeNpy(const void *bytes, size_t size, const std::string &name,
               HostTensor &out, std::string &error) {
  MemorySource src(bytes, size);
  return decode(src, name, out, error);
}

bool readNpy(const std::string &path, HostTensor &out, std::string &error) {
  errno = 0;
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    error = path + ": cannot open file: " +
            (errno ? std::strerror(errno) : "unknown error");
    return false;
  }
  long size = -1;
  if (std::fseek(file.get(), 0, SEEK_END) == 0)
    size = std::ftell(file.get());
  if (size < 0) {
    error = path + ": cannot determine the file size";
    return false;
  }
  FileSource src(file.get(), static_cast<uint64_t>(size));
  return decode(src, path, out, error);
}

bool readNpyAs(const std::string &path, DType want,
               const std::vector<int64_t> *expectShape, HostTensor &out,
               std::string &error) {
  HostTensor src;
  if (!readNpy(path, src, error))
    return false;
  if (expectShape && *expectShape != src.shape()) {
    error = path + ": shape mismatch: the file has " +
            formatShape(src.shape()) + ", expected " +
            formatShape(*expectShape);
    return false;
  }
  return convert(src, want, path, out, error);
}

bool writeNpy(const std::string &path, const HostTensor &t,
              std::string &error) {
  errno = 0;
  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (!file) {
    error = path + ": cannot open file for writing: " +
            (errno ? std::strerror(errno) : "unknown error");
    return false;
  }
  auto put = [&](const void *p, size_t n) {
    return n == 0 || std::fwrite(p, 1, n, file.get()) == n;
  };

  std::string header = encodeNpyHeader(t.dtype(), t.shape());
  bool ok = put(header.data(), header.size());
  if (t.dtype() == DType::BF16 || t.dtype() == DType::Bool) {
    // Converted in chunks: bf16 widens to f32, bool bytes become 0/1.
    constexpr size_t kChunk = 4096;
    float floats[kChunk];
    uint8_t bools[kChunk];
    for (size_t i = 0; ok && i < t.numElements(); i += kChunk) {
      size_t n = std::min(kChunk, t.numElements() - i);
      for (size_t j = 0; j < n; ++j) {
        if (t.dtype() == DType::BF16)
          floats[j] = static_cast<float>(t.getAsDouble(i + j));
        else
          bools[j] = t.getAsInt64(i + j) != 0;
      }
      ok = t.dtype() == DType::BF16 ? put(floats, n * sizeof(float))
                                    : put(bools, n);
    }
  } else if (ok) {
    ok = put(t.data(), t.numBytes());
  }
  int savedErrno = errno;
  ok = (std::fclose(file.release()) == 0) && ok;
  if (!ok) {
    if (!savedErrno)
      savedErrno = errno;
    std::remove(path.c_str());
    error = path + ": write failed: " +
            (savedErrno ? std::strerror(savedErrno) : "unknown error");
    return false;
  }
  return true;
}

} // namespace nautilus::rt
