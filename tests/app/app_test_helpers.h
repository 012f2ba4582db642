// Helpers the app's Qt Tests share: waiting until the window is idle, finding its actions.
#pragma once
#include <QAction>
#include <QDeadlineTimer>
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

}  // namespace gptest
