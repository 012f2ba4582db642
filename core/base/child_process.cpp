#include "base/child_process.h"

#if defined(__linux__)
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>

#include "base/fd_write.h"
#define GP_CHILD_FORK 1
#endif

namespace gp {

#ifdef GP_CHILD_FORK
namespace {

// Resident memory of a process in bytes, from /proc/PID/statm (0 where there is none).
int64_t residentBytes(const char* statm) {
  std::FILE* f = std::fopen(statm, "r");
  if (!f) return 0;
  long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<int64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

// The child: run the work, send its result, leave with _exit (never return into the caller).
[[noreturn]] void childMain(int out, const std::function<std::string()>& work) {
  const int devNull = ::open("/dev/null", O_WRONLY);  // a crash report is not ours to print
  if (devNull >= 0) ::dup2(devNull, STDERR_FILENO);
  std::string result;
  try {
    result = work();
  } catch (...) {
    ::_exit(3);
  }
  ::_exit(writeAll(out, result) ? 0 : 2);
}

}  // namespace
#endif

ChildResult runInChild(const std::function<std::string()>& work, const ChildLimits& limits) {
  ChildResult r;
#ifdef GP_CHILD_FORK
  int fds[2];
  // Close-on-exec: a program another thread starts meanwhile must not hold the write end open.
  if (::pipe2(fds, O_CLOEXEC) != 0) return r;
  const int64_t parentRss = residentBytes("/proc/self/statm");
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    childMain(fds[1], work);
  }
  ::close(fds[1]);
  const std::string statm = "/proc/" + std::to_string(pid) + "/statm";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits.seconds);
  r.end = ChildResult::End::Finished;
  char buf[1 << 16];
  for (;;) {
    if (limits.maxMemoryBytes > 0 && residentBytes(statm.c_str()) - parentRss > limits.maxMemoryBytes) {
      r.end = ChildResult::End::OverMemory;
      break;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.end = ChildResult::End::TimedOut;
      break;
    }
    if (limits.maxMemoryBytes > 0) left = std::min(left, std::chrono::milliseconds(20));
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready <= 0) continue;  // EINTR or a timeout: the checks above come first
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF (or error): the child is done
    r.output.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (r.end != ChildResult::End::Finished) ::kill(pid, SIGKILL);
  int status = 0;
  pid_t waited;
  do {
    waited = ::waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (r.end == ChildResult::End::Finished) {
    if (waited == pid && WIFSIGNALED(status)) {
      r.end = ChildResult::End::Crashed;
      r.signal = WTERMSIG(status);
    } else if (waited != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      r.end = ChildResult::End::Failed;
    }
  }
  if (r.end != ChildResult::End::Finished) r.output.clear();
#else
  (void)work;
  (void)limits;
#endif
  return r;
}

int64_t physicalMemoryBytes() {
#ifdef GP_CHILD_FORK
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0) return static_cast<int64_t>(pages) * size;
#endif
  return 0;
}

}  // namespace gp
