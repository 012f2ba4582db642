#include "onnxio/onnx_einsum.h"

#include <algorithm>

namespace gp::onnxio {

std::optional<EinsumSpace> einsumSpace(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  EinsumSpace sp;
  sp.size.fill(-1);
  const auto arrow = eq.find("->");
  sp.arrow = arrow != std::string::npos;
  const std::string lhs = eq.substr(0, arrow);
  sp.rhs = sp.arrow ? eq.substr(arrow + 2) : std::string();
  std::array<int, 128> uses{};
  size_t start = 0;
  while (start <= lhs.size()) {
    size_t comma = lhs.find(',', start);
    if (comma == std::string::npos) comma = lhs.size();
    const std::string term = lhs.substr(start, comma - start);
    if (sp.operands >= static_cast<int>(shapes.size())) return std::nullopt;  // more terms than inputs
    const std::vector<int64_t>& s = shapes[static_cast<size_t>(sp.operands)];
    const auto dots = term.find("...");
    if (dots != std::string::npos && term.find("...", dots + 3) != std::string::npos) return std::nullopt;
    const std::string letters = dots == std::string::npos ? term : term.substr(0, dots) + term.substr(dots + 3);
    if (dots == std::string::npos && letters.size() != s.size()) return std::nullopt;
    const size_t nEll = s.size() >= letters.size() ? s.size() - letters.size() : 0;
    size_t axis = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (term.compare(i, 3, "...") == 0) {
        if (axis + nEll > s.size()) return std::nullopt;
        std::vector<int64_t> e(s.begin() + static_cast<long>(axis), s.begin() + static_cast<long>(axis + nEll));
        if (e.size() > sp.ellipsis.size()) sp.ellipsis.insert(sp.ellipsis.begin(), e.size() - sp.ellipsis.size(), 1);
        for (size_t j = 0; j < e.size(); ++j) {
          int64_t& o = sp.ellipsis[sp.ellipsis.size() - e.size() + j];
          o = std::max(o, e[j]);
        }
        axis += nEll;
        i += 2;
        continue;
      }
      const auto c = static_cast<unsigned char>(term[i]);
      if (c >= sp.size.size() || axis >= s.size()) return std::nullopt;
      sp.size[c] = std::max(sp.size[c], s[axis++]);
      ++uses[c];
      sp.inLetters += term[i];
    }
    ++sp.operands;
    start = comma + 1;
  }
  if (sp.arrow) {
    for (size_t i = 0; i < sp.rhs.size(); ++i) {
      if (sp.rhs.compare(i, 3, "...") == 0) {
        sp.output.insert(sp.output.end(), sp.ellipsis.begin(), sp.ellipsis.end());
        i += 2;
        continue;
      }
      const auto c = static_cast<unsigned char>(sp.rhs[i]);
      if (c >= sp.size.size() || sp.size[c] < 0) return std::nullopt;
      sp.output.push_back(sp.size[c]);
    }
  } else {
    sp.output = sp.ellipsis;
    for (size_t c = 0; c < sp.size.size(); ++c)
      if (uses[c] == 1) sp.output.push_back(sp.size[c]);
  }
  return sp;
}

}  // namespace gp::onnxio
