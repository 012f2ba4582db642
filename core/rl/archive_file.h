// Writing a LibTorch archive (a policy, session, cost model or Q-network file) so that a reader,
// or a process killed mid-write, sees the old file or the new one, never half of one.
#pragma once
#include <torch/serialize/output-archive.h>

#include <string>

namespace gp {

// Saves to path + ".tmp", flushes it to disk and renames it over `path`. Throws
// gp::Error(path, "cannot write <what>: ...").
void saveArchiveAtomically(torch::serialize::OutputArchive& archive, const std::string& path, const std::string& what);

}  // namespace gp
