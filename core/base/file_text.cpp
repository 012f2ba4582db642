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

void writeTextFileAtomically(const std::string& path, const std::string& text) {
  if (path.empty()) throw Error("output", "empty output path");
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path, "cannot open file for writing");
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw Error(path, "write error");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error(path, "cannot write file (" + ec.message() + ")");
  }
}

}  // namespace gp
