// An ONNX Einsum's index space from its equation and its operands' shapes: each letter's size,
// the broadcast of the operands' "..." dimensions, and the output's shape (the letters after
// "->", or the letters used once in alphabetical order, with "..." first when there is no
// arrow). ONNX's own inference gives an Einsum only its rank.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gp::onnxio {

struct EinsumSpace {
  std::array<int64_t, 128> size{};  // per letter; -1: not used
  std::vector<int64_t> ellipsis;    // broadcast of the operands' "..." dims (right-aligned)
  std::string inLetters;            // every operand's letters, in order
  std::string rhs;                  // after "->" (dots kept); empty without an arrow
  bool arrow = false;
  int operands = 0;
  std::vector<int64_t> output;      // the output's shape
};

// nullopt for a malformed equation or one that does not fit the shapes.
std::optional<EinsumSpace> einsumSpace(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes);

}  // namespace gp::onnxio
