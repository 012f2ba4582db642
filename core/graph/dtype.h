// Element types of tensors and their sizes.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace gp {

enum class DType : uint8_t { Unknown, F32, F16, BF16, F64, F8, I64, I32, I16, I8, U8, Bool, Complex64, Count };

// Bytes per element (0 for Unknown).
int dtypeSize(DType t);
std::string_view dtypeName(DType t);  // "f32", "f16", ...
std::optional<DType> parseDType(std::string_view name);

}  // namespace gp
