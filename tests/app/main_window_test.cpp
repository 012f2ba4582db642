// Qt Test: the desktop app used as a person would — open a model, recolour, select a group and
// move it to another device, undo/redo, measure, compare history entries, export and re-load
// the placement, open a broken file (error shown, the open document kept), take a screenshot.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QUrl>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <set>

#include "app_options.h"
#include "document.h"
#include "graph/graph_view.h"
#include "base/device_palette.h"
#include "app_test_helpers.h"
#include "main_window.h"
#include "panels/history_model.h"
#include "panels/history_panel.h"
#include "timeline/timeline_view.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

std::vector<OpId> opsInScope(const Graph& g, const std::string& prefix) {
  std::vector<OpId> ops;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opName(op).rfind(prefix, 0) == 0) ops.push_back(op);
  return ops;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("main_window_test"));
    QVERIFY(dir_.isValid());
  }

  void commandLine() {
    AppOptions o = parseAppOptions({"graphplace", "zoo:gnmt", "--cluster", "8xV100-DGX1", "--screenshot", "a.png",
                                    "--size", "800x600", "--mode", "inference"});
    QVERIFY(!o.exitNow);
    QCOMPARE(o.model, QStringLiteral("zoo:gnmt"));
    QCOMPARE(o.cluster, QStringLiteral("8xV100-DGX1"));
    QCOMPARE(o.size, QSize(800, 600));
    QVERIFY(o.mode == GraphMode::Inference);
    QVERIFY(parseAppOptions({"graphplace", "--mode", "fast"}).exitCode == 2);
    QVERIFY(parseAppOptions({"graphplace", "zoo:nmt", "--precision", "bf16"}).precision == Precision::BF16);
    QVERIFY(parseAppOptions({"graphplace", "zoo:nmt", "--precision", "fp12"}).exitCode == 2);
    QVERIFY(parseAppOptions({"graphplace", "--placement", "p.json"}).exitCode == 2);
  }

  // --precision fp16 reaches the loaded graph: activations in f16, a faster step than in f32,
  // and a reopen (new symbolic dimensions) keeps it.
  void openWithPrecision() {
    Document doc;
    MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{QStringLiteral("zoo:resnet50"), GraphMode::Default, QStringLiteral("4xA100-NVLink"), {}, {}, false});
    QVERIFY(waitIdle(w));
    const double f32Step = doc.measurement().stepTime;
    OpenRequest half{QStringLiteral("zoo:resnet50"), GraphMode::Default, QStringLiteral("4xA100-NVLink"), {}, {}, false};
    half.precision = Precision::FP16;
    doc.open(half);
    QVERIFY(waitIdle(w));
    const Graph& g = *doc.graph();
    const OpId conv = g.findOp("resnet50/stem/conv1/Conv2D");
    QVERIFY(conv != kNone);
    QCOMPARE(g.dtype(g.outputs(conv)[0]), DType::F16);
    QVERIFY(doc.workspace()->options.precision == Precision::FP16);
    QVERIFY(doc.measurement().stepTime < 0.7 * f32Step);
  }

  void openEditMeasureCompareExport() {
    Document doc;
    MainWindow w(&doc);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    // Open: the single-device plan is measured and listed in history.
    doc.open(OpenRequest{QStringLiteral("zoo:resnet50"), GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasModel());
    QCOMPARE(doc.history()->count(), 1);
    QVERIFY(doc.measurementIsCurrent());
    const double singleStep = doc.measurement().stepTime;
    QVERIFY(singleStep > 0);
    QVERIFY(w.lastError().isEmpty());
    QVERIFY(w.graphView()->visibleNodeCount() > 0);
    QCOMPARE(w.timelineView()->rowCount(), 4);  // a row per device, no transfer rows

    // Colour mode: by op cost, then back to device.
    auto* mode = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    QVERIFY(mode);
    mode->setCurrentIndex(3);
    QVERIFY(w.graphView()->colorMode() == GraphView::ColorMode::OpCost);
    mode->setCurrentIndex(0);
    QVERIFY(w.graphView()->colorMode() == GraphView::ColorMode::Device);

    // Select a whole group by searching for it, and press 3 (device index 2).
    const Graph& g = *doc.graph();
    const std::vector<OpId> group = opsInScope(g, "resnet50/stage4/");
    QVERIFY(group.size() > 10);
    const int found = w.graphView()->search(QStringLiteral("^resnet50/stage4/"), GraphView::SearchKind::Regex);
    QCOMPARE(found, static_cast<int>(group.size()));
    doc.setSelection(w.graphView()->selectedOps());
    QCOMPARE(doc.selection().size(), group.size());
    w.graphView()->setFocus();
    QTest::keyClick(w.graphView(), Qt::Key_3);
    for (OpId op : group) QCOMPARE(doc.plan().device[static_cast<size_t>(op)], 2);
    QVERIFY(!doc.measurementIsCurrent());

    // Undo puts them back, redo moves them again.
    action(w, "actionUndo")->trigger();
    for (OpId op : group) QCOMPARE(doc.plan().device[static_cast<size_t>(op)], 0);
    action(w, "actionRedo")->trigger();
    for (OpId op : group) QCOMPARE(doc.plan().device[static_cast<size_t>(op)], 2);

    // Measure: a second history entry with a different step time; the timeline shows 2 devices.
    action(w, "actionMeasure")->trigger();
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.history()->count(), 2);
    QVERIFY(doc.measurementIsCurrent());
    QVERIFY(doc.measurement().stepTime != singleStep);
    QVERIFY(w.timelineView()->rowCount() > 4);  // channels that carried transfers

    // A baseline from the Run menu goes to history too.
    action(w, "actionBaseline_m_topo")->trigger();
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.history()->count(), 3);
    QCOMPARE(doc.history()->entry(2).label, QStringLiteral("m_topo"));

    // Compare the manual edit with the single-device plan: the moved ops are the group and the
    // parameter updates colocated with it.
    const std::vector<OpId> moved = HistoryModel::movedOps(doc.history()->entry(0).plan, doc.history()->entry(1).plan);
    QVERIFY(std::includes(moved.begin(), moved.end(), group.begin(), group.end()));
    for (OpId op : moved) QCOMPARE(doc.history()->entry(1).plan.device[static_cast<size_t>(op)], 2);
    QVERIFY(moved.size() < group.size() * 2);
    QSignalSpy compare(w.historyPanel(), &HistoryPanel::compareChanged);
    w.historyPanel()->selectRows(0, 1);
    QVERIFY(compare.count() >= 1);

    // Restore the manual edit and export its placement; reopen the model and load the file.
    doc.restoreHistoryEntry(1);
    QVERIFY(waitIdle(w));
    const double manualStep = doc.history()->entry(1).stepTime;
    QCOMPARE(doc.measurement().stepTime, manualStep);
    const QString placement = dir_.filePath(QStringLiteral("resnet50.placement.json"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::Placement, placement), QString());
    const QString trace = dir_.filePath(QStringLiteral("trace.json"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::ChromeTrace, trace), QString());
    QVERIFY(QFile(trace).size() > 1000);
    const QString dot = dir_.filePath(QStringLiteral("graph.dot"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::Dot, dot), QString());
    const QString svg = dir_.filePath(QStringLiteral("graph.svg"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::GraphImage, svg), QString());
    QVERIFY(QFile(svg).size() > 1000);
    // ONNX export of a zoo model says why it cannot.
    QVERIFY(!w.exportTo(MainWindow::ExportKind::AnnotatedOnnx, dir_.filePath(QStringLiteral("x.onnx"))).isEmpty());
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("x.onnx"))));

    w.openFile(QStringLiteral("zoo:resnet50"));
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.history()->count(), 1);
    w.openFile(placement);
    QVERIFY(waitIdle(w));
    QVERIFY(w.lastError().isEmpty());
    for (OpId op : group) QCOMPARE(doc.plan().device[static_cast<size_t>(op)], 2);
    QCOMPARE(doc.measurement().stepTime, manualStep);

    // A placement whose fusion groups break the rules (every op in one group): one-line error
    // naming the file, the plan kept.
    const QString badFusion = dir_.filePath(QStringLiteral("bad-fusion.placement.json"));
    {
      QFile in(placement);
      QVERIFY(in.open(QIODevice::ReadOnly));
      QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
      QJsonArray ops = root.value(QStringLiteral("ops")).toArray();
      for (qsizetype i = 0; i < ops.size(); ++i) {
        QJsonObject o = ops[i].toObject();
        o.insert(QStringLiteral("fusion_group"), 0);
        ops[i] = o;
      }
      root.insert(QStringLiteral("ops"), ops);
      QFile out(badFusion);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(QJsonDocument(root).toJson());
    }
    const Plan keptPlan = doc.plan();
    w.openFile(badFusion);
    QVERIFY(waitIdle(w));
    QVERIFY2(w.lastError().contains(QStringLiteral("bad-fusion.placement.json")), qPrintable(w.lastError()));
    QVERIFY2(w.lastError().contains(QStringLiteral("fusion group 0")), qPrintable(w.lastError()));
    QVERIFY(!w.lastError().contains(QLatin1Char('\n')));
    QCOMPARE(doc.plan(), keptPlan);

    // A malformed model: one-line error shown, the open document is kept.
    const QString bad = dir_.filePath(QStringLiteral("broken.onnx"));
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("this is not a protobuf\x01\x02\x03");
    }
    const std::shared_ptr<const Graph> before = doc.sharedGraph();
    w.openFile(bad);
    QVERIFY(waitIdle(w));
    QVERIFY(w.lastError().contains(QStringLiteral("broken.onnx")));
    QVERIFY(!w.lastError().contains(QLatin1Char('\n')));
    QCOMPARE(doc.sharedGraph(), before);
    QCOMPARE(doc.measurement().stepTime, manualStep);
  }

  void dockLayoutPersistsAndFilesDrop() {
    QSettings().clear();
    {
      Document doc;
      MainWindow w(&doc);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      auto* history = w.findChild<QDockWidget*>(QStringLiteral("historyDock"));
      QVERIFY(history && history->isVisible());
      history->toggleViewAction()->trigger();  // View ▸ History off
      QVERIFY(!history->isVisible());
      w.close();  // saves the layout
    }
    Document doc;
    MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.findChild<QDockWidget*>(QStringLiteral("historyDock"))->isVisible());
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("timelineDock"))->isVisible());

    // Dropping a model file on the window opens it, and it lands in File ▸ Open Recent.
    const QString dot = dir_.filePath(QStringLiteral("tiny.dot"));
    {
      QFile f(dot);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("digraph tiny { a [op=MatMul, flops=\"1e9\"]; b [op=Relu]; c [op=Add]; a -> b; a -> c; b -> c; }");
    }
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dot)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasModel());
    QCOMPARE(doc.graph()->numOps(), 3);
    QVERIFY(QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(QFileInfo(dot).absoluteFilePath()));
  }

  void screenshotShowsDeviceColours() {
    Document doc;
    MainWindow w(&doc);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{QStringLiteral("zoo:nmt"), GraphMode::Default, QStringLiteral("4xP100-PCIe"), {},
                         QStringLiteral("expert"), false});
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasMeasurement());
    std::set<int32_t> used(doc.plan().device.begin(), doc.plan().device.end());
    QVERIFY(used.size() >= 2);
    const QImage shot = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
    if (const QByteArray out = qgetenv("GP_SCREENSHOT_DIR"); !out.isEmpty())
      shot.save(QString::fromLocal8Bit(out) + QStringLiteral("/main_window.png"));
    // Not blank, and every device in use shows its colour somewhere.
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 2)
      for (int x = 0; x < shot.width(); x += 2) colours.insert(shot.pixel(x, y) & 0xffffff);
    QVERIFY(colours.size() > 50);
    for (int32_t d : used) QVERIFY2(colours.contains(deviceColorRgb(d)), qPrintable(QStringLiteral("device %1").arg(d)));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
