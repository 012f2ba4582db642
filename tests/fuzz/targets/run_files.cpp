// Files written by runs and read back: the run event log (followed by the app's Attach to Run,
// here read in two polls split at a point the input chooses) and TpuGraphs' .npz collections.
#include <fstream>

#include "base/error.h"
#include "costmodel/tpugraphs.h"
#include "fuzz_target.h"
#include "optimize/run_log.h"

GP_FUZZ_TARGET(run_log) {
  // The first byte picks how much of the rest is there at the first poll.
  if (size == 0) return;
  size_t first = size > 1 ? (data[0] * (size - 1)) / 255 : 0;
  const uint8_t* body = data + 1;
  size_t bodySize = size - 1;
  std::string path = gp::fuzz::inputFile(body, first, ".jsonl");
  gp::RunLogFollower follower(path);
  follower.poll();
  std::ofstream(path, std::ios::binary | std::ios::app)
      .write(reinterpret_cast<const char*>(body + first), static_cast<std::streamsize>(bodySize - first));
  follower.poll();
}

GP_FUZZ_TARGET(tpugraphs_npz) {
  // Read both ways: as a tile (kernel) file and as a layout (plan) file.
  std::string path = gp::fuzz::inputFile(data, size, ".npz");
  try {
    gp::readTpuGraphsFile(path, gp::CostTask::Kernel, 4);
  } catch (const gp::Error&) {
  }
  gp::readTpuGraphsFile(path, gp::CostTask::Plan, 4);
}
