// A fuzz target: one of graphplace's loaders fed arbitrary bytes.
//
// The contract every loader keeps on hostile input: it returns, or it throws gp::Error whose
// message is one line naming the source. Anything else is a bug the fuzzer reports: another
// exception type, a multi-line message, a crash or sanitizer report, more than 10 s for one
// input, more than 2 GiB of memory (scripts/fuzz.sh sets the last two).
//
// A target is written once, with GP_FUZZ_TARGET(name) { ... data, size ... }, and built two ways:
// as a libFuzzer program gp_fuzz_<name> (fuzz_main.cpp, the GP_FUZZ build with clang) and into
// gp_fuzz_replay (replay_main.cpp), which runs the seed corpus and every kept regression input
// through the same function in the ordinary builds (ctest Fuzz.replay.<name>).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gp::fuzz {

using TargetFn = void (*)(const uint8_t* data, size_t size);

struct Target {
  const char* name;
  TargetFn fn;
};

bool registerTarget(const char* name, TargetFn fn);
const std::vector<Target>& targets();
const Target* findTarget(std::string_view name);

// Runs `fn` on the bytes. Returns "" when it returned or threw a one-line gp::Error, else what
// went wrong (another exception, a message with a line break). `outcome`, when given, receives
// "read" or the gp::Error's message.
std::string runOne(TargetFn fn, const uint8_t* data, size_t size, std::string* outcome = nullptr);

// The bytes written to a file with the given extension (".onnx", ".dot", ...) in a private
// folder of this process, for loaders that read paths; the same path is reused by every call.
std::string inputFile(const uint8_t* data, size_t size, const std::string& extension);

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

}  // namespace gp::fuzz

#define GP_FUZZ_TARGET(name)                                                                   \
  static void gp_fuzz_target_##name(const uint8_t* data, size_t size);                         \
  [[maybe_unused]] static const bool gp_fuzz_registered_##name =                               \
      ::gp::fuzz::registerTarget(#name, gp_fuzz_target_##name);                                 \
  static void gp_fuzz_target_##name([[maybe_unused]] const uint8_t* data, [[maybe_unused]] size_t size)
