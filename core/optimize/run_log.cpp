#include "optimize/run_log.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>

#include "base/error.h"
#include "base/json_text.h"

namespace gp {
namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr int64_t kMaxCount = 1 << 24;  // tasks, ranks, ops: anything larger is not ours

struct BadEvent {
  std::string what;
};

// A field: a number (null for a step time: infinity), or absent (the fallback).
double number(const nlohmann::json& e, const char* key, double fallback = 0) {
  const auto it = e.find(key);
  if (it == e.end()) return fallback;
  if (it->is_null()) return std::numeric_limits<double>::infinity();
  if (!it->is_number()) throw BadEvent{std::string(key) + " is not a number"};
  return it->get<double>();
}

int64_t whole(const nlohmann::json& e, const char* key, int64_t lo, int64_t hi, int64_t fallback = 0) {
  const double v = number(e, key, static_cast<double>(fallback));
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != std::floor(v))
    throw BadEvent{std::string(key) + " is not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi)};
  return static_cast<int64_t>(v);
}

std::string text(const nlohmann::json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) return {};
  if (!it->is_string()) throw BadEvent{std::string(key) + " is not a string"};
  return it->get<std::string>();
}

bool flag(const nlohmann::json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) return false;
  if (!it->is_boolean()) throw BadEvent{std::string(key) + " is not true or false"};
  return it->get<bool>();
}

std::vector<double> numbers(const nlohmann::json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) return {};
  if (!it->is_array() || it->size() > static_cast<size_t>(kMaxCount)) throw BadEvent{std::string(key) + " is not a list"};
  std::vector<double> out;
  for (const auto& v : *it) {
    if (!v.is_number()) throw BadEvent{std::string(key) + " holds something other than numbers"};
    out.push_back(v.get<double>());
  }
  return out;
}

// A list of whole numbers, each at least `lo` (and within int32).
std::vector<int32_t> indices(const nlohmann::json& e, const char* key, int64_t lo) {
  std::vector<int32_t> out;
  for (double d : numbers(e, key)) {
    if (!(d >= static_cast<double>(lo) && d <= std::numeric_limits<int32_t>::max()) || d != std::floor(d))
      throw BadEvent{std::string(key) + " holds something other than whole numbers from " + std::to_string(lo)};
    out.push_back(static_cast<int32_t>(d));
  }
  return out;
}

}  // namespace

RunLogWriter::RunLogWriter(std::string path) : path_(std::move(path)), out_(path_, std::ios::trunc), startNs_(nowNs()) {
  if (!out_) throw Error(path_, "cannot write the event log here");
}

void RunLogWriter::event(const std::string& kind, nlohmann::ordered_json fields) {
  nlohmann::ordered_json line{{"event", kind}, {"t", static_cast<double>(nowNs() - startNs_) * 1e-9}};
  for (auto& [k, v] : fields.items()) line[k] = std::move(v);
  out_ << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << std::flush;
  if (!out_) throw Error(path_, "cannot write the event log (disk full?)");
}

RunLogFollower::RunLogFollower(std::string path) : path_(std::move(path)) {}

bool RunLogFollower::poll() {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path_, ec);
  if (ec) throw Error(path_, "no such event log");
  if (size < offset_) {  // started again (a new run writing the same file)
    offset_ = 0;
    partial_.clear();
    line_ = 0;
    state_ = {};
  }
  if (size == offset_) return false;
  std::ifstream in(path_, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset_));
  std::string chunk(static_cast<size_t>(std::min<uint64_t>(size - offset_, 16u << 20)), '\0');
  in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  chunk.resize(static_cast<size_t>(in.gcount()));
  offset_ += chunk.size();
  bool changed = false;
  size_t from = 0;
  for (size_t nl; (nl = chunk.find('\n', from)) != std::string::npos; from = nl + 1) {
    partial_.append(chunk, from, nl - from);
    std::string line;
    line.swap(partial_);
    ++line_;
    if (line.empty()) continue;
    try {
      nlohmann::json e;
      try {
        e = parseJsonText(line, path_);
      } catch (const Error& bad) {
        const bool syntax = bad.problem().rfind("not valid JSON", 0) == 0;
        throw BadEvent{syntax ? "not JSON (not an event log?)" : bad.problem()};
      }
      if (!e.is_object() || !e.contains("event") || !e["event"].is_string()) throw BadEvent{"not an event (no \"event\")"};
      apply(e);
      changed = true;
    } catch (const BadEvent& b) {
      throw Error(path_, "line " + std::to_string(line_) + ": " + b.what);
    } catch (const nlohmann::json::exception&) {
      throw Error(path_, "line " + std::to_string(line_) + ": not JSON (not an event log?)");
    }
  }
  partial_.append(chunk, from, std::string::npos);
  if (partial_.size() > kMaxLine) throw Error(path_, "line " + std::to_string(line_ + 1) + " is longer than 64 MiB");
  return changed;
}

