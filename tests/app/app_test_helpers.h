// Helpers the app's Qt Tests share: waiting until the window is idle, finding its actions, the
// messages a signal spy caught.
#pragma once
#include <QAction>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTranslator>
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

// A test of the app as it speaks English (plural forms such as "1 op" / "2 ops" come from its
// translation file), with settings of its own (organisation graphplace-tests, application `name`).
inline bool startInEnglish(QTranslator& english, const char* name) {
  QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
  QCoreApplication::setApplicationName(QString::fromLatin1(name));
  if (!english.load(QStringLiteral(GP_QM_DIR "/graphplace_en.qm"))) return false;
  QCoreApplication::installTranslator(&english);
  return true;
}

// `contents` as the file `name` in `dir`; its path, empty when it could not be written.
inline QString writeFile(const QTemporaryDir& dir, const char* name, const char* contents) {
  const QString path = dir.filePath(QString::fromLatin1(name));
  QFile f(path);
  if (!dir.isValid() || !f.open(QIODevice::WriteOnly) || f.write(contents) < 0) return {};
  return path;
}

}  // namespace gptest
