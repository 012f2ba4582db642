#include "graph/graphviz_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "graph/graph_layout.h"
#include "base/fd_write.h"

namespace gp {
namespace {

constexpr uint32_t kMagic = 0x47504756;  // "GPGV"

template <typename T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <typename T>
bool get(const std::string& s, size_t& at, T& v) {
  if (at + sizeof v > s.size()) return false;
  std::memcpy(&v, s.data() + at, sizeof v);
  at += sizeof v;
  return true;
}

// The geometry graphvizLayout computed: counts, item centres, frames, edge ranges, points.
std::string pack(const GraphLayout& l) {
  std::string s;
  s.reserve(32 + l.items.size() * 16 + l.frames.size() * 40 + l.edges.size() * 8 + l.points.size() * 16);
  put(s, kMagic);
  put(s, static_cast<uint64_t>(l.items.size()));
  put(s, static_cast<uint64_t>(l.frames.size()));
  put(s, static_cast<uint64_t>(l.edges.size()));
  put(s, static_cast<uint64_t>(l.points.size()));
  for (const VisItem& it : l.items) put(s, it.rect.center().x()), put(s, it.rect.center().y());
  for (const VisFrame& f : l.frames) {
    put(s, f.scope), put(s, f.depth);
    put(s, f.rect.x()), put(s, f.rect.y()), put(s, f.rect.width()), put(s, f.rect.height());
  }
  for (const VisEdge& e : l.edges) put(s, e.pointBegin), put(s, e.pointEnd);
  for (const QPointF& p : l.points) put(s, p.x()), put(s, p.y());
  return s;
}

}  // namespace

GraphvizProcess::GraphvizProcess(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                                 const GraphLayout& visible)
    : items_(visible.items.size()), edges_(visible.edges.size()) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  // Forked with the Graphviz lock held, so no thread of ours is inside cgraph at the fork.
  const pid_t pid = forkForGraphviz([&] {
    ::close(fds[0]);
    const int devNull = ::open("/dev/null", O_WRONLY);  // dot's warnings are not ours to print
    if (devNull >= 0) ::dup2(devNull, STDERR_FILENO);
    GraphLayout copy = visible;
    const bool ok = graphvizLayoutLocked(g, tree, expanded, copy) && writeAll(fds[1], pack(copy));
    ::_exit(ok ? 0 : 2);
  });
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return;
  }
  pid_ = pid;
  fd_ = fds[0];
  state_ = State::Running;
}

GraphvizProcess::~GraphvizProcess() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

GraphvizProcess::State GraphvizProcess::waitUntil(Clock::time_point deadline, const std::atomic<bool>& cancel) {
  char buf[1 << 16];
  while (state_ == State::Running && !cancel) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 20)));  // 20 ms: cancel checks
    if (ready < 0 && errno != EINTR) {
      state_ = State::Failed;
      break;
    }
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      bytes_.append(buf, static_cast<size_t>(n));
      continue;
    }
    finish();  // EOF: the child is done
  }
  return state_;
}

void GraphvizProcess::finish() {
  ::close(fd_);
  fd_ = -1;
  int status = 0;
  pid_t waited;
  do {
    waited = ::waitpid(pid_, &status, 0);
  } while (waited < 0 && errno == EINTR);
  pid_ = -1;
  const bool exited = waited > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  size_t at = 0;
  uint32_t magic = 0;
  uint64_t items = 0;
  state_ = exited && get(bytes_, at, magic) && magic == kMagic && get(bytes_, at, items) && items == items_
               ? State::Done
               : State::Failed;
}

bool GraphvizProcess::apply(GraphLayout& out) const {
  if (state_ != State::Done || out.items.size() != items_ || out.edges.size() != edges_) return false;
  size_t at = 0;
  uint32_t magic = 0;
  uint64_t items = 0, frames = 0, edges = 0, points = 0;
  if (!get(bytes_, at, magic) || !get(bytes_, at, items) || !get(bytes_, at, frames) || !get(bytes_, at, edges) ||
      !get(bytes_, at, points) || items != items_ || edges != edges_)
    return false;
  if (bytes_.size() - at != items * 16 + frames * 40 + edges * 8 + points * 16) return false;
  for (VisItem& it : out.items) {
    double x = 0, y = 0;
    get(bytes_, at, x), get(bytes_, at, y);
    it.rect.moveCenter(QPointF(x, y));
  }
  out.frames.resize(frames);
  for (VisFrame& f : out.frames) {
    double x = 0, y = 0, w = 0, h = 0;
    get(bytes_, at, f.scope), get(bytes_, at, f.depth);
    get(bytes_, at, x), get(bytes_, at, y), get(bytes_, at, w), get(bytes_, at, h);
    f.rect = QRectF(x, y, w, h);
  }
  for (VisEdge& e : out.edges) {
    get(bytes_, at, e.pointBegin), get(bytes_, at, e.pointEnd);
    if (e.pointBegin < 0 || e.pointEnd < e.pointBegin || static_cast<uint64_t>(e.pointEnd) > points) return false;
  }
  out.points.resize(points);
  for (QPointF& p : out.points) {
    double x = 0, y = 0;
    get(bytes_, at, x), get(bytes_, at, y);
    p = QPointF(x, y);
  }
  out.graphviz = true;
  return true;
}

}  // namespace gp
