// Where a process stands in a distributed run, read from the variables its launcher sets:
// torchrun-style RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT
// (scripts/launch-local.sh sets them too), or Open MPI's OMPI_COMM_WORLD_RANK,
// OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK and OMPI_COMM_WORLD_LOCAL_SIZE when started by
// mpirun (mpirun only launches: the processes then
// meet through MASTER_ADDR:MASTER_PORT like torchrun's). Defaults as torchrun's: MASTER_ADDR
// 127.0.0.1, MASTER_PORT 29500, LOCAL_RANK 0, LOCAL_WORLD_SIZE 1.
//
//   const DistEnv e = distEnvFrom([](const char* k) { return std::getenv(k); });
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace gp {

struct DistEnv {
  int rank = 0, worldSize = 1, localRank = 0;
  int localWorldSize = 1;  // ranks on this machine (they share its cores)
  std::string masterAddr = "127.0.0.1";
  uint16_t masterPort = 29500;
  std::string launcher;  // "torchrun" (the RANK variables) or "mpirun"
};

// `lookup` returns a variable's value or nullptr. Throws gp::Error("distributed", one line
// naming the variable) when neither launcher's variables are set, a value is not a whole
// number, the rank is not below the world size, or the port is outside 1..65535.
using EnvLookup = std::function<const char*(const char*)>;
DistEnv distEnvFrom(const EnvLookup& lookup);

}  // namespace gp
