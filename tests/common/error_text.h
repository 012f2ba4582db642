// The one-line message a call fails with, for tests of error handling: gp::Error's text, a
// foreign exception's text after "non-gp exception: " (never what a test expects), or "no error".
#pragma once
#include <exception>
#include <functional>
#include <string>

#include "base/error.h"

namespace gptest {

inline std::string errorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const gp::Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("non-gp exception: ") + e.what();
  }
  return "no error";
}

}  // namespace gptest
