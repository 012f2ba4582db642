// Parsing a whole JSON document with the one-line error every reader of our JSON files gives:
//   "<source>: not valid JSON (parse error at line 3, column 7: syntax error while parsing ...)"
// (nlohmann's message without its "[json.exception....]" tag; numbers out of range included).
// A document nested deeper than kMaxJsonDepth or holding more than maxJsonValues() values
// (base/input_limits.h) is refused before it is built.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gp {

// Throws gp::Error(source, ...) when `text` is not one JSON document.
nlohmann::json parseJsonText(const std::string& text, const std::string& source);

// `obj[key]` when `obj` is an object holding a string there, else "". For tags such as "format",
// where nlohmann's obj.value(key, "") throws on a number.
std::string jsonString(const nlohmann::json& obj, const char* key);

// `v` when it is a JSON integer within [lo, hi], else nullopt (a float, a string, a wider
// integer). Read integers through this: nlohmann's get<int>() of a float out of range is
// undefined behaviour, and of a wider integer narrows it silently.
std::optional<int64_t> jsonInteger(const nlohmann::json& v, int64_t lo, int64_t hi);
// The same for `obj[key]`; nullopt when `obj` is not an object or has no `key`.
std::optional<int64_t> jsonInteger(const nlohmann::json& obj, const char* key, int64_t lo, int64_t hi);

}  // namespace gp
