// Helpers the app's Qt Tests share: waiting until the window is idle, finding its actions, the
// messages a signal spy caught.
#pragma once
#include <QAction>
#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include "main_window.h"

namespace gptest {

// Spins the event loop until nothing runs (document jobs, layout) for three polls in a row.
inline bool waitIdle(gp::MainWindow& w, int timeoutMs = 180000) {
  QDeadlineTimer deadline(timeoutMs);
  int idlePolls = 0;
  while (!deadline.hasExpired()) {
    QTest::qWait(20);
    idlePolls = w.isIdle() ? idlePolls + 1 : 0;
    if (idlePolls >= 3) return true;
  }
  return false;
}

// The window's action with this objectName (a test bug if absent).
inline QAction* action(gp::MainWindow& w, const char* name) {
  auto* a = w.findChild<QAction*>(QString::fromLatin1(name));
  if (!a) qFatal("no action %s", name);
  return a;
}

// The messages `spy` (on a one-string signal such as Document::warning) caught, oldest first.
inline QStringList caught(const QSignalSpy& spy) {
  QStringList out;
  for (const QList<QVariant>& args : spy) out << args.at(0).toString();
  return out;
}

}  // namespace gptest
