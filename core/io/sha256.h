// SHA-256 (OpenSSL) of a file or a string, as lower-case hex.
#pragma once
#include <string>

namespace gp {

std::string sha256Hex(const std::string& data);
// Throws gp::Error(path, ...) if the file cannot be read.
std::string sha256OfFile(const std::string& path);

}  // namespace gp
