#include "rl/policy_file.h"

#include <filesystem>

#include "cluster/cluster.h"
#include "fusion/fuser.h"
#include "base/error.h"
#include "base/resource_dir.h"
#include "rl/archive_file.h"

namespace gp::rl {
namespace {

// 1: placement-only policies (7 config values); 2: + multiTask, scheduleLevels, fusionLevels;
// 3: the device embedding (deviceQuery, deviceEmbed) is always there. Files of formats 1 and 2
// load when they hold it (the last format-2 files do), else a one-line error. 4: + keepPrior
// (older files load without it). 5: + relativeDevices.
constexpr int64_t kCheckpointFormat = 5;

}  // namespace

void writePolicy(GdpPolicy& policy, torch::serialize::OutputArchive& archive) {
  const PolicyConfig& c = policy->config();
  archive.write("gp_policy_format", torch::tensor({kCheckpointFormat}));
  archive.write("config", torch::tensor({c.hidden, c.typeEmbedding, c.sageLayers, c.segment, c.heads, c.maxDevices,
                                         static_cast<int64_t>(c.film), static_cast<int64_t>(c.multiTask),
                                         c.scheduleLevels, c.fusionLevels, static_cast<int64_t>(c.keepPrior),
                                         static_cast<int64_t>(c.relativeDevices)}));
  archive.write("feature_dim", torch::tensor({policy->featureDim()}));
  torch::serialize::OutputArchive weights;
  policy->save(weights);
  archive.write("policy", weights);
}

GdpPolicy readPolicy(torch::serialize::InputArchive& archive, const std::string& path) {
  torch::Tensor format, config, featureDim;
  if (!archive.try_read("gp_policy_format", format) || format.numel() != 1 || format.item<int64_t>() < 1 ||
      format.item<int64_t>() > kCheckpointFormat)
    throw Error(path, "not a graphplace policy checkpoint (format 1 to " + std::to_string(kCheckpointFormat) + ")");
  const int64_t f = format.item<int64_t>();
  const int64_t values = f == 1 ? 7 : f < 4 ? 10 : f < 5 ? 11 : 12;
  if (!archive.try_read("config", config) || config.numel() != values || !archive.try_read("feature_dim", featureDim) ||
      featureDim.numel() != 1)
    throw Error(path, "the policy checkpoint has no valid config");
  config = config.to(torch::kInt64).contiguous();
  const int64_t* v = config.data_ptr<int64_t>();
  PolicyConfig c;
  c.hidden = v[0];
  c.typeEmbedding = v[1];
  c.sageLayers = v[2];
  c.segment = v[3];
  c.heads = v[4];
  c.maxDevices = v[5];
  c.film = v[6] != 0;
  c.multiTask = values > 7 && v[7] != 0;
  if (values > 7) {
    c.scheduleLevels = v[8];
    c.fusionLevels = v[9];
  }
  c.keepPrior = values > 10 && v[10] != 0;
  c.relativeDevices = values > 11 && v[11] != 0;
  if (c.hidden <= 0 || c.typeEmbedding <= 0 || c.sageLayers < 0 || c.segment <= 0 || c.heads <= 0 ||
      c.hidden % c.heads != 0 || c.maxDevices <= 0 || c.maxDevices > kMaxDevices || featureDim.item<int64_t>() <= 0 ||
      (c.multiTask && (c.scheduleLevels < 2 || c.scheduleLevels > 64 || c.fusionLevels < 2 || c.fusionLevels > 64)))
    throw Error(path, "the policy checkpoint's config is out of range");
  GdpPolicy policy(featureDim.item<int64_t>(), c);
  torch::serialize::InputArchive weights;
  archive.read("policy", weights);
  try {
    policy->load(weights);
  } catch (const c10::Error& e) {
    if (format.item<int64_t>() < 3)
      throw Error(path, "a policy of format " + std::to_string(format.item<int64_t>()) +
                            " from an older version (no device embedding): pre-train a new one");
    throw;
  }
  return policy;
}

namespace {

void requireFile(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path, std::string("no such ") + what + " file");
}

int64_t scalar(torch::serialize::InputArchive& archive, const char* key, const std::string& path) {
  torch::Tensor t;
  if (!archive.try_read(key, t) || t.numel() != 1) throw Error(path, "not an optimizer session (no " + std::string(key) + ")");
  return t.to(torch::kInt64).item<int64_t>();
}

}  // namespace

void saveCheckpoint(GdpPolicy& policy, const std::string& path) {
  torch::serialize::OutputArchive archive;
  try {
    writePolicy(policy, archive);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot write the policy: ") + e.what_without_backtrace());
  }
  saveArchiveAtomically(archive, path, "the policy");
}

