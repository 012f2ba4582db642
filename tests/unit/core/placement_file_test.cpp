// Annotated placement files: export, reload, same plan and same step time; clear errors.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "error_text.h"
#include "fusion/fuser.h"
#include "base/error.h"
#include "graph/training.h"
#include "io/model_loader.h"
#include "io/placement_file.h"
#include "sim/simulator.h"

using namespace gp;

namespace {
struct Fixture {
  Graph g = loadModel("zoo:resnet50", {.zoo = {.batch = 2}});
  Cluster c = loadCluster("8xV100-DGX1");
  ModelIdentity id{"zoo:resnet50", modelSha256("zoo:resnet50", {.zoo = {.batch = 2}}), g.numOps()};
  Plan plan() const {
    Plan p;
    for (OpId op = 0; op < g.numOps(); ++op) p.device.push_back(op * 3 / g.numOps());  // three contiguous parts
    p.priority.resize(static_cast<size_t>(g.numOps()));
    for (OpId op = 0; op < g.numOps(); ++op) p.priority[op] = op % 5;
    p.fusionGroup = defaultFusion(g, p.device);  // real groups, so the round trip carries them
    return p;
  }
};

std::string errorOf(const Fixture& f, const std::string& text, const ModelIdentity& id) {
  return gptest::errorOf([&] { parsePlacement(text, "p.json", f.g, id); });
}

// The exported file of Fixture::plan, simulated on the fixture's cluster.
std::string goodPlacement(const Fixture& f) {
  CostModel cost(f.g, f.c);
  Simulator sim(cost);
  Plan p = f.plan();
  return placementToJson(f.g, f.id, f.c, p, sim.run(p));
}

// `text` parsed, changed by `change`, written back.
template <typename Change>
std::string edited(const std::string& text, Change change) {
  auto j = nlohmann::json::parse(text);
  change(j);
  return j.dump();
}
}  // namespace

TEST(PlacementFile, RoundTripRestoresThePlanAndTheStepTime) {
  Fixture f;
  CostModel cost(f.g, f.c);
  Simulator sim(cost);
  Plan p = f.plan();
  Measurement m = sim.run(p);
  ASSERT_TRUE(m.feasible) << m.problem;
  ASSERT_GT(m.commBytes, 0);
  const std::string text = placementToJson(f.g, f.id, f.c, p, m);
  LoadedPlacement lp = parsePlacement(text, "p.json", f.g, f.id);
  EXPECT_EQ(lp.plan.device, p.device);
  EXPECT_EQ(lp.plan.priority, p.priority);
  ASSERT_GT(*std::max_element(p.fusionGroup.begin(), p.fusionGroup.end()), 10);
  EXPECT_EQ(lp.plan.fusionGroup, p.fusionGroup);
  EXPECT_EQ(lp.cluster.name(), "8xV100-DGX1");
  CostModel cost2(f.g, lp.cluster);
  Simulator sim2(cost2);
  EXPECT_DOUBLE_EQ(sim2.run(lp.plan).stepTime, m.stepTime);
  auto j = nlohmann::json::parse(text);
  EXPECT_DOUBLE_EQ(j["metrics"]["step_time_ms"].get<double>(), m.stepTime * 1e3);
  EXPECT_EQ(j["ops"].size(), static_cast<size_t>(f.g.numOps()));
  EXPECT_TRUE(j["ops"][0].contains("start_ms"));
}

TEST(PlacementFile, MismatchesAreClearErrors) {
  Fixture f;
  const std::string good = goodPlacement(f);
  auto edit = [&](auto change) { return edited(good, change); };
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["ops"][3]["name"] = "nope"; }), f.id).find("'nope' is not in the model"),
            std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["ops"][3]["device"] = "gpu9"; }), f.id).find("does not have"),
            std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["model"]["ops"] = 12; }), f.id).find("places 12 ops"), std::string::npos);
  EXPECT_NE(errorOf(f, "{]", f.id).find("p.json: not valid JSON"), std::string::npos);
  ModelIdentity other = f.id;
  other.sha256 = "0000";
  EXPECT_NE(errorOf(f, good, other).find("--ignore-hash"), std::string::npos);
  LoadedPlacement lp = parsePlacement(good, "p.json", f.g, other, /*allowHashMismatch=*/true);
  EXPECT_EQ(lp.warnings.size(), 1u);
}

TEST(PlacementFile, MissingHashOrHugePriorityIsRefused) {
  Fixture f;
  const std::string good = goodPlacement(f);
  const std::string noHash = edited(good, [](auto& j) { j["model"].erase("sha256"); });
  EXPECT_NE(errorOf(f, noHash, f.id).find("records no model SHA-256"), std::string::npos) << errorOf(f, noHash, f.id);
  const std::string hugePriority = edited(good, [](auto& j) { j["ops"][0]["priority"] = 5'000'000'000LL; });
  EXPECT_NE(errorOf(f, hugePriority, f.id).find("priority 5000000000, not an integer in the 32-bit range"), std::string::npos);
}

// Numbers of the wrong kind or size are one-line errors, never converted: a float far outside
// int's range (undefined behaviour in the conversion), an integer past 32 bits (narrowed), a
// string where a number goes.
TEST(PlacementFile, NumbersOutOfRangeAreRefused) {
  Fixture f;
  const std::string good = goodPlacement(f);
  auto edit = [&](auto change) { return edited(good, change); };
  EXPECT_EQ(errorOf(f, edit([](auto& j) { j["version"] = 7.77e67; }), f.id), "p.json: unsupported version");
  EXPECT_EQ(errorOf(f, edit([](auto& j) { j["version"] = "1"; }), f.id), "p.json: unsupported version");
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["model"]["ops"] = 1e300; }), f.id).find("needs \"ops\""), std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["model"].erase("ops"); }), f.id).find("needs \"ops\""), std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["ops"][0]["priority"] = -1e300; }), f.id).find("priority -1e+300, not an integer"),
            std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["ops"][0]["fusion_group"] = 4'294'967'296LL; }), f.id)
                .find("fusion group 4294967296 out of range"),
            std::string::npos);
  EXPECT_NE(errorOf(f, edit([](auto& j) { j["ops"][0]["fusion_group"] = "0"; }), f.id).find("fusion group \"0\" out of range"),
            std::string::npos);
  EXPECT_EQ(errorOf(f, edit([](auto& j) { j["format"] = 2; }), f.id).find("p.json: not a graphplace placement file"), 0u);
}
