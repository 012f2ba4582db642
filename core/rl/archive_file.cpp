#include "rl/archive_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "base/error.h"
#include "base/torchscript_child.h"
#include "io/torch_archive.h"

namespace gp {

void saveArchiveAtomically(torch::serialize::OutputArchive& archive, const std::string& path, const std::string& what) {
  const std::string tmp = path + ".tmp";
  try {
    archive.save_to(tmp);
  } catch (const c10::Error& e) {
    throw Error(path, "cannot write " + what + ": " + e.what_without_backtrace());
  }
  // LibTorch's writer has closed the file; an fsync through a new descriptor puts it on disk.
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  std::error_code ec;
  if (!synced) {
    std::filesystem::remove(tmp, ec);
    throw Error(path, "cannot write " + what + ": the file could not be flushed to disk");
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(path, "cannot write " + what + ": " + ec.message());
}

void loadArchiveChecked(torch::serialize::InputArchive& archive, const std::string& path) {
  checkTorchArchive(path);
  runTorchScriptInChild(
      [&] {
        torch::serialize::InputArchive probe;
        probe.load_from(path);
        return std::string();
      },
      path, "reading it");
  archive.load_from(path);
}

}  // namespace gp
