#include "graph/dtype.h"

#include <array>

namespace gp {
namespace {
struct DTypeInfo {
  DType type;
  std::string_view name;
  int size;
};
constexpr std::array<DTypeInfo, static_cast<size_t>(DType::Count)> kInfo{{
    {DType::Unknown, "unknown", 0},
    {DType::F32, "f32", 4},
    {DType::F16, "f16", 2},
    {DType::BF16, "bf16", 2},
    {DType::F64, "f64", 8},
    {DType::F8, "f8", 1},
    {DType::I64, "i64", 8},
    {DType::I32, "i32", 4},
    {DType::I16, "i16", 2},
    {DType::I8, "i8", 1},
    {DType::U8, "u8", 1},
    {DType::Bool, "bool", 1},
    {DType::Complex64, "c64", 8},
}};
constexpr bool tableMatchesEnum() {
  for (size_t i = 0; i < kInfo.size(); ++i)
    if (static_cast<size_t>(kInfo[i].type) != i) return false;
  return true;
}
static_assert(tableMatchesEnum(), "kInfo must list DType values in enum order");
}  // namespace

int dtypeSize(DType t) { return kInfo.at(static_cast<size_t>(t)).size; }
std::string_view dtypeName(DType t) { return kInfo.at(static_cast<size_t>(t)).name; }
std::optional<DType> parseDType(std::string_view name) {
  for (const auto& i : kInfo)
    if (i.name == name) return i.type;
  return std::nullopt;
}

}  // namespace gp
