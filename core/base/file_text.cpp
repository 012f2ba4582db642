#include "base/file_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "base/fd_write.h"
#include "base/input_limits.h"

namespace gp {

std::string readFileText(const std::string& path, const std::string& kind) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(path, "no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(path, "is a directory, not " + kind);
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > static_cast<uintmax_t>(maxTextFileBytes()))
    throw Error(path, "the file is " + std::to_string(size) + " bytes, over the limit of " +
                          std::to_string(maxTextFileBytes()) + " bytes for " + kind + " (" + maxOpsHint() + ")");
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
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path, "cannot open file for writing (" + std::string(std::strerror(errno)) + ")");
  // On disk before the rename, so that a crash of the machine, too, leaves the old file or the new.
  const bool written = writeAll(fd, text) && ::fsync(fd) == 0;
  const int writeErrno = errno;
  ::close(fd);
  std::error_code ec;
  if (!written) {
    std::filesystem::remove(tmp, ec);
    throw Error(path, "write error (" + std::string(std::strerror(writeErrno)) + ")");
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error(path, "cannot write file (" + ec.message() + ")");
  }
}

}  // namespace gp
