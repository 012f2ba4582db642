// PyTorch's archives — TorchScript modules and torch::save files (our policies, pre-training
// sessions, cost models, Q-networks) — are zip files whose records LibTorch reads whole into
// memory at the size the zip directory claims. Before LibTorch opens one, its directory is
// checked so that a zip bomb is refused in one line instead of exhausting memory:
//   - at most kMaxTorchArchiveEntries records;
//   - no record over 1 MiB that expands more than kMaxTorchCompression times its stored size
//     (PyTorch stores its records uncompressed);
//   - all records together at most 4 times the file's size plus 256 MiB.
// A file that is not a zip archive passes: LibTorch then reports what it is not.
#pragma once
#include <cstdint>
#include <string>

namespace gp {

inline constexpr int64_t kMaxTorchArchiveEntries = 1'000'000;
inline constexpr int64_t kMaxTorchCompression = 100;

// Throws gp::Error(path, "entry NAME: ... (a zip bomb?)") for an archive over a bound above.
void checkTorchArchive(const std::string& path);

}  // namespace gp
