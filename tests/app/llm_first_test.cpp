// Qt Test: an LLM opens where its user thinks — a Hugging Face config (Qwen2-7B) opened in the
// app on 8, 64, 1,024 and 16,384 H100s lands in the Parallel Plan window with a plan that fits
// (Megatron's rule at once; the exact search in the background), not on one device; a server of
// the memory panel expands to its GPUs; tp changes in the plan while that search runs (the edit
// stops it); the plan exports as Megatron-LM arguments; no window grows past the screen. A
// config.json dropped on the window opens the same way; a model that is no LLM opens in the op
// graph as before. Screenshots of each size go to GP_SCREENSHOT_DIR (llm-first-<GPUs>.png and
// the main window behind it, llm-first-<GPUs>-op-graph.png).
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QGuiApplication>
#include <QMimeData>
#include <QScreen>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QUrl>

#include "app_test_helpers.h"
#include "document.h"
#include "main_window.h"
#include "panels/cluster_panel.h"
#include "panels/device_tree_view.h"
#include "parallel/device_memory_panel.h"
#include "parallel/memory_verdict.h"
#include "parallel/mesh_view.h"
#include "parallel/parallel_format.h"
#include "parallel/parallel_controls.h"
#include "parallel/pipeline_view.h"
#include "parallel_window.h"

using namespace gp;

namespace {

const QString kQwen = QStringLiteral(GP_TEST_DATA_DIR "/hf/qwen2-7b/config.json");

// Spins the event loop until the Parallel Plan window shows a plan (the exact search may run on).
ParallelWindow* waitForPlan(MainWindow& w, int timeoutMs = 240000) {
  QDeadlineTimer deadline(timeoutMs);
  while (!deadline.hasExpired()) {
    QTest::qWait(20);
    ParallelWindow* pw = w.parallelWindow();
    if (pw && pw->isVisible() && pw->showsPlan() && !pw->session()->isLoading()) return pw;
  }
  return nullptr;
}

bool waitSessionIdle(ParallelWindow* pw, int timeoutMs = 240000) {
  QDeadlineTimer deadline(timeoutMs);
  while (!deadline.hasExpired()) {
    QTest::qWait(20);
    if (!pw->session()->isBusy()) return true;
  }
  return false;
}

void chooseData(QComboBox* c, int value) {
  const int index = c->findData(value);
  QVERIFY2(index >= 0, qPrintable(QStringLiteral("%1 offers no %2").arg(c->objectName()).arg(value)));
  c->setCurrentIndex(index);
  Q_EMIT c->activated(index);
}

}  // namespace

class LlmFirstTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("llm_first_test"));
    QVERIFY2(QFile::exists(kQwen), qPrintable(kQwen));
    QVERIFY(english_.load(QStringLiteral(GP_QM_DIR "/graphplace_en.qm")));  // plural forms, as the app shows them
    QCoreApplication::installTranslator(&english_);
  }

  void opensInTheParallelPlan_data() {
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<int>("gpus");
    QTest::newRow("8") << QStringLiteral("8xH100-NVSwitch") << 8;
    QTest::newRow("64") << QStringLiteral("8x8xH100-IB") << 64;
    QTest::newRow("1024") << QStringLiteral("128x8xH100-IB") << 1024;
    QTest::newRow("16384") << QStringLiteral("2048x8xH100-IB") << 16384;
  }

  void opensInTheParallelPlan() {
    QFETCH(QString, cluster);
    QFETCH(int, gpus);
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{kQwen, GraphMode::Default, cluster, {}, {}, false});
    ParallelWindow* pw = waitForPlan(w);
    QVERIFY2(pw, "no parallel plan shown");
    ParallelSession& s = *pw->session();
    QCOMPARE(s.task()->c.numDevices(), gpus);
    // The first plan runs, and no single-device plan was measured in the main window.
    QVERIFY2(!pw->summaryIsProblem(), qPrintable(pw->summaryText()));
    QVERIFY(s.measurement().feasible);
    QVERIFY(!doc.hasMeasurement());
    QVERIFY(!w.clusterPanel()->summaryText().contains(QStringLiteral("Not feasible")));
    // Its memory verdict: the fullest GPU's margin against the peak's band, never "does not fit".
    const MemoryVerdict verdict = memoryVerdict(s.measurement());
    QVERIFY(verdict.fit != MemoryFit::Over);
    QVERIFY(verdict.headroom > 0 || verdict.fit == MemoryFit::Risk);
    QCOMPARE(pw->memoryVerdictText(), pformat::memoryVerdictText(verdict));
    QVERIFY2(pw->memoryVerdictText().startsWith(QStringLiteral("Memory: ")), qPrintable(pw->memoryVerdictText()));
    // Every window within the screen.
    const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
    QVERIFY2(w.height() <= std::max(screen.height(), 1000), qPrintable(QString::number(w.height())));
    QVERIFY2(pw->height() <= std::max(screen.height(), 1000), qPrintable(QString::number(pw->height())));
    QVERIFY(pw->memoryPanel()->sizeHint().height() < 1000);
    // The exact search runs after the first plan, and the plan stays editable meanwhile.
    const bool searching = s.isBackgroundSearch();
    QVERIFY(searching || !s.isBusy());
    QVERIFY(pw->controls()->degreeCombo(1)->isEnabled());

    // A server of the memory panel opens to its GPUs.
    DeviceTreeView* memory = pw->memoryPanel()->tree();
    if (gpus > DeviceTreeView::kExpandedDevices) {
      const int server = memory->model()->groups().numServers() - 1;
      QVERIFY(!memory->isServerExpanded(server));
      memory->expandServer(server);
      QVERIFY(memory->isServerExpanded(server));
    }
    QCOMPARE(pw->meshView()->isCompact(), gpus >= 1024);
    // A stage's row in the pipeline stands for all its ranks: its label names them.
    QString note;
    for (int y = 0; y < pw->pipelineView()->height() && note.isEmpty(); y += 2)
      note = pw->pipelineView()->stageNoteAt(QPointF(12, y));
    QVERIFY2(note.startsWith(QStringLiteral("Stage 0: ")) && note.contains(QString::fromStdString(s.task()->c.device(0).name)),
             qPrintable(note));

    // Another tensor-parallel size: re-simulated, every view follows.
    const int tp = s.state().plan.tp == 2 ? 4 : 2;
    chooseData(pw->controls()->degreeCombo(1), tp);
    QCOMPARE(s.state().plan.tp, tp);
    QCOMPARE(s.measurement().rankDevice.size(), static_cast<size_t>(gpus));
    QVERIFY(!s.isSearching());  // an edit by hand stopped the search after the load
    if (searching) QVERIFY2(pw->statusText().contains(QStringLiteral("changed by hand")), qPrintable(pw->statusText()));
    QVERIFY(waitSessionIdle(pw));
    QCOMPARE(s.state().plan.tp, tp);  // what the stopped search found is dropped
    QCOMPARE(pw->memoryVerdictText(), pformat::memoryVerdictText(memoryVerdict(s.measurement())));

    // Megatron-LM arguments of the plan shown.
    QTemporaryDir dir;
    const QString args = dir.filePath(QStringLiteral("megatron.sh"));
    QCOMPARE(pw->exportLaunch(args, QStringLiteral("megatron")), QString());
    QFile f(args);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("--tensor-model-parallel-size " + QByteArray::number(tp)));

    // The op graph is one click away.
    QVERIFY(pw->action("parallelOpGraph")->isEnabled());
    if (const QByteArray shots = qgetenv("GP_SCREENSHOT_DIR"); !shots.isEmpty()) {
      QTest::qWait(200);
      QVERIFY(pw->grab().save(QString::fromUtf8(shots) + QStringLiteral("/llm-first-%1.png").arg(gpus)));
      // The main window behind it: the op graph, its docks at this cluster's size.
      w.clusterPanel()->deviceTree()->expandServer(0);
      QVERIFY(w.grab().save(QString::fromUtf8(shots) + QStringLiteral("/llm-first-%1-op-graph.png").arg(gpus)));
    }
  }

  // A config.json dropped on the window opens the same way (on the cluster chosen last).
  void droppedConfigOpensItsPlan() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kQwen)});
    QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    ParallelWindow* pw = waitForPlan(w);
    QVERIFY2(pw, "the dropped config opened no parallel plan");
    QCOMPARE(pw->session()->modelSpec(), kQwen);
    QVERIFY(!doc.hasMeasurement());
  }

  // A model that is no LLM still opens in the op graph, measured as opened.
  void otherModelsOpenInTheOpGraph() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    doc.open(OpenRequest{QStringLiteral("zoo:resnet50"), GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(gptest::waitIdle(w));
    QVERIFY(doc.hasMeasurement());
    QVERIFY(!doc.workspace()->parallelFirst);
    QVERIFY(!w.parallelWindow() || !w.parallelWindow()->isVisible());
  }

 private:
  QTranslator english_;
};

QTEST_MAIN(LlmFirstTest)
#include "llm_first_test.moc"
