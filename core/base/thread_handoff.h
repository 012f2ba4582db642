// A hand-off of work between threads through synchronisation ThreadSanitizer cannot see.
//
// Qt's thread pool and event queue pass a task or a posted call to another thread under Qt's
// own mutexes, locked inside Qt's library; a Qt not built with TSan hides them, so TSan takes
// every closure handed over for a race with its own creation. A HandOff says what Qt
// guarantees:
//
//   const HandOff handOff(HandOff::ThreadPool);              // the sending thread
//   handOff.send([&] { QtConcurrent::run(pool, [handOff, ...] {
//     handOff.received();                                    // the receiving thread, first
//     ...
//   }); });
//
// Everything the sending thread wrote before send() happens before what the receiving thread
// does after received(); the writes send()'s function itself makes (Qt copying the closure into
// its task or event, which the receiving thread reads before received()) are not recorded. As
// in Qt, where one lock guards a pool's queue and one a thread's events, every hand-off through
// the same channel synchronises with every later one. In builds without TSan a HandOff does
// nothing.
#pragma once
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define GP_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GP_TSAN_BUILD 1
#endif
#endif

#ifdef GP_TSAN_BUILD
#include <sanitizer/tsan_interface.h>

extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
#endif

namespace gp {

class HandOff {
 public:
  enum Channel { ThreadPool, EventQueue };
  explicit HandOff(Channel channel) : token_(&tokens_[channel]) {}

  template <class Send>
  decltype(auto) send(Send&& sendFn) const {
#ifdef GP_TSAN_BUILD
    __tsan_release(const_cast<char*>(token_));
    struct IgnoreWrites {
      IgnoreWrites() { AnnotateIgnoreWritesBegin(__FILE__, __LINE__); }
      ~IgnoreWrites() { AnnotateIgnoreWritesEnd(__FILE__, __LINE__); }
    } ignore;
#endif
    return std::forward<Send>(sendFn)();
  }

  void received() const {
#ifdef GP_TSAN_BUILD
    __tsan_acquire(const_cast<char*>(token_));
#endif
  }

 private:
  static inline char tokens_[2] = {};  // their addresses name the channels for TSan
  const char* token_;
};

}  // namespace gp
