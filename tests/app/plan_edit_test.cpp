// Qt Test: hand edits of the schedule and of fusion in the app, as a person makes them — select
// ops, read the inspector, set a priority in it, fuse and unfuse with the Edit menu's actions,
// undo and redo; fusing across devices or two MatMuls is refused with a line in the status bar
// and changes nothing; moving part of a fused kernel to another device takes it out of the group.
// The fused kernel is one bar in the timeline whose tooltip lists its ops. With GP_SCREENSHOT_DIR
// set, the window with the inspector on a fused selection is saved as inspector_fused.png.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QTranslator>
#include <algorithm>

#include "app_test_helpers.h"
#include "document.h"
#include "fusion/fuser.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "panels/op_inspector.h"
#include "timeline/timeline_view.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

// mm (MatMul) -> mm2 (MatMul) -> relu -> add -> mul -> out (Softmax); 4 MiB tensors.
constexpr const char* kChainDot = R"(digraph edits {
  mm [op=MatMul, flops="2e10", bytes="4194304"];
  mm2 [op=MatMul, flops="1e10", bytes="4194304"];
  relu [op=Relu, flops="1e6", bytes="4194304"];
  add [op=Add, flops="1e6", bytes="4194304"];
  mul [op=Mul, flops="1e6", bytes="4194304"];
  out [op=Softmax, flops="5e6", bytes="4194304"];
  mm -> mm2 -> relu -> add -> mul -> out;
})";

OpId opNamed(const Document& doc, const char* name) {
  const Graph& g = *doc.graph();
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opName(op) == name) return op;
  qFatal("no op %s", name);
}

int32_t groupOf(const Plan& p, OpId op) {
  return p.fusionGroup.empty() ? -1 : p.fusionGroup[static_cast<size_t>(op)];
}

// Selects these ops as a person would: typing their names in the graph view's search.
void selectOps(MainWindow& w, Document& doc, const QStringList& names) {
  const int found =
      w.graphView()->search(QStringLiteral("^(%1)$").arg(names.join(QLatin1Char('|'))), GraphView::SearchKind::Regex);
  QCOMPARE(found, static_cast<int>(names.size()));
  doc.setSelection(w.graphView()->selectedOps());
  QCOMPARE(static_cast<int>(doc.selection().size()), static_cast<int>(names.size()));
}

QString tooltipAt(QWidget* w, QPoint pos) {
  QHelpEvent e(QEvent::ToolTip, pos, w->mapToGlobal(pos));
  QCoreApplication::sendEvent(w, &e);
  return QToolTip::text();
}

}  // namespace

class PlanEditTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(gptest::startInEnglish(english_, "plan_edit_test"));
    dot_ = gptest::writeFile(dir_, "edits.dot", kChainDot);
    QVERIFY(!dot_.isEmpty());
  }

  void priorityInInspectorUndoable() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.graph()->numOps(), 6);
    OpInspector* inspector = w.opInspector();
    QVERIFY(inspector && w.findChild<QDockWidget*>(QStringLiteral("inspectorDock"))->isVisible());
    const OpId relu = opNamed(doc, "relu"), add = opNamed(doc, "add");
    const Plan start = doc.plan();
    QVERIFY(start.priority.empty());

    // One op: its rows; a FIFO plan shows "FIFO".
    selectOps(w, doc, {QStringLiteral("relu")});
    QCOMPARE(inspector->titleText(), QStringLiteral("relu"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Type), QStringLiteral("Relu"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Device), QStringLiteral("gpu0"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Priority), QStringLiteral("FIFO"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Fusion), QStringLiteral("not fused"));

    // Two ops: priority 10 typed in the inspector's spin box, "Set priority" pressed.
    selectOps(w, doc, {QStringLiteral("relu"), QStringLiteral("add")});
    QCOMPARE(inspector->summaryText(), QStringLiteral("2 ops; FIFO order; no fusion group"));
    inspector->prioritySpin()->setValue(10);
    QVERIFY(inspector->setPriorityButton()->isEnabled());
    QTest::mouseClick(inspector->setPriorityButton(), Qt::LeftButton);
    const Plan prioritized = doc.plan();
    QCOMPARE(prioritized.priority.size(), start.device.size());
    for (OpId op = 0; op < doc.graph()->numOps(); ++op)  // the others: 0, FIFO among themselves
      QCOMPARE(prioritized.priority[static_cast<size_t>(op)], op == relu || op == add ? 10 : 0);
    QCOMPARE(prioritized.device, start.device);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set priority of 2 ops to 10"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Priority), QStringLiteral("10"));
    QCOMPARE(inspector->summaryText(), QStringLiteral("2 ops; priority 10; no fusion group"));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());  // re-measured after the edit
    // The same schedule as FIFO here: equal priorities keep FIFO order, relu and add are on a chain.
    // A third op gets another priority: the range shows.
    selectOps(w, doc, {QStringLiteral("mul")});
    QCOMPARE(inspector->valueText(OpInspector::Row::Priority), QStringLiteral("0"));
    inspector->prioritySpin()->setValue(3);
    QTest::mouseClick(inspector->setPriorityButton(), Qt::LeftButton);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set priority of mul to 3"));
    selectOps(w, doc, {QStringLiteral("relu"), QStringLiteral("add"), QStringLiteral("mul"), QStringLiteral("out")});
    QCOMPARE(inspector->summaryText(), QStringLiteral("4 ops; priorities 0–10; no fusion group"));
    QCOMPARE(inspector->valueText(OpInspector::Row::Priority), QStringLiteral("0–10"));

    // Undo twice: back to FIFO (no priorities at all), shown as such; re-measured.
    action(w, "actionUndo")->trigger();
    action(w, "actionUndo")->trigger();
    QCOMPARE(doc.plan(), start);
    QCOMPARE(inspector->valueText(OpInspector::Row::Priority), QStringLiteral("FIFO"));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    action(w, "actionRedo")->trigger();
    QCOMPARE(doc.plan(), prioritized);

    // Edit ▸ Set Priority… (Ctrl+P) puts the cursor in the inspector's spin box; Return applies.
    QAction* setPriority = action(w, "actionSetPriority");
    QCOMPARE(setPriority->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
    selectOps(w, doc, {QStringLiteral("out")});
    setPriority->trigger();
    QTRY_VERIFY(inspector->prioritySpin()->hasFocus());
    QTest::keyClicks(inspector->prioritySpin(), QStringLiteral("7"));
    QTest::keyClick(inspector->prioritySpin(), Qt::Key_Return);
    QCOMPARE(doc.plan().priority[static_cast<size_t>(opNamed(doc, "out"))], 7);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set priority of out to 7"));
  }

  // a -> b -> c -> d and a -> d fused as one kernel; then b and c fuse on their own: what is
  // left of the first group ({a, d}, still connected) would run before and after {b, c} (a cycle
  // between kernels), so it dissolves, and the user is told so as unfuse tells it.
  void fuseThatDissolvesAnotherGroupWarns() {
    const QString dot = dir_.filePath(QStringLiteral("diamond.dot"));
    QFile f(dot);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"(digraph diamond {
      a [op=Relu, flops="1e6", bytes="4194304"];
      b [op=Add, flops="1e6", bytes="4194304"];
      c [op=Mul, flops="1e6", bytes="4194304"];
      d [op=Sigmoid, flops="1e6", bytes="4194304"];
      a -> b -> c -> d; a -> d;
    })");
    f.close();
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    const OpId a = opNamed(doc, "a"), b = opNamed(doc, "b"), c = opNamed(doc, "c"), d = opNamed(doc, "d");
    QCOMPARE(doc.fuseOps({a, b, c, d}), QString());
    QVERIFY(groupOf(doc.plan(), a) >= 0);
    QSignalSpy warned(&doc, &Document::warning);
    QCOMPARE(doc.fuseOps({b, c}), QString());
    const Plan p = doc.plan();
    QVERIFY(groupOf(p, b) >= 0);
    QCOMPARE(groupOf(p, c), groupOf(p, b));
    QCOMPARE(groupOf(p, a), -1);
    QCOMPARE(groupOf(p, d), -1);
    QCOMPARE(fusionProblem(*doc.graph(), p), std::string());
    QCOMPARE(warned.count(), 1);
    QCOMPARE(warned.at(0).at(0).toString(),
             QStringLiteral("1 fusion group dissolved as well: what was left of it could not run as one kernel."));
    QVERIFY(waitIdle(w));
  }

  void fuseRefuseUnfuse() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    OpInspector* inspector = w.opInspector();
    const OpId mm2 = opNamed(doc, "mm2"), relu = opNamed(doc, "relu"), add = opNamed(doc, "add"),
               mul = opNamed(doc, "mul");
    const Plan start = doc.plan();
    QAction* fuse = action(w, "actionFuse");
    QAction* unfuse = action(w, "actionUnfuse");
    QCOMPARE(fuse->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_G));
    QCOMPARE(unfuse->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    const size_t barsBefore = w.timelineView()->barCount();

    // Two chained elementwise ops on one device: one group, one kernel in the timeline.
    selectOps(w, doc, {QStringLiteral("relu"), QStringLiteral("add")});
    QVERIFY(fuse->isEnabled());
    QVERIFY(!unfuse->isEnabled());  // nothing fused yet
    fuse->trigger();
    const Plan fusedPlan = doc.plan();
    QVERIFY(groupOf(fusedPlan, relu) >= 0);
    QCOMPARE(groupOf(fusedPlan, add), groupOf(fusedPlan, relu));
    for (OpId op : {opNamed(doc, "mm"), mm2, mul, opNamed(doc, "out")}) QCOMPARE(groupOf(fusedPlan, op), -1);
    QCOMPARE(fusedPlan.device, start.device);
    QCOMPARE(fusionProblem(*doc.graph(), fusedPlan), std::string());
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Fuse 2 ops"));
    QVERIFY(unfuse->isEnabled());
    QCOMPARE(inspector->summaryText(), QStringLiteral("2 ops; FIFO order; 1 fusion group"));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    QCOMPARE(w.timelineView()->barCount(), barsBefore - 1);  // relu + add: one bar
    // Hovering the fused kernel lists its ops.
    const QPoint bar = w.timelineView()->opBarRect(relu).center().toPoint();
    QVERIFY(!w.timelineView()->opBarRect(relu).isEmpty() || w.timelineView()->opBarRect(relu).height() > 0);
    const QString tip = tooltipAt(w.timelineView(), bar);
    QVERIFY2(tip.contains(QLatin1String("Fused kernel of 2 ops")) && tip.contains(QLatin1String("relu (Relu)")) &&
                 tip.contains(QLatin1String("add (Add)")),
             qPrintable(tip));
    selectOps(w, doc, {QStringLiteral("add")});
    QCOMPARE(inspector->valueText(OpInspector::Row::Fusion),
             QStringLiteral("group %1 (2 ops)").arg(groupOf(fusedPlan, add)));
    // The graph view's tooltip of an op names its priority and group.
    const QString opTip = tooltipAt(w.graphView(), w.graphView()->opRect(add).center().toPoint());
    QVERIFY2(opTip.contains(QStringLiteral("Priority FIFO · fusion group %1").arg(groupOf(fusedPlan, add))),
             qPrintable(opTip));
    // The graph colours by fusion group.
    auto* mode = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    mode->setCurrentIndex(mode->findData(static_cast<int>(GraphView::ColorMode::FusionGroup)));
    QVERIFY(w.graphView()->colorMode() == GraphView::ColorMode::FusionGroup);

    // Undo: no group at all again, the same plan as before; redo fuses again.
    action(w, "actionUndo")->trigger();
    QCOMPARE(doc.plan(), start);
    QVERIFY(waitIdle(w));
    QCOMPARE(w.timelineView()->barCount(), barsBefore);
    action(w, "actionRedo")->trigger();
    QCOMPARE(doc.plan(), fusedPlan);

    // Ops on two devices: refused in one line in the status bar, nothing changes.
    selectOps(w, doc, {QStringLiteral("mul")});
    doc.assignDevices(doc.selection(), 1);
    QCOMPARE(doc.plan().device[static_cast<size_t>(mul)], 1);
    const Plan twoDevices = doc.plan();
    const int steps = doc.undoStack()->count();
    selectOps(w, doc, {QStringLiteral("add"), QStringLiteral("mul")});
    fuse->trigger();
    const QString crossDevice = QStringLiteral(
        "Cannot fuse 2 ops: they are on different devices (gpu0, gpu1); ops on different devices never fuse.");
    QCOMPARE(w.statusBar()->currentMessage(), crossDevice);
    QCOMPARE(doc.plan(), twoDevices);
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(doc.fuseOps(doc.selection()), crossDevice);  // what the document says, too

    // Two MatMuls never share a kernel: refused, nothing changes.
    selectOps(w, doc, {QStringLiteral("mm"), QStringLiteral("mm2")});
    fuse->trigger();
    const QString twoHeavy = w.statusBar()->currentMessage();
    QCOMPARE(twoHeavy, QStringLiteral("Cannot fuse 2 ops: the new group holds two heavy ops ('mm' … 'mm2')."));
    QCOMPARE(doc.plan(), twoDevices);
    QCOMPARE(doc.undoStack()->count(), steps);

    // Ops not next to each other (mm2 and add, relu between them): refused too.
    selectOps(w, doc, {QStringLiteral("mm2"), QStringLiteral("add")});
    fuse->trigger();
    QVERIFY2(w.statusBar()->currentMessage().startsWith(QLatin1String("Cannot fuse 2 ops: ")),
             qPrintable(w.statusBar()->currentMessage()));
    QCOMPARE(doc.plan(), twoDevices);

    // One MatMul and the elementwise chain after it: one group of 3 (relu and add leave theirs).
    selectOps(w, doc, {QStringLiteral("mm2"), QStringLiteral("relu"), QStringLiteral("add")});
    fuse->trigger();
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Fuse 3 ops"));
    const int32_t g3 = groupOf(doc.plan(), mm2);
    QVERIFY(g3 >= 0);
    QCOMPARE(groupOf(doc.plan(), relu), g3);
    QCOMPARE(groupOf(doc.plan(), add), g3);
    QCOMPARE(inspector->valueText(OpInspector::Row::Fusion), QStringLiteral("1 group: #%1 (3 ops)").arg(g3));

    // Unfuse the tail: the rest keeps its group; unfuse another: a group of one dissolves.
    selectOps(w, doc, {QStringLiteral("add")});
    unfuse->trigger();
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Unfuse 1 op"));
    QCOMPARE(groupOf(doc.plan(), add), -1);
    QCOMPARE(groupOf(doc.plan(), mm2), g3);
    QCOMPARE(groupOf(doc.plan(), relu), g3);
    selectOps(w, doc, {QStringLiteral("relu")});
    unfuse->trigger();
    QVERIFY(doc.plan().fusionGroup.empty());  // no group left at all
    QVERIFY(!unfuse->isEnabled());
    // Unfusing what is not fused is refused with a line.
    QCOMPARE(doc.unfuseOps({relu}), QStringLiteral("Cannot unfuse: none of the selected ops is fused."));
    QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Cannot unfuse: none of the selected ops is fused."));
    action(w, "actionUndo")->trigger();
    action(w, "actionUndo")->trigger();
    QCOMPARE(groupOf(doc.plan(), add), g3);

    // Unfusing the middle op leaves two single ops: both unfused.
    selectOps(w, doc, {QStringLiteral("relu")});
    unfuse->trigger();
    QVERIFY(doc.plan().fusionGroup.empty());
    action(w, "actionUndo")->trigger();

    // Moving part of a fused kernel to another device takes it out of its group (one undo step);
    // moving the whole group keeps it fused.
    selectOps(w, doc, {QStringLiteral("add")});
    doc.assignDevices(doc.selection(), 2);
    QCOMPARE(doc.plan().device[static_cast<size_t>(add)], 2);
    QCOMPARE(groupOf(doc.plan(), add), -1);
    QCOMPARE(groupOf(doc.plan(), relu), g3);  // mm2 + relu stay fused
    QCOMPARE(w.statusBar()->currentMessage(),
             QStringLiteral("1 moved op left its fusion group: ops on different devices never fuse."));
    QCOMPARE(fusionProblem(*doc.graph(), doc.plan()), std::string());
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Move add to gpu2"));
    action(w, "actionUndo")->trigger();
    QCOMPARE(groupOf(doc.plan(), add), g3);
    selectOps(w, doc, {QStringLiteral("mm2"), QStringLiteral("relu"), QStringLiteral("add")});
    doc.assignDevices(doc.selection(), 3);
    for (OpId op : {mm2, relu, add}) {
      QCOMPARE(doc.plan().device[static_cast<size_t>(op)], 3);
      QCOMPARE(groupOf(doc.plan(), op), g3);
    }
    action(w, "actionMeasure")->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY2(doc.measurement().feasible, doc.measurement().problem.c_str());
    QVERIFY(w.lastError().isEmpty());
  }

  // The window with the inspector on a fused kernel of ResNet-50 (conv, batch norm, ReLU),
  // coloured by fusion group (GP_SCREENSHOT_DIR/inspector_fused.png).
  void fusedSelectionOnAZooModel() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{QStringLiteral("zoo:resnet50"),
                         GraphMode::Default,
                         QStringLiteral("4xP100-PCIe"),
                         {},
                         QStringLiteral("m_topo"),
                         false});
    QVERIFY(waitIdle(w));
    const Graph& g = *doc.graph();
    // The first anchor (a batch norm) with a fusible consumer that has a fusible consumer of its
    // own, whose other inputs are all ready before the anchor (so the kernel is legal).
    std::vector<int> topoPos(static_cast<size_t>(g.numOps()));
    for (size_t i = 0; i < g.topoOrder().size(); ++i) topoPos[static_cast<size_t>(g.topoOrder()[i])] = static_cast<int>(i);
    auto readyBefore = [&](OpId x, OpId prev, OpId anchor) {
      for (OpId p : g.fanIn(x))
        if (p != prev && topoPos[static_cast<size_t>(p)] > topoPos[static_cast<size_t>(anchor)]) return false;
      return true;
    };
    std::vector<OpId> chain;
    for (OpId op : g.topoOrder()) {
      if (fusionRole(g, op) != FusionRole::Anchor || g.role(op) != OpRole::Forward) continue;
      for (OpId a : g.fanOut(op)) {
        if (fusionRole(g, a) != FusionRole::Fusible || g.role(a) != OpRole::Forward || !readyBefore(a, op, op)) continue;
        for (OpId b : g.fanOut(a))
          if (fusionRole(g, b) == FusionRole::Fusible && g.role(b) == OpRole::Forward && readyBefore(b, a, op)) {
            chain = {op, a, b};
            break;
          }
        if (!chain.empty()) break;
      }
      if (!chain.empty() &&
          doc.plan().device[static_cast<size_t>(chain[0])] == doc.plan().device[static_cast<size_t>(chain[2])] &&
          doc.plan().device[static_cast<size_t>(chain[1])] == doc.plan().device[static_cast<size_t>(chain[0])])
        break;
      chain.clear();
    }
    QVERIFY(chain.size() == 3);
    doc.setSelection(chain);
    QCOMPARE(doc.fuseOps(doc.selection()), QString());
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    doc.setSelection(chain);
    auto* mode = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    mode->setCurrentIndex(mode->findData(static_cast<int>(GraphView::ColorMode::FusionGroup)));
    w.graphView()->expandScope(g.opScope(chain[0]));  // the fused ops in their own boxes
    QVERIFY(waitIdle(w));
    w.graphView()->setViewport(QPointF(0, 0), 1.0);
    w.graphView()->centerOnOp(chain[1]);
    QVERIFY2(w.opInspector()->summaryText().startsWith(QLatin1String("3 ops; FIFO order; 1 fusion group")),
             qPrintable(w.opInspector()->summaryText()));
    QCOMPARE(w.opInspector()->valueText(OpInspector::Row::Fusion),
             QStringLiteral("1 group: #%1 (3 ops)").arg(groupOf(doc.plan(), chain[0])));
    QVERIFY(waitIdle(w));
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/inspector_fused.png"));
  }

 private:
  QTranslator english_;
  QTemporaryDir dir_;
  QString dot_;
};

QTEST_MAIN(PlanEditTest)
#include "plan_edit_test.moc"
