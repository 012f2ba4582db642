// SeededRandom: random draws that are the same for a seed on every platform and standard
// library. std::mt19937_64's output sequence is fixed by the C++ standard; the standard
// distributions are not (libstdc++, libc++ and MSVC differ), so the draws are computed here.
//
//   SeededRandom rng(seed);
//   int n = rng.between(2, 16);          // uniform, inclusive
//   if (rng.chance(0.25)) ...            // true with probability 1/4
//   const auto& k = rng.pick(kinds);     // one element of a non-empty vector
#pragma once
#include <charconv>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace gp {

class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n) for n >= 1, without modulo bias: draws below 2^64 mod n are rejected,
  // which leaves a multiple of n equally likely values.
  uint64_t below(uint64_t n) {
    const uint64_t rejected = (UINT64_MAX % n + 1) % n;  // 2^64 mod n
    uint64_t r = engine_();
    while (r < rejected) r = engine_();
    return r % n;
  }
  // Uniform in [lo, hi], lo <= hi.
  int between(int lo, int hi) {
    return lo + static_cast<int>(below(static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1)));
  }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(below(items.size()))];
  }

 private:
  std::mt19937_64 engine_;
};

// A seed written in decimal, 0 .. 2^64-1, digits only: false for anything else.
inline bool parseSeed(std::string_view text, uint64_t& seed) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace gp
