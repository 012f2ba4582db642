// Qt Test: why a plan is fast or slow, in the app, as a person asks it — View ▸ Critical Path
// colours ops by slack and outlines the path in the graph and the timeline; the Suggestions dock
// lists moves that shorten the step, previews one on hover and applies one as one undo step whose
// measurement is what it predicted; dragging ops over a device in the Devices panel shows the
// step time the drop would give before the drop; comparing two History entries says which part
// of the critical path changed; File ▸ Export ▸ Plan Report… writes the page. With
// GP_SCREENSHOT_DIR set: critical-path.png, suggestions.png and drag-preview.png.
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QTreeWidget>

#include "app_test_helpers.h"
#include "device_colors.h"
#include "document.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "panels/device_legend.h"
#include "panels/history_panel.h"
#include "panels/suggestions_panel.h"
#include "plan_explainer.h"
#include "sim/simulator.h"
#include "timeline/timeline_view.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

// A fork-join whose two heavy branches run one after the other on one device: moving one branch
// to another device shortens the step (the tensors are small).
constexpr const char* kForkJoinDot = R"(digraph fork {
  src [op=MatMul, flops="2e11", bytes="65536"];
  left1 [op=MatMul, flops="2e12", bytes="65536"];
  left2 [op=MatMul, flops="2e12", bytes="65536"];
  right1 [op=MatMul, flops="2e12", bytes="65536"];
  right2 [op=MatMul, flops="2e12", bytes="65536"];
  join [op=Add, flops="1e6", bytes="65536"];
  src -> left1 -> left2 -> join;
  src -> right1 -> right2 -> join;
})";

OpId opNamed(const Document& doc, const char* name) {
  const Graph& g = *doc.graph();
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opName(op) == name) return op;
  qFatal("no op %s", name);
}

void screenshot(MainWindow& w, const char* name) {
  if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/" + name));
}

}  // namespace

class CriticalPathTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(gptest::startInEnglish(english_, "critical_path_test"));
    dot_ = gptest::writeFile(dir_, "fork.dot", kForkJoinDot);
    QVERIFY(!dot_.isEmpty());
  }

  void criticalPathSuggestionsPreviewAndReport() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    const double single = doc.measurement().stepTime;

    // The suggestions came with the measurement: best first, each shorter than the step.
    SuggestionsPanel* panel = w.suggestionsPanel();
    QVERIFY(w.explainer()->hasAnalysis());
    QVERIFY(panel->rowCount() > 0);
    QVERIFY2(panel->statusText().contains(QStringLiteral("shorten the step")), qPrintable(panel->statusText()));
    const auto& suggestions = w.explainer()->suggestions();
    QVERIFY(suggestions.front().stepTime < single);

    // View ▸ Critical Path: slack colours, the path's ops outlined, its bars outlined in the timeline.
    QAction* path = action(w, "actionCriticalPath");
    path->trigger();
    QVERIFY(path->isChecked());
    auto* colors = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    QCOMPARE(colors->currentData().toInt(), static_cast<int>(GraphView::ColorMode::Slack));
    QCOMPARE(w.graphView()->colorMode(), GraphView::ColorMode::Slack);
    // every op of the single-device chain order is on the path here: all outlined, all hot
    for (const char* name : {"src", "left1", "right2", "join"}) QVERIFY(w.graphView()->isHighlighted(opNamed(doc, name)));
    QCOMPARE(w.timelineView()->criticalPathBars(), w.explainer()->analysis().path.size());
    screenshot(w, "critical-path.png");

    // Hovering the first suggestion outlines its ops and tells its step time.
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("suggestionsDock"));
    QVERIFY(dock);
    dock->show();
    dock->raise();
    QTest::qWait(50);
    QTreeWidget* view = panel->view();
    const QRect first = view->visualItemRect(view->topLevelItem(0));
    QTest::mouseMove(view->viewport(), first.center());
    QTRY_VERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("op(s) outlined")) ||
                w.statusBar()->currentMessage().contains(QStringLiteral("outlined")));
    for (OpId op : suggestions.front().move.ops) QVERIFY(w.graphView()->isHighlighted(op));
    screenshot(w, "suggestions.png");

    // Apply: one undo step; the measurement is the step time the suggestion predicted.
    const double predicted = suggestions.front().stepTime;
    const Plan before = doc.plan();
    view->setCurrentItem(view->topLevelItem(0));
    QVERIFY(panel->applyButton()->isEnabled());
    QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
    QVERIFY(doc.plan() != before);
    QVERIFY2(doc.undoStack()->undoText().startsWith(QStringLiteral("Suggestion: ")), qPrintable(doc.undoStack()->undoText()));
    QTRY_VERIFY_WITH_TIMEOUT(doc.measurementIsCurrent(), 60000);  // re-measured quietly
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.measurement().stepTime, predicted);
    // the new plan is explained again; the path follows it
    QCOMPARE(w.explainer()->plan(), doc.plan());
    QCOMPARE(w.timelineView()->criticalPathBars(), w.explainer()->analysis().path.size());
    doc.undoStack()->undo();
    QCOMPARE(doc.plan(), before);
    QTRY_VERIFY_WITH_TIMEOUT(doc.measurementIsCurrent(), 60000);
    QVERIFY(waitIdle(w));
    doc.undoStack()->redo();
    QTRY_VERIFY_WITH_TIMEOUT(doc.measurementIsCurrent(), 60000);
    QVERIFY(waitIdle(w));

    // Dragging right2 over gpu2 in the Devices panel: the row shows the step the drop would give.
    DeviceLegend* legend = w.deviceLegend();
    const OpId right2 = opNamed(doc, "right2");
    std::unique_ptr<QMimeData> mime(opsToMime({right2}));
    const QPoint row = legend->rowRect(2).center();
    QDragEnterEvent enter(row, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(legend, &enter);
    QCOMPARE(legend->dropTargetRow(), 2);
    const QString preview = legend->dropPreview();
    QVERIFY2(preview.startsWith(QStringLiteral("→ ")) && preview.contains(QStringLiteral(" ms (")), qPrintable(preview));
    screenshot(w, "drag-preview.png");
    Plan expected = doc.plan();
    expected.device[static_cast<size_t>(right2)] = 2;
    const double previewed = Simulator(*doc.workspace()->cost).run(expected, false).stepTime;
    QVERIFY2(preview.contains(QLocale().toString(previewed * 1e3, 'f', 2)), qPrintable(preview));
    QDropEvent drop(QPointF(row), Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(legend, &drop);
    QCOMPARE(doc.plan().device[static_cast<size_t>(right2)], 2);
    action(w, "actionMeasure")->trigger();  // F5
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    QCOMPARE(doc.measurement().stepTime, previewed);

    // History: the first and the newest entries compared say what changed on the critical path.
    HistoryPanel* history = w.historyPanel();
    const int last = doc.history()->count() - 1;
    QVERIFY(last >= 1);
    history->selectRows(0, last);
    QVERIFY2(history->comparisonDetail().startsWith(QStringLiteral("Critical path, #")), qPrintable(history->comparisonDetail()));
    QVERIFY2(history->comparisonDetail().contains(QStringLiteral("compute on gpu")), qPrintable(history->comparisonDetail()));

    // File ▸ Export ▸ Plan Report…
    const QString report = dir_.filePath(QStringLiteral("report.html"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::PlanReport, report), QString());
    QFile f(report);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray html = f.readAll();
    for (const char* part : {"<h2>Timeline</h2>", "class=\"path\"", "Suggested moves", "fork.dot"})
      QVERIFY2(html.contains(part), part);
    QVERIFY(!w.exportTo(MainWindow::ExportKind::PlanReport, QStringLiteral("/nonexistent/dir/r.html")).isEmpty());

    // Turning the path off restores the colour mode chosen before.
    path->trigger();
    QCOMPARE(w.graphView()->colorMode(), GraphView::ColorMode::Device);
    QCOMPARE(w.timelineView()->criticalPathBars(), size_t{0});
  }

 private:
  QTranslator english_;
  QTemporaryDir dir_;
  QString dot_;
};

QTEST_MAIN(CriticalPathTest)
#include "critical_path_test.moc"
