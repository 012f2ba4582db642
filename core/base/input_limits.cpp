#include "base/input_limits.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "base/child_process.h"
#include "base/error.h"

namespace gp {
namespace {

// The variable's value when it is a whole number in [1, max], else `fallback`.
int64_t positiveVariable(const char* name, int64_t max, int64_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  int64_t value = 0;
  const char* end = text + std::strlen(text);
  auto [p, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || p != end || value <= 0 || value > max) return fallback;
  return value;
}

}  // namespace

int64_t maxModelOps() {
  // A value whose derived limits would overflow counts as unset, like one that is not a number.
  return positiveVariable(kMaxOpsVariable, int64_t{1} << 40, kDefaultMaxOps);
}

int torchScriptSeconds() {
  return static_cast<int>(positiveVariable(kTorchScriptSecondsVariable, 86'400, kDefaultTorchScriptSeconds));
}

int64_t torchScriptMemoryBytes() {
  const int64_t physical = physicalMemoryBytes();
  const int64_t fallbackMb = physical > 0 ? physical / 2 / (1 << 20) : 4096;
  return positiveVariable(kTorchScriptMemoryVariable, int64_t{1} << 30, fallbackMb) << 20;
}

int64_t maxTextFileBytes() { return 512 * maxModelOps(); }
int64_t maxJsonValues() { return 64 * maxModelOps(); }

std::string maxOpsHint() {
  return "set " + std::string(kMaxOpsVariable) + " above " + std::to_string(maxModelOps()) + " ops to allow more";
}

void checkModelOps(const std::string& source, int64_t count, const std::string& what) {
  if (count > maxModelOps())
    throw Error(source, "the model has " + std::to_string(count) + " " + what + ", over the limit of " +
                            std::to_string(maxModelOps()) + " (" + maxOpsHint() + ")");
}

}  // namespace gp
