// CalibrationTable: measured op times per signature (op type + input shapes + dtype + device
// kind). Where an op's signature is in the table, the cost model uses the measured time
// instead of the roofline. The CUPTI profiler writes these files; format: docs/formats.md,
// "Calibration table".
//
//   signature("MatMul", {{32, 64}, {64, 128}}, DType::F32, "V100-SXM2-16GB")
//     == "MatMul|[32,64][64,128]|f32|V100-SXM2-16GB"        (scalar "[]", unknown shape "?")
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"

namespace gp {

class CalibrationTable {
 public:
  struct Entry {
    std::string opType;
    std::vector<std::optional<std::vector<int64_t>>> inputShapes;  // nullopt: shape unknown
    DType dtype = DType::F32;
    std::string deviceKind;
    double seconds = 0;
  };

  // Throws gp::Error (one line naming the file and entry) on bad input.
  static CalibrationTable load(const std::string& path);
  static CalibrationTable parse(const std::string& text, const std::string& source);

  static std::string signature(std::string_view opType, std::span<const std::vector<int64_t>> inputShapes, DType dtype,
                               std::string_view deviceKind);
  static std::string signature(const Entry& e);
  // The signature of a graph op (its inputs' shapes, unknown ones as "?") with the given dtype.
  static std::string signature(const Graph& g, OpId op, DType dtype, std::string_view deviceKind);

  std::optional<double> lookup(std::string_view opType, std::span<const std::vector<int64_t>> inputShapes, DType dtype,
                               std::string_view deviceKind) const {
    return lookup(signature(opType, inputShapes, dtype, deviceKind));
  }
  std::optional<double> lookup(const std::string& signature) const;

  // Adds or replaces the entry of the same signature. seconds must be finite and >= 0.
  void add(std::string_view opType, std::span<const std::vector<int64_t>> inputShapes, DType dtype,
           std::string_view deviceKind, double seconds);
  void add(Entry e);

  std::string toJson() const;
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;  // signature -> entries_ index
};

}  // namespace gp
