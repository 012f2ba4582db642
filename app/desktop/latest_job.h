// LatestJob: which request of one kind is the newest, so that a result that arrives after a
// newer request (or after the state it was computed for went away) is dropped. Every start()
// hands out a new token; only the newest token is current. invalidate() makes every token
// handed out so far stale without starting anything (a newer result arrived another way).
//
//   const int64_t token = measures_.start();
//   ... later, on the UI thread: if (!measures_.isCurrent(token)) return;   // superseded
#pragma once
#include <cstdint>

namespace gp {

class LatestJob {
 public:
  int64_t start() { return ++latest_; }
  // The newest token, for work that belongs to the current state without superseding it.
  int64_t current() const { return latest_; }
  bool isCurrent(int64_t token) const { return token == latest_; }
  void invalidate() { ++latest_; }

 private:
  int64_t latest_ = 0;
};

}  // namespace gp
