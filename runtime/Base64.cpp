//===- Base64.cpp - Binary code inside JSON documents ---------------------===//
#include "runtime/Base64.h"

#include <cstdint>

namespace nautilus::rt {

namespace {
constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int digitOf(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}
} // namespace

std::string base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = bytes.size() - i < 3 ? bytes.size() - i : 3;
    uint32_t group = 0;
    for (size_t j = 0; j < 3; ++j)
      group =
          group << 8 | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
    for (size_t j = 0; j < 4; ++j)
      out += j <= n ? kAlphabet[(group >> (18 - 6 * j)) & 63] : '=';
  }
  return out;
}

bool base64Decode(std::string_view text, std::string &out) {
  if (text.size() % 4 != 0)
    return false;
  out.clear();
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    size_t padding = 0;
    uint32_t group = 0;
    for (size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      if (c == '=' && last && j >= 2) {
        ++padding;
        group <<= 6;
        continue;
      }
      int digit = digitOf(c);
      if (digit < 0 || padding > 0)
        return false;
      group = group << 6 | static_cast<uint32_t>(digit);
    }
    for (size_t j = 0; j < 3 - padding; ++j)
      out += static_cast<char>((group >> (16 - 8 * j)) & 0xff);
  }
  return true;
}

} // namespace nautilus::rt
