#include "fuzz_target.h"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <typeinfo>

#include "base/error.h"

namespace gp::fuzz {
namespace {

std::vector<Target>& registry() {
  static std::vector<Target> all;
  return all;
}

// Removes the private folder when the process ends normally.
struct InputFolder {
  std::filesystem::path dir;
  InputFolder() {
    std::error_code ec;
    dir = std::filesystem::temp_directory_path(ec) / ("gp-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir, ec);
  }
  ~InputFolder() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

bool registerTarget(const char* name, TargetFn fn) {
#ifdef GP_FUZZ_ONLY
  // A libFuzzer program holds one target; its source file may define others.
#define GP_FUZZ_NAME2(x) #x
#define GP_FUZZ_NAME(x) GP_FUZZ_NAME2(x)
  if (std::string_view(name) != GP_FUZZ_NAME(GP_FUZZ_ONLY)) return false;
#endif
  registry().push_back({name, fn});
  return true;
}

const std::vector<Target>& targets() { return registry(); }

const Target* findTarget(std::string_view name) {
  for (const Target& t : registry())
    if (name == t.name) return &t;
  return nullptr;
}

std::string runOne(TargetFn fn, const uint8_t* data, size_t size, std::string* outcome) {
  try {
    fn(data, size);
    if (outcome) *outcome = "read";
  } catch (const gp::Error& e) {
    std::string message = e.what();
    if (outcome) *outcome = message;
    if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos)
      return "gp::Error message is not one line: " + message;
    if (e.source().empty()) return "gp::Error names no source: " + message;
  } catch (const std::exception& e) {
    return std::string("exception other than gp::Error (") + typeid(e).name() + "): " + e.what();
  } catch (...) {
    return "exception of an unknown type";
  }
  return "";
}

std::string inputFile(const uint8_t* data, size_t size, const std::string& extension) {
  static InputFolder folder;
  std::filesystem::path path = folder.dir / ("input" + extension);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path.string();
}

}  // namespace gp::fuzz
