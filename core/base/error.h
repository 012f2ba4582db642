// The one error type for bad input: carries the file (or source) and what is wrong, so a
// front end can print a single line "FILE: problem" and keep going.
#pragma once
#include <stdexcept>
#include <string>

namespace gp {

class Error : public std::runtime_error {
 public:
  Error(std::string source, const std::string& problem)
      : std::runtime_error(oneLine(source.empty() ? problem : source + ": " + problem)),
        source_(std::move(source)),
        problem_(oneLine(problem)) {}
  const std::string& source() const { return source_; }
  const std::string& problem() const { return problem_; }

 private:
  // Names from files may hold newlines or other control bytes: escape them so the message
  // stays one line.
  static std::string oneLine(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
      if (c >= 0x20 && c != 0x7f) {
        out += static_cast<char>(c);
      } else {
        static const char* hex = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
    return out;
  }

  std::string source_;
  std::string problem_;
};

}  // namespace gp
