#include "base/json_text.h"

#include "base/error.h"

namespace gp {

nlohmann::json parseJsonText(const std::string& text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::string m = e.what();
    if (auto p = m.find("] "); p != std::string::npos) m = m.substr(p + 2);
    throw Error(source, "not valid JSON (" + m + ")");
  }
}

}  // namespace gp
