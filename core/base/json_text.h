// Parsing a whole JSON document with the one-line error every reader of our JSON files gives:
//   "<source>: not valid JSON (parse error at line 3, column 7: syntax error while parsing ...)"
// (nlohmann's message without its "[json.exception....]" tag; numbers out of range included).
// A document nested deeper than kMaxJsonDepth or holding more than maxJsonValues() values
// (base/input_limits.h) is refused before it is built.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace gp {

// Throws gp::Error(source, ...) when `text` is not one JSON document.
nlohmann::json parseJsonText(const std::string& text, const std::string& source);

}  // namespace gp
