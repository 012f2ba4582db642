// gp_fuzz_replay TARGET PATH...: runs every file under the PATHs (files or folders, recursively)
// through the fuzz target TARGET once, as the fuzzer would, and reports each input that breaks
// the loaders' contract (fuzz_target.h). Crashes and sanitizer reports end the process as they
// would in the fuzzer. Exit status 0 when every input passed, 1 otherwise, 2 for bad usage.
// `gp_fuzz_replay --list` prints the targets; `-v` first prints each input's outcome (read, or
// the loader's one-line error).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const gp::fuzz::Target& t : gp::fuzz::targets()) std::printf("%s\n", t.name);
    return 0;
  }
  bool verbose = argc > 1 && std::string(argv[1]) == "-v";
  if (verbose) {
    ++argv;
    --argc;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: gp_fuzz_replay [-v] TARGET PATH... | --list\n");
    return 2;
  }
  const gp::fuzz::Target* target = gp::fuzz::findTarget(argv[1]);
  if (!target) {
    std::fprintf(stderr, "gp_fuzz_replay: no target '%s' (--list names them)\n", argv[1]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 2; i < argc; ++i) {
    fs::path p = argv[i];
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, fs::directory_options::follow_directory_symlink))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "gp_fuzz_replay: %s: no such file or folder\n", p.c_str());
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    std::fprintf(stderr, "gp_fuzz_replay: no inputs for %s\n", target->name);
    return 2;
  }
  int failed = 0;
  for (const fs::path& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string outcome;
    std::string problem = gp::fuzz::runOne(target->fn, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                           verbose ? &outcome : nullptr);
    if (verbose && problem.empty()) std::printf("%s: %s\n", p.c_str(), outcome.c_str());
    if (!problem.empty()) {
      std::printf("FAIL %s: %s\n", p.c_str(), problem.c_str());
      ++failed;
    }
  }
  std::printf("%s: %zu inputs, %d failed\n", target->name, inputs.size(), failed);
  return failed ? 1 : 0;
}
