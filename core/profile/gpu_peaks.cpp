#include "profile/gpu_peaks.h"

#include <cctype>
#include <cmath>

namespace gp {
namespace {

// Dense FLOP per clock per SM (a fused multiply-add counts 2), from NVIDIA's architecture
// whitepapers (Turing, A100, GA102, Ada, H100, Blackwell). Order: f64 f32 f16 bf16 f8 int8 tf32
// (PeakType). f64 is the CUDA-core rate, as the cluster presets list it.
struct ArchRate {
  int major, minor;
  std::array<double, kNumPeakTypes> perClock;
};
constexpr ArchRate kRates[] = {
    {7, 5, {4, 128, 1024, 0, 0, 2048, 0}},                // Turing (T4, RTX 20): no bf16/f8/tf32 units
    {8, 0, {128, 128, 2048, 2048, 0, 4096, 1024}},        // A100
    {8, 6, {4, 256, 1024, 1024, 0, 2048, 512}},           // GA10x (A10, A40, RTX 30)
    {8, 9, {4, 256, 1024, 1024, 2048, 2048, 512}},        // Ada (L4, L40, RTX 40)
    {9, 0, {128, 256, 4096, 4096, 8192, 8192, 2048}},     // Hopper (H100, H200)
    {10, 0, {128, 256, 8192, 8192, 16384, 16384, 4096}},  // Blackwell (B200)
};
static_assert(std::size(kRates[0].perClock) == kNumPeakTypes);

}  // namespace

std::optional<std::array<double, kNumPeakTypes>> theoreticalPeaks(int ccMajor, int ccMinor, int multiprocessors,
                                                                  double smClockHz) {
  if (multiprocessors <= 0 || !(smClockHz > 0)) return std::nullopt;
  for (const ArchRate& r : kRates) {
    if (r.major != ccMajor || r.minor != ccMinor) continue;
    std::array<double, kNumPeakTypes> p{};
    for (int t = 0; t < kNumPeakTypes; ++t) p[t] = r.perClock[t] * multiprocessors * smClockHz;
    return p;
  }
  return std::nullopt;
}

std::string deviceKindName(std::string_view cudaName, int64_t memoryBytes) {
  std::string_view n = cudaName;
  while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
  if (n.starts_with("NVIDIA ")) n.remove_prefix(7);
  std::string out;
  for (char c : n) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    const char x = ok ? c : '-';
    if (x == '-' && (out.empty() || out.back() == '-')) continue;  // no doubled or leading dashes
    out += x;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.empty()) out = "GPU";
  const long gib = std::lround(static_cast<double>(memoryBytes) / (1024.0 * 1024 * 1024));
  if (gib > 0 && out.find("GB") == std::string::npos) {
    out += '-';
    out += std::to_string(gib);
    out += "GB";
  }
  return out;
}

}  // namespace gp
