// Reading and writing LibTorch archives (policy, session, cost-model and Q-network files).
#pragma once
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <string>

namespace gp {

// Saves to path + ".tmp", flushes it to disk and renames it over `path`, so that a reader, or a
// process killed mid-write, sees the old file or the new one, never half of one. Throws
// gp::Error(path, "cannot write <what>: ...").
void saveArchiveAtomically(torch::serialize::OutputArchive& archive, const std::string& path, const std::string& what);

// Loads a file a user may have downloaded into `archive`. Loading runs the file's code (a
// __setstate__ method), so the directory is checked against zip bombs (checkTorchArchive) and a
// trial load runs first in a child process within the TorchScript bounds of
// base/input_limits.h. Throws gp::Error(path, ...) when the trial runs past a bound or crashes
// LibTorch; LibTorch's own errors (c10::Error) come from the load here, as without the trial.
void loadArchiveChecked(torch::serialize::InputArchive& archive, const std::string& path);

}  // namespace gp
