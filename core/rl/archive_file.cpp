#include "rl/archive_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "base/child_process.h"
#include "base/error.h"
#include "base/input_limits.h"
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
  const ChildLimits limits{.seconds = torchScriptSeconds(), .maxMemoryBytes = torchScriptMemoryBytes()};
  const ChildResult trial = runInChild(
      [&] {
        torch::serialize::InputArchive probe;
        probe.load_from(path);
        return std::string();
      },
      limits);
  using End = ChildResult::End;
  if (trial.end == End::TimedOut)
    throw Error(path, "reading it ran longer than " + std::to_string(limits.seconds) + " s, over the limit (set " +
                          kTorchScriptSecondsVariable + " to allow more)");
  if (trial.end == End::OverMemory)
    throw Error(path, "reading it took more than " + std::to_string(limits.maxMemoryBytes >> 20) +
                          " MiB of memory, over the limit (set " + kTorchScriptMemoryVariable + " to allow more)");
  if (trial.end == End::Crashed)
    throw Error(path, "LibTorch crashed reading it (signal " + std::to_string(trial.signal) + ")");
  archive.load_from(path);
}

}  // namespace gp