void RunLogFollower::apply(const nlohmann::json& e) {
  RunLogState& s = state_;
  const std::string kind = e["event"].get<std::string>();
  s.lastEventSeconds = number(e, "t", s.lastEventSeconds);
  ++s.events;
  if (kind == "run") {
    if (text(e, "format") != "graphplace-events") throw BadEvent{"not a graphplace event log (format)"};
    if (whole(e, "version", 0, kMaxCount) != 1) throw BadEvent{"an event log of another version"};
    s.command = text(e, "command");
    s.model = text(e, "model");
    s.cluster = text(e, "cluster");
    s.ranks = static_cast<int>(whole(e, "ranks", 1, kMaxCount, 1));
    s.seed = static_cast<uint64_t>(whole(e, "seed", 0, std::numeric_limits<int64_t>::max() / 2));
    s.ops = static_cast<int>(whole(e, "ops", 0, kMaxCount));
    s.devices = static_cast<int>(whole(e, "devices", 0, kMaxCount));
    s.lowerBoundMs = number(e, "lower_bound_ms");
    s.bestBaselineMs = number(e, "best_baseline_ms");
    s.bestBaseline = text(e, "best_baseline");
    s.tasks.clear();
    if (const auto it = e.find("tasks"); it != e.end()) {
      if (!it->is_array() || it->size() > static_cast<size_t>(kMaxCount)) throw BadEvent{"tasks is not a list"};
      for (const auto& t : *it) {
        if (!t.is_object()) throw BadEvent{"a task is not an object"};
        RunLogState::Task task;
        task.name = text(t, "name");
        task.heldOut = flag(t, "held_out");
        s.tasks.push_back(task);
      }
    }
  } else if (kind == "iteration") {
    RunLogState::Point p;
    p.x = static_cast<int>(whole(e, "iteration", 0, std::numeric_limits<int>::max()));
    p.zeroShot = p.x == 0;
    p.meanReward = number(e, "mean_reward");
    p.bestReward = number(e, "best_reward");
    p.bestStepMs = number(e, "best_step_ms");
    s.points.push_back(p);
  } else if (kind == "best") {
    Plan plan;
    plan.device = indices(e, "devices", 0);
    plan.priority = indices(e, "priority", std::numeric_limits<int32_t>::min());
    plan.fusionGroup = indices(e, "fusion_group", -1);
    if ((!plan.priority.empty() && plan.priority.size() != plan.device.size()) ||
        (!plan.fusionGroup.empty() && plan.fusionGroup.size() != plan.device.size()))
      throw BadEvent{"the best plan's lists differ in length"};
    s.bestPlan = std::move(plan);
    s.bestStepMs = number(e, "step_ms");
    s.bestIteration = static_cast<int>(whole(e, "iteration", 0, std::numeric_limits<int>::max()));
  } else if (kind == "round" || kind == "evaluation") {
    const auto task = static_cast<size_t>(whole(e, "task", 0, kMaxCount));
    if (task >= s.tasks.size()) throw BadEvent{"task " + std::to_string(task) + " is not among the run's tasks"};
    RunLogState::Task& t = s.tasks[task];
    t.round = static_cast<int>(whole(e, "round", 0, std::numeric_limits<int>::max()));
    t.rank = static_cast<int>(whole(e, "rank", 0, kMaxCount));
    t.startMs = number(e, "start_ms");
    t.bestMs = number(e, "best_ms");
    t.ownMs = number(e, "own_ms");
    t.loss = number(e, "loss");
    if (kind == "round") {  // the round's point: the mean and the best of its tasks' mean rewards
      const double r = number(e, "mean_reward");
      if (s.points.empty() || s.points.back().x != t.round) s.points.push_back({t.round, 0, -std::numeric_limits<double>::infinity(), 0, false});
      RunLogState::Point& p = s.points.back();
      int n = 0;
      for (const RunLogState::Task& other : s.tasks) n += !other.heldOut && other.round == t.round;
      p.meanReward += (r - p.meanReward) / std::max(1, n);
      p.bestReward = std::max(p.bestReward, r);
    }
  } else if (kind == "ranks") {
    s.healthRound = static_cast<int>(whole(e, "round", 0, std::numeric_limits<int>::max()));
    s.busySeconds = numbers(e, "busy_s");
    s.waitingSeconds = numbers(e, "waiting_s");
  } else if (kind == "end") {
    s.ended = true;
    s.stopped = flag(e, "stopped");
    s.seconds = number(e, "seconds");
  } else if (kind == "error") {
    s.ended = true;
    s.error = text(e, "message");
  }
}

}  // namespace gp
