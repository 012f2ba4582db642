// The launcher's variables as a distributed run reads them: torchrun-style and Open MPI's, the
// defaults, and one-line errors for values that cannot work.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/error.h"
#include "optimize/dist_env.h"

using namespace gp;

namespace {

DistEnv from(const std::map<std::string, std::string>& vars) {
  return distEnvFrom([&](const char* k) -> const char* {
    auto it = vars.find(k);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

std::string errorOf(const std::map<std::string, std::string>& vars) {
  try {
    from(vars);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(DistEnv, ReadsTorchrunVariablesWithItsDefaults) {
  DistEnv e = from({{"RANK", "1"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"MASTER_ADDR", "10.0.0.2"},
                    {"MASTER_PORT", "29600"}});
  EXPECT_EQ(e.rank, 1);
  EXPECT_EQ(e.worldSize, 4);
  EXPECT_EQ(e.localRank, 1);
  EXPECT_EQ(e.localWorldSize, 1);
  EXPECT_EQ(e.masterAddr, "10.0.0.2");
  EXPECT_EQ(e.masterPort, 29600);
  EXPECT_EQ(e.launcher, "torchrun");
  e = from({{"RANK", "0"}, {"WORLD_SIZE", "1"}});
  EXPECT_EQ(e.masterAddr, "127.0.0.1");
  EXPECT_EQ(e.masterPort, 29500);
  EXPECT_EQ(e.localRank, 0);
  EXPECT_EQ(from({{"RANK", "0"}, {"WORLD_SIZE", "4"}, {"LOCAL_WORLD_SIZE", "2"}}).localWorldSize, 2);
}

TEST(DistEnv, ReadsOpenMpiVariablesUnderMpirun) {
  const DistEnv e = from({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "3"},
                          {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                          {"MASTER_ADDR", "node0"}});
  EXPECT_EQ(e.rank, 2);
  EXPECT_EQ(e.localWorldSize, 3);
  EXPECT_EQ(e.worldSize, 3);
  EXPECT_EQ(e.launcher, "mpirun");
  EXPECT_EQ(e.masterAddr, "node0");
  // torchrun's variables win where both are set
  EXPECT_EQ(from({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "2"}}).rank, 0);
}

TEST(DistEnv, BadValuesGetOneLine) {
  EXPECT_NE(errorOf({}).find("neither RANK nor OMPI_COMM_WORLD_RANK is set"), std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "0"}}).find("RANK is set but WORLD_SIZE is not"), std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "2"}, {"WORLD_SIZE", "2"}}).find("RANK=2 is not below WORLD_SIZE=2"), std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "x"}, {"WORLD_SIZE", "2"}}).find("RANK='x' is not a whole number"), std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "0"}}).find("WORLD_SIZE=0 is outside 1.."), std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "70000"}}).find("MASTER_PORT=70000 is outside"),
            std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_WORLD_SIZE", "3"}}).find("LOCAL_WORLD_SIZE=3 is outside 1..2"),
            std::string::npos);
  EXPECT_NE(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", ""}}).find("MASTER_ADDR is empty"),
            std::string::npos);
  EXPECT_NE(errorOf({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "2"}})
                .find("OMPI_COMM_WORLD_RANK=3 is not below OMPI_COMM_WORLD_SIZE=2"),
            std::string::npos);
  for (const std::string& e : {errorOf({}), errorOf({{"RANK", "5"}, {"WORLD_SIZE", "2"}})}) {
    EXPECT_EQ(e.find('\n'), std::string::npos);
    EXPECT_EQ(e.rfind("distributed: ", 0), 0u) << e;
  }
}
