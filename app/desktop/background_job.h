// Background work for the document: a function runs on Qt's thread pool and its result (or
// the gp::Error / std::exception it threw, as one line) comes back on the UI thread.
//
//   startJob(this, &pool_, [ws, plan] { return simulate(*ws, plan); },
//            [this](JobResult<Measurement> r) { ... });   // called on `context`'s thread
//
// If `context` is destroyed first, `done` is never called (the work still finishes; keep
// what it captures alive by value or shared_ptr). Cancellation and progress go through a
// JobControl the work polls; the UI reads it with a timer (no cross-thread calls into QObjects).
#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <type_traits>

#include "base/thread_handoff.h"

namespace gp {

template <class T>
struct JobResult {
  std::optional<T> value;
  QString error;  // set when value is empty
};

struct JobControl {
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0}, total{0};
  std::mutex mutex;  // not QMutex: ThreadSanitizer sees this one
  QString current;   // what runs now (guarded by mutex)

  void setCurrent(const QString& s) {
    std::lock_guard<std::mutex> lock(mutex);
    current = s;
  }
  QString currentText() {
    std::lock_guard<std::mutex> lock(mutex);
    return current;
  }
};

template <class Fn, class Done>
void startJob(QObject* context, QThreadPool* pool, Fn work, Done done) {
  using T = std::invoke_result_t<Fn>;
  auto* watcher = new QFutureWatcher<JobResult<T>>(context);
  QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done]() {
    JobResult<T> r = watcher->result();
    watcher->deleteLater();
    done(std::move(r));
  });
  const HandOff handOff(HandOff::ThreadPool);  // Qt's pool hands the task over (thread_handoff.h)
  watcher->setFuture(handOff.send([&] {
    return QtConcurrent::run(pool, [work = std::move(work), handOff]() -> JobResult<T> {
      handOff.received();
      try {
        return JobResult<T>{work(), {}};
      } catch (const std::bad_alloc&) {
        return JobResult<T>{std::nullopt, QObject::tr("out of memory")};
      } catch (const std::exception& e) {
        return JobResult<T>{std::nullopt, QString::fromStdString(e.what())};
      } catch (...) {
        return JobResult<T>{std::nullopt, QObject::tr("unknown error")};
      }
    });
  }));
}

}  // namespace gp
