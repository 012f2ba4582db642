#include "screenshot.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QTimer>
#include <cstdio>
#include <memory>

#include "exporter.h"
#include "main_window.h"
#include "parallel_window.h"

namespace gp {

namespace {
struct ScreenshotState {
  QElapsedTimer clock;
  int readyPolls = 0;
  QString openFailure;
  bool done = false;
};
}  // namespace

void takeScreenshotWhenReady(MainWindow* window, const QString& path, int timeoutMs) {
  auto state = std::make_shared<ScreenshotState>();
  state->clock.start();
  QObject::connect(window->document(), &Document::openFailed, window,
                   [state](const QString& message) { state->openFailure = message; });
  auto* timer = new QTimer(window);
  timer->setInterval(100);
  QObject::connect(timer, &QTimer::timeout, window, [=] {
    if (state->done) return;
    auto finish = [&](int code, const QString& message) {
      state->done = true;
      timer->stop();
      if (!message.isEmpty()) std::fprintf(stderr, "graphplace: %s\n", qPrintable(message));
      QCoreApplication::exit(code);
    };
    Document* doc = window->document();
    if (!state->openFailure.isEmpty()) return finish(1, QStringLiteral("error: %1").arg(state->openFailure));
    // Anything that failed once the work is done (opening, measuring, a baseline) fails the run.
    if (!doc->isBusy() && !window->lastError().isEmpty())
      return finish(1, QStringLiteral("error: %1").arg(window->lastError()));
    // Ready: the model is open and measured, nothing runs, for three polls in a row (a
    // layout starts right after the graph arrives). An LLM opens in the Parallel Plan view: the
    // picture is that window once its first plan is shown (the exact search may still run).
    QWidget* target = window;
    bool ready = doc->hasModel() && doc->hasMeasurement() && window->isIdle();
    if (doc->hasModel() && doc->workspace()->parallelFirst) {
      ParallelWindow* pw = window->parallelWindow();
      if (pw && !pw->session()->loadError().isEmpty())
        return finish(1, QStringLiteral("error: %1").arg(pw->session()->loadError()));
      ready = pw && pw->isVisible() && pw->showsPlan() && !pw->session()->isLoading();
      target = pw;
    }
    state->readyPolls = ready ? state->readyPolls + 1 : 0;
    if (state->readyPolls >= 3) {
      const QImage image = target->grab().toImage();
      QByteArray bytes;
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      if (!image.save(&buffer, "PNG")) return finish(1, QStringLiteral("%1: cannot encode the PNG").arg(path));
      const QString error = writeFileAtomically(path, bytes);
      return finish(error.isEmpty() ? 0 : 1, error);
    }
    if (state->clock.elapsed() > timeoutMs)
      finish(1, QStringLiteral("%1: timed out after %2 s waiting for the window to be ready").arg(path).arg(timeoutMs / 1000));
  });
  timer->start();
}

}  // namespace gp
