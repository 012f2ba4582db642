// Qt Test: the app used for a long while — open model after model, run every baseline on each,
// undo and redo in storms, press Optimize and Stop over and over. After each round the window is
// idle: no document job left, no optimizer running, no thread of the global pool still busy, and
// no error shown. The resident memory is printed after each model ("soak: model K rss MiB").
//
// The counts come from GP_APP_SOAK_MODELS and GP_APP_SOAK_OPTIMIZE (default 3 and 4: a quick
// pass in ./test.sh); scripts/soak.sh app runs 50 models and 100 Optimize / Stop under Xvfb and
// checks that the memory stays flat.
#include <QAction>
#include <QFile>
#include <QSpinBox>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>

#include "app_test_helpers.h"
#include "document.h"
#include "main_window.h"
#include "optimize/rl_plugin.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

int count(const char* variable, int fallback) {
  bool ok = false;
  const int n = qEnvironmentVariableIntValue(variable, &ok);
  return ok && n > 0 ? n : fallback;
}

double rssMiB() {
  QFile status(QStringLiteral("/proc/self/status"));
  if (!status.open(QIODevice::ReadOnly)) return 0;
  for (const QByteArray& line : status.readAll().split('\n'))
    if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
  return 0;
}

// Models of every kind the app opens, small enough that a round takes seconds.
const QStringList kModels = {
    QStringLiteral("zoo:rnnlm"),
    QStringLiteral(GP_TEST_DATA_DIR "/onnx/mlp.onnx"),
    QStringLiteral(GP_TEST_DATA_DIR "/onnx/squeezenet1_1.onnx"),
    QStringLiteral(GP_TEST_DATA_DIR "/dot/small.dot"),
    QStringLiteral(GP_TEST_DATA_DIR "/onnx/lstm.onnx"),
    QStringLiteral(GP_TEST_DATA_DIR "/onnx/transformer_encoder.onnx"),
    QStringLiteral("zoo:inception_v3"),
    QStringLiteral(GP_TEST_DATA_DIR "/onnx/resnet18.onnx"),
};

}  // namespace

class SoakTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("soak_test"));
    try {
      rlOptimizeEntry();
    } catch (const std::exception& e) {
      QFAIL(qPrintable(QStringLiteral("the RL optimizer plugin is missing (target gp_rl): %1").arg(e.what())));
    }
  }

  void modelsBaselinesUndoOptimizeStop() {
    const int models = count("GP_APP_SOAK_MODELS", 3);
    const int optimizeStops = count("GP_APP_SOAK_OPTIMIZE", 4);
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QList<QAction*> baselines;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->objectName().startsWith(QLatin1String("actionBaseline_"))) baselines << a;
    QVERIFY(baselines.size() >= 5);
    auto* iterations = w.findChild<QSpinBox*>(QStringLiteral("optimizeIterations"));
    auto* button = w.findChild<QToolButton*>(QStringLiteral("optimizeButton"));
    QVERIFY(iterations && button);

    int reports = 0;
    connect(&doc, &Document::iterationReported, this, [&] { ++reports; });
    int stopsDone = 0;
    for (int m = 0; m < models; ++m) {
      doc.open(OpenRequest{kModels[m % kModels.size()], GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
      QVERIFY(waitIdle(w));
      QVERIFY2(doc.hasModel() && w.lastError().isEmpty(), qPrintable(w.lastError()));

      for (QAction* a : baselines) {
        a->trigger();
        QVERIFY(waitIdle(w));
      }
      // An undo / redo storm: as fast as the keys repeat, without waiting for measurements.
      for (int i = 0; i < 30; ++i) action(w, "actionUndo")->trigger();
      for (int i = 0; i < 30; ++i) action(w, "actionRedo")->trigger();
      for (int i = 0; i < 20; ++i) (i % 2 ? action(w, "actionUndo") : action(w, "actionRedo"))->trigger();
      QVERIFY(waitIdle(w));

      // This model's share of Optimize / Stop: stop at a random-ish moment, after 0–2 reports.
      const int share = optimizeStops * (m + 1) / models - optimizeStops * m / models;
      for (int k = 0; k < share; ++k, ++stopsDone) {
        iterations->setValue(1000);
        reports = 0;
        QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));
        QVERIFY(doc.isOptimizing());
        QTRY_VERIFY_WITH_TIMEOUT(reports >= stopsDone % 3, 60000);
        action(w, "actionStopOptimize")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isOptimizing(), 10000);
        QVERIFY(waitIdle(w));
      }
      QVERIFY(!doc.isBusy() && !doc.isOptimizing());
      QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
      QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
      qInfo("soak: model %d rss %.1f MiB", m + 1, rssMiB());
    }
    QCOMPARE(stopsDone, optimizeStops);
  }
};

QTEST_MAIN(SoakTest)
#include "soak_test.moc"
