#include "base/json_text.h"

#include <cstdint>

#include "base/error.h"
#include "base/input_limits.h"

namespace gp {
namespace {

// A pass over the text that builds nothing: it counts values and nesting and stops at the first
// limit it crosses, before the document is built (whose memory grows with both).
class BoundsCheck : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit BoundsCheck(int64_t maxValues) : maxValues_(maxValues) {}
  std::string problem;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the document parse reports it
  }

 private:
  bool value() {
    if (++values_ <= maxValues_) return true;
    problem = "more than " + std::to_string(maxValues_) + " JSON values, over the limit (" + maxOpsHint() + ")";
    return false;
  }
  bool open() {
    if (!value()) return false;
    if (++depth_ <= kMaxJsonDepth) return true;
    problem = "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep, over the limit";
    return false;
  }
  bool close() {
    --depth_;
    return true;
  }

  int64_t maxValues_;
  int64_t values_ = 0;
  int depth_ = 0;
};

}  // namespace

nlohmann::json parseJsonText(const std::string& text, const std::string& source) {
  BoundsCheck bounds(maxJsonValues());
  nlohmann::json::sax_parse(text, &bounds, nlohmann::json::input_format_t::json, /*strict=*/true);
  if (!bounds.problem.empty()) throw Error(source, bounds.problem);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::string m = e.what();
    if (auto p = m.find("] "); p != std::string::npos) m = m.substr(p + 2);
    throw Error(source, "not valid JSON (" + m + ")");
  }
}

std::string jsonString(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return {};
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int64_t> jsonInteger(const nlohmann::json& v, int64_t lo, int64_t hi) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (hi < 0 || u > static_cast<uint64_t>(hi) || static_cast<int64_t>(u) < lo) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (!v.is_number_integer()) return std::nullopt;
  const auto x = v.get<int64_t>();
  if (x < lo || x > hi) return std::nullopt;
  return x;
}

std::optional<int64_t> jsonInteger(const nlohmann::json& obj, const char* key, int64_t lo, int64_t hi) {
  if (!obj.is_object()) return std::nullopt;
  const auto it = obj.find(key);
  return it == obj.end() ? std::nullopt : jsonInteger(*it, lo, hi);
}

}  // namespace gp
