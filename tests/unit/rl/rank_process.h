// Processes of a distributed run for the tests that start several on loopback (posix_spawn,
// output to files, a bounded wait), each with torchrun's variables.
#pragma once
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace gptest {


struct Rank {
  pid_t pid = -1;
  std::string out, err;  // file paths
  int code = -1;
  std::string stdoutText, stderrText;
};

// Whether a TCP listener could bind `port` on every address now.
inline bool portIsFree(uint16_t port) {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  a.sin_port = htons(port);
  const bool free = bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(s);
  return free;
}

// A port for one run's rendezvous: different per test process and call, free when chosen, and
// below Linux's default range of ephemeral ports (32768-60999), where the connections of other
// tests running at the same time take their local ports.
inline uint16_t freshPort() {
  static int n = 0;
  for (int tries = 0; tries < 100; ++tries) {
    const auto port = static_cast<uint16_t>(12000 + (getpid() * 13 + 7 * n++) % 20000);
    if (portIsFree(port)) return port;
  }
  ADD_FAILURE() << "no free port for the rendezvous";
  return 0;
}

inline std::string tmp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_dist_" + std::to_string(getpid()) + "_" + name)).string();
}

// Starts `program args` with the environment plus `vars` (without any launcher variable of ours),
// its output to files named after `tag`.
inline Rank start(const std::string& program, const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& vars, const std::string& tag) {
  Rank r{-1, tmp(tag + ".out"), tmp(tag + ".err")};
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv(*e);
    const std::string key = kv.substr(0, kv.find('='));
    if (!vars.count(key) && key != "RANK" && key != "WORLD_SIZE" && key != "MASTER_ADDR" && key != "MASTER_PORT" &&
        key != "LOCAL_RANK" && key != "LOCAL_WORLD_SIZE")
      env.push_back(kv);
  }
  for (const auto& [k, v] : vars) env.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> a{program};
  a.insert(a.end(), args.begin(), args.end());
  for (auto& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, r.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, r.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  EXPECT_EQ(posix_spawn(&r.pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&fa);
  return r;
}

// The file's text; the file is removed.
inline std::string slurp(const std::string& path) {
  std::stringstream s;
  s << std::ifstream(path).rdbuf();
  std::filesystem::remove(path);
  return s.str();
}

// Waits for r at most `limit` (then kills it: code -9); returns the seconds it took.
inline double finish(Rank& r, std::chrono::seconds limit) {
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    if (waitpid(r.pid, &status, WNOHANG) == r.pid) {
      r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      break;
    }
    if (std::chrono::steady_clock::now() - t0 > limit) {
      kill(r.pid, SIGKILL);
      waitpid(r.pid, &status, 0);
      r.code = -9;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.stdoutText = slurp(r.out);
  r.stderrText = slurp(r.err);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// torchrun's variables for rank `rank` of `world` on loopback.
inline std::map<std::string, std::string> rankVars(int rank, int world, uint16_t port) {
  return {{"RANK", std::to_string(rank)}, {"WORLD_SIZE", std::to_string(world)}, {"MASTER_ADDR", "127.0.0.1"},
          {"MASTER_PORT", std::to_string(port)}, {"OMP_NUM_THREADS", "1"}};
}

}  // namespace gptest
