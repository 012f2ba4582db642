// The libFuzzer entry point of a gp_fuzz_<name> program: the one target linked into it.
#include <cstdio>
#include <cstdlib>

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gp::fuzz::Target& target = [] {
    if (gp::fuzz::targets().size() != 1) {
      std::fprintf(stderr, "fuzz: expected one target, found %zu\n", gp::fuzz::targets().size());
      std::abort();
    }
    return gp::fuzz::targets().front();
  }();
  std::string problem = gp::fuzz::runOne(target.fn, data, size);
  if (!problem.empty()) {
    std::fprintf(stderr, "fuzz %s: %s\n", target.name, problem.c_str());
    std::abort();
  }
  return 0;
}
