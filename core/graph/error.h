// The one error type for bad input: carries the file (or source) and what is wrong, so a
// front end can print a single line "FILE: problem" and keep going.
#pragma once
#include <stdexcept>
#include <string>

namespace gp {

class Error : public std::runtime_error {
 public:
  Error(std::string source, const std::string& problem)
      : std::runtime_error(source.empty() ? problem : source + ": " + problem),
        source_(std::move(source)),
        problem_(problem) {}
  const std::string& source() const { return source_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string source_;
  std::string problem_;
};

}  // namespace gp
