#include "base/input_limits.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "base/error.h"

namespace gp {

int64_t maxModelOps() {
  const char* text = std::getenv(kMaxOpsVariable);
  if (!text || !*text) return kDefaultMaxOps;
  int64_t value = 0;
  const char* end = text + std::strlen(text);
  auto [p, ec] = std::from_chars(text, end, value);
  // A value whose derived limits would overflow counts as unset, like one that is not a number.
  if (ec != std::errc() || p != end || value <= 0 || value > (int64_t{1} << 40)) return kDefaultMaxOps;
  return value;
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
