#include "screenshot.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QTimer>
#include <cstdio>

#include "exporter.h"
#include "main_window.h"

namespace gp {

void takeScreenshotWhenReady(MainWindow* window, const QString& path, int timeoutMs) {
  auto* timer = new QTimer(window);
  auto* clock = new QElapsedTimer;
  auto* idlePolls = new int(0);
  clock->start();
  timer->setInterval(100);
  QObject::connect(timer, &QTimer::timeout, window, [=] {
    auto finish = [&](int code, const QString& message) {
      timer->stop();
      if (!message.isEmpty()) std::fprintf(stderr, "graphplace: %s\n", qPrintable(message));
      delete clock;
      delete idlePolls;
      QCoreApplication::exit(code);
    };
    Document* doc = window->document();
    if (!doc->isBusy() && !doc->hasModel() && !window->lastError().isEmpty())
      return finish(1, QStringLiteral("error: %1").arg(window->lastError()));
    // Ready: the model is open and measured, nothing runs, for three polls in a row (a
    // layout starts right after the graph arrives).
    const bool ready = doc->hasModel() && doc->hasMeasurement() && window->isIdle();
    *idlePolls = ready ? *idlePolls + 1 : 0;
    if (*idlePolls >= 3) {
      const QImage image = window->grab().toImage();
      QByteArray bytes;
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      if (!image.save(&buffer, "PNG")) return finish(1, QStringLiteral("%1: cannot encode the PNG").arg(path));
      const QString error = writeFileAtomically(path, bytes);
      return finish(error.isEmpty() ? 0 : 1, error);
    }
    if (clock->elapsed() > timeoutMs)
      finish(1, QStringLiteral("%1: timed out after %2 s waiting for the window to be ready").arg(path).arg(timeoutMs / 1000));
  });
  timer->start();
}

}  // namespace gp
