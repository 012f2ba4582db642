#include "base/file_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"

namespace gp {

std::string readFileText(const std::string& path, const std::string& kind) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(path, "no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(path, "is a directory, not " + kind);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(path, "cannot read the file");
  return text.str();
}

}  // namespace gp
