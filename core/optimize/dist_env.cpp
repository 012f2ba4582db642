#include "optimize/dist_env.h"

#include <charconv>
#include <string_view>

#include "base/error.h"

namespace gp {
namespace {

[[noreturn]] void fail(const std::string& problem) { throw Error("distributed", problem); }

long long wholeNumber(const char* name, const char* value, long long lo, long long hi) {
  const std::string_view v(value);
  long long n = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size())
    fail(std::string(name) + "='" + std::string(v) + "' is not a whole number");
  if (n < lo || n > hi)
    fail(std::string(name) + "=" + std::to_string(n) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return n;
}

}  // namespace

DistEnv distEnvFrom(const EnvLookup& lookup) {
  constexpr long long kMaxRanks = 1 << 20;
  DistEnv e;
  const char* rank = lookup("RANK");
  const char* size = lookup("WORLD_SIZE");
  const char* local = lookup("LOCAL_RANK");
  const char* localSize = lookup("LOCAL_WORLD_SIZE");
  const char* rankName = "RANK";
  const char* sizeName = "WORLD_SIZE";
  const char* localName = "LOCAL_RANK";
  const char* localSizeName = "LOCAL_WORLD_SIZE";
  e.launcher = "torchrun";
  if (!rank && lookup("OMPI_COMM_WORLD_RANK")) {
    rank = lookup("OMPI_COMM_WORLD_RANK");
    size = lookup("OMPI_COMM_WORLD_SIZE");
    local = lookup("OMPI_COMM_WORLD_LOCAL_RANK");
    localSize = lookup("OMPI_COMM_WORLD_LOCAL_SIZE");
    rankName = "OMPI_COMM_WORLD_RANK";
    sizeName = "OMPI_COMM_WORLD_SIZE";
    localName = "OMPI_COMM_WORLD_LOCAL_RANK";
    localSizeName = "OMPI_COMM_WORLD_LOCAL_SIZE";
    e.launcher = "mpirun";
  }
  if (!rank)
    fail("neither RANK nor OMPI_COMM_WORLD_RANK is set: launch with scripts/launch-local.sh N, torchrun-style "
         "variables (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT) or mpirun");
  if (!size) fail(std::string(rankName) + " is set but " + sizeName + " is not");
  e.worldSize = static_cast<int>(wholeNumber(sizeName, size, 1, kMaxRanks));
  e.rank = static_cast<int>(wholeNumber(rankName, rank, 0, kMaxRanks));
  if (e.rank >= e.worldSize)
    fail(std::string(rankName) + "=" + std::to_string(e.rank) + " is not below " + sizeName + "=" +
         std::to_string(e.worldSize));
  if (local) e.localRank = static_cast<int>(wholeNumber(localName, local, 0, kMaxRanks));
  if (localSize) e.localWorldSize = static_cast<int>(wholeNumber(localSizeName, localSize, 1, e.worldSize));
  if (const char* addr = lookup("MASTER_ADDR")) {
    if (!*addr) fail("MASTER_ADDR is empty");
    e.masterAddr = addr;
  }
  if (const char* port = lookup("MASTER_PORT")) e.masterPort = static_cast<uint16_t>(wholeNumber("MASTER_PORT", port, 1, 65535));
  return e;
}

}  // namespace gp