GdpPolicy loadCheckpoint(const std::string& path) {
  requireFile(path, "policy");
  try {
    torch::serialize::InputArchive archive;
    loadArchiveChecked(archive, path);
    return readPolicy(archive, path);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the policy: ") + e.what_without_backtrace());
  }
}

std::string shippedPolicyFile(const std::string& name) { return findResourceFile("policies", name); }

std::string defaultPolicyPath() { return shippedPolicyFile("gdp_default.pt"); }

void saveWithPolicy(GdpPolicy& policy, const torch::optim::Adam& optimizer, const std::string& path,
                    const std::string& what, const std::function<void(torch::serialize::OutputArchive&)>& fill) {
  torch::serialize::OutputArchive archive;
  try {
    writePolicy(policy, archive);
    fill(archive);
    torch::serialize::OutputArchive state;
    optimizer.save(state);
    archive.write("optimizer", state);
  } catch (const c10::Error& e) {
    throw Error(path, "cannot write " + what + ": " + e.what_without_backtrace());
  }
  saveArchiveAtomically(archive, path, what);
}

void saveSession(GdpPolicy& policy, const torch::optim::Adam& optimizer, const Session& session,
                 const std::string& path) {
  saveWithPolicy(policy, optimizer, path, "the optimizer checkpoint", [&](torch::serialize::OutputArchive& archive) {
    const Plan& p = session.best;
    archive.write("session_ops", torch::tensor({static_cast<int64_t>(p.device.size())}));
    archive.write("session_iterations", torch::tensor({static_cast<int64_t>(session.iterations)}));
    archive.write("session_device", torch::tensor(p.device, torch::kInt32));
    archive.write("session_priority", torch::tensor(p.priority, torch::kInt32));
    archive.write("session_fusion", torch::tensor(p.fusionGroup, torch::kInt32));
    archive.write("session_history", torch::tensor(session.history, torch::kFloat64));
  });
}

LoadedSession loadSession(const std::string& path, int64_t ops, int64_t devices) {
  requireFile(path, "checkpoint");
  LoadedSession s;
  try {
    torch::serialize::InputArchive archive;
    loadArchiveChecked(archive, path);
    s.policy = readPolicy(archive, path);
    const int64_t savedOps = scalar(archive, "session_ops", path);
    if (savedOps != ops)
      throw Error(path, "the checkpoint is for a graph of " + std::to_string(savedOps) + " ops, this one has " +
                            std::to_string(ops));
    s.session.iterations = static_cast<int>(scalar(archive, "session_iterations", path));
    torch::Tensor device, priority, history;
    if (!archive.try_read("session_device", device) || device.numel() != ops ||
        !archive.try_read("session_priority", priority) || (priority.numel() != 0 && priority.numel() != ops) ||
        !archive.try_read("session_history", history))
      throw Error(path, "the optimizer checkpoint's plan is damaged");
    torch::Tensor fusion;  // absent in sessions written before fusion groups
    if (archive.try_read("session_fusion", fusion)) {
      if (fusion.numel() != 0 && fusion.numel() != ops) throw Error(path, "the optimizer checkpoint's plan is damaged");
      fusion = fusion.to(torch::kInt32).contiguous();
      s.session.best.fusionGroup.assign(fusion.data_ptr<int32_t>(), fusion.data_ptr<int32_t>() + fusion.numel());
    }
    device = device.to(torch::kInt32).contiguous();
    priority = priority.to(torch::kInt32).contiguous();
    history = history.to(torch::kFloat64).contiguous();
    s.session.best.device.assign(device.data_ptr<int32_t>(), device.data_ptr<int32_t>() + ops);
    s.session.best.priority.assign(priority.data_ptr<int32_t>(), priority.data_ptr<int32_t>() + priority.numel());
    s.session.history.assign(history.data_ptr<double>(), history.data_ptr<double>() + history.numel());
    for (int32_t d : s.session.best.device)
      if (d < 0 || d >= devices)
        throw Error(path, "the checkpoint's plan uses device " + std::to_string(d) + ", the cluster has " +
                              std::to_string(devices));
    for (int32_t group : s.session.best.fusionGroup)
      if (group < -1 || group >= ops)
        throw Error(path, "the checkpoint's plan has fusion group " + std::to_string(group) + ", groups are -1 to " +
                              std::to_string(ops - 1));
    archive.read("optimizer", s.optimizerState);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the optimizer checkpoint: ") + e.what_without_backtrace());
  }
  return s;
}

LoadedSession loadSession(const std::string& path, const Graph& g, int64_t devices) {
  LoadedSession s = loadSession(path, g.numOps(), devices);
  if (const std::string why = fusionProblem(g, s.session.best); !why.empty())
    throw Error(path, "the checkpoint's plan breaks the fusion rules: " + why);
  return s;
}

}  // namespace gp::rl
