//===- Base64.h - Binary code inside JSON documents -------------*- C++ -*-===//
//
// RFC 4648 base64 (the standard alphabet, '=' padding, no line breaks): how
// a bundle (Bundle.h) carries binary code, such as the host's shared
// library, in a JSON string. Plain C++17.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_BASE64_H
#define NAUTILUS_RUNTIME_BASE64_H

#include <string>
#include <string_view>

namespace nautilus::rt {

std::string base64Encode(std::string_view bytes);

/// Decodes `text`; false (with `out` unspecified) when it is not base64:
/// a character outside the alphabet, a length not a multiple of four, or
/// padding anywhere but the end.
bool base64Decode(std::string_view text, std::string &out);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_BASE64_H
