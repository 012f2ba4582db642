#include "rl/pretrain_session.h"

#include <filesystem>

#include "base/error.h"
#include "rl/archive_file.h"
#include "rl/policy_file.h"

namespace gp::rl {
namespace {

std::vector<int32_t> ints(torch::serialize::InputArchive& a, const std::string& key, const std::string& path) {
  torch::Tensor t;
  if (!a.try_read(key, t) || t.dim() != 1) throw Error(path, "not a pre-training session (no " + key + ")");
  t = t.to(torch::kInt32).contiguous();
  return {t.data_ptr<int32_t>(), t.data_ptr<int32_t>() + t.numel()};
}

}  // namespace

void savePretrainSession(GdpPolicy& policy, const torch::optim::Adam& optimizer, const PretrainSession& session,
                         const std::string& path) {
  saveWithPolicy(policy, optimizer, path, "the pre-training session", [&](torch::serialize::OutputArchive& archive) {
    archive.write("pretrain_rounds", torch::tensor({static_cast<int64_t>(session.rounds)}));
    archive.write("pretrain_seconds", torch::tensor({session.seconds}, torch::kFloat64));
    std::vector<double> curve;
    for (const PretrainCurvePoint& p : session.curve)
      curve.insert(curve.end(), {static_cast<double>(p.round), p.seconds, p.zeroShotGain, p.greedyGain});
    archive.write("pretrain_curve",
                  torch::tensor(curve, torch::kFloat64).view({static_cast<int64_t>(session.curve.size()), 4}));
    archive.write("pretrain_tasks", torch::tensor({static_cast<int64_t>(session.best.size())}));
    for (size_t i = 0; i < session.best.size(); ++i) {
      const std::string k = "task_" + std::to_string(i) + "_";
      archive.write(k + "units", torch::tensor(session.best[i].units, torch::kInt32));
      archive.write(k + "schedule", torch::tensor(session.best[i].schedule, torch::kInt32));
      archive.write(k + "fusion", torch::tensor(session.best[i].fusion, torch::kInt32));
    }
  });
}

LoadedPretrainSession loadPretrainSession(const std::string& path, size_t tasks) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path, "no such pre-training session file");
  LoadedPretrainSession out;
  try {
    torch::serialize::InputArchive archive;
    loadArchiveChecked(archive, path);
    out.policy = readPolicy(archive, path);
    torch::Tensor rounds, seconds, curve, count;
    if (!archive.try_read("pretrain_rounds", rounds) || rounds.numel() != 1 ||
        !archive.try_read("pretrain_seconds", seconds) || seconds.numel() != 1 ||
        !archive.try_read("pretrain_curve", curve) || curve.dim() != 2 || curve.size(1) != 4 ||
        !archive.try_read("pretrain_tasks", count) || count.numel() != 1)
      throw Error(path, "not a pre-training session (a policy file? use --from)");
    if (count.item<int64_t>() != static_cast<int64_t>(tasks))
      throw Error(path, "the session trained on " + std::to_string(count.item<int64_t>()) +
                            " tasks, this corpus has " + std::to_string(tasks));
    out.session.rounds = static_cast<int>(rounds.item<int64_t>());
    out.session.seconds = seconds.item<double>();
    curve = curve.to(torch::kFloat64).contiguous();
    for (int64_t i = 0; i < curve.size(0); ++i) {
      const double* r = curve.data_ptr<double>() + 4 * i;
      out.session.curve.push_back({static_cast<int>(r[0]), r[1], r[2], r[3]});
    }
    for (size_t i = 0; i < tasks; ++i) {
      const std::string k = "task_" + std::to_string(i) + "_";
      out.session.best.push_back({ints(archive, k + "units", path), ints(archive, k + "schedule", path),
                                  ints(archive, k + "fusion", path)});
    }
    archive.read("optimizer", out.optimizerState);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the pre-training session: ") + e.what_without_backtrace());
  }
  return out;
}

}  // namespace gp::rl
