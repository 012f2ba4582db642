// Qt Test: the op inspector shows the selected op(s) under a plan — name, type, device,
// priority ("FIFO" without priorities), fusion group and its size; a summary for several ops —
// and its buttons ask for edits (set priority, fuse, unfuse) only when they make sense.
#include "panels/op_inspector.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <memory>

#include "graph/graph_builder.h"

using namespace gp;

namespace {

// in -> mm (MatMul) -> relu -> add -> mul -> mm2 (MatMul)
std::shared_ptr<const Graph> chain() {
  GraphBuilder b("chain");
  const std::vector<int64_t> s = {256, 256};
  TensorId t = b.addGraphInput({"in", s});
  const char* types[] = {"MatMul", "Relu", "Add", "Mul", "MatMul"};
  const char* names[] = {"blk/mm", "blk/relu", "blk/add", "blk/mul", "blk/mm2"};
  for (int i = 0; i < 5; ++i)
    t = b.output(b.addOp({.name = names[i], .type = types[i], .inputs = {t}, .outputs = {{"", s}}, .flops = 1e6}));
  return std::make_shared<const Graph>(std::move(b).build("chain"));
}

}  // namespace

class OpInspectorTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void showsOneOpAndSeveral() {
    OpInspector w;
    w.resize(300, 300);
    w.show();
    w.setGraph(chain());
    w.setDevices({QStringLiteral("gpu0"), QStringLiteral("gpu1")});
    w.setEditable(true);
    // Nothing selected: a hint, nothing to press.
    QVERIFY(w.titleText().contains(QLatin1String("Select ops")));
    QVERIFY(!w.setPriorityButton()->isEnabled() && !w.fuseButton()->isEnabled() && !w.unfuseButton()->isEnabled());

    // A FIFO plan without fusion.
    w.setPlan(Plan{{0, 0, 1, 1, 1}, {}, {}});
    w.setSelection({2});
    QCOMPARE(w.titleText(), QStringLiteral("blk/add"));
    QCOMPARE(w.valueText(OpInspector::Row::Type), QStringLiteral("Add"));
    QCOMPARE(w.valueText(OpInspector::Row::Device), QStringLiteral("gpu1"));
    QCOMPARE(w.valueText(OpInspector::Row::Priority), QStringLiteral("FIFO"));
    QCOMPARE(w.valueText(OpInspector::Row::Fusion), QStringLiteral("not fused"));
    QVERIFY(w.setPriorityButton()->isEnabled());
    QVERIFY(!w.fuseButton()->isEnabled());    // one op
    QVERIFY(!w.unfuseButton()->isEnabled());  // not fused
    QVERIFY(w.planText().contains(QLatin1String("FIFO order")));
    QVERIFY(w.planText().contains(QLatin1String("no fusion")));

    // Priorities and two groups: {relu, add} (group 0) and {mul, mm2} (group 3).
    w.setPlan(Plan{{0, 0, 0, 1, 1}, {3, 40, 7, 0, 5}, {-1, 0, 0, 3, 3}});
    QCOMPARE(w.valueText(OpInspector::Row::Priority), QStringLiteral("7"));
    QVERIFY2(w.valueText(OpInspector::Row::Fusion).startsWith(QLatin1String("group 0 (2 op")),
             qPrintable(w.valueText(OpInspector::Row::Fusion)));
    QVERIFY(w.unfuseButton()->isEnabled());
    QCOMPARE(w.valueText(OpInspector::Row::Device), QStringLiteral("gpu0"));

    // Several: aggregated rows and the one-line summary.
    w.setSelection({0, 1, 2, 3});
    QVERIFY(w.titleText().startsWith(QLatin1String("4 ops")));
    QCOMPARE(w.valueText(OpInspector::Row::Priority), QStringLiteral("0–40"));
    QCOMPARE(w.valueText(OpInspector::Row::Device), QStringLiteral("gpu0 ×3, gpu1 ×1"));
    QVERIFY2(w.valueText(OpInspector::Row::Type).startsWith(QStringLiteral("Add ×1")),
             qPrintable(w.valueText(OpInspector::Row::Type)));
    const QString fusion = w.valueText(OpInspector::Row::Fusion);
    QVERIFY2(fusion.contains(QLatin1String("#0 (2 op")) && fusion.contains(QLatin1String("#3 (1 of 2 op")) &&
                 fusion.contains(QLatin1String("1 not fused")),
             qPrintable(fusion));
    const QString summary = w.summaryText();
    QVERIFY2(summary.startsWith(QStringLiteral("4 ops; priorities 0–40; 2 fusion group")), qPrintable(summary));
    QVERIFY(w.fuseButton()->isEnabled() && w.unfuseButton()->isEnabled());
    QCOMPARE(w.prioritySpin()->value(), 40);  // starts from the selection's highest
    QVERIFY(w.planText().contains(QStringLiteral("priorities 0–40")));

    // All equal priorities.
    w.setSelection({3, 4});
    QCOMPARE(w.valueText(OpInspector::Row::Priority), QStringLiteral("0–5"));
    w.setPlan(Plan{{0, 0, 0, 1, 1}, {2, 2, 2, 2, 2}, {}});
    QCOMPARE(w.valueText(OpInspector::Row::Priority), QStringLiteral("2"));
    QVERIFY2(w.summaryText().contains(QLatin1String("priority 2; no fusion group")), qPrintable(w.summaryText()));
    QVERIFY(!w.unfuseButton()->isEnabled());
    QVERIFY(w.planText().contains(QLatin1String("priority 2 for all")));
  }

  void buttonsAskForEdits() {
    OpInspector w;
    w.show();
    w.setGraph(chain());
    w.setDevices({QStringLiteral("gpu0")});
    w.setPlan(Plan{{0, 0, 0, 0, 0}, {}, {-1, 0, 0, -1, -1}});
    w.setSelection({1, 2});
    QSignalSpy prio(&w, &OpInspector::priorityRequested);
    QSignalSpy fuse(&w, &OpInspector::fuseRequested);
    QSignalSpy unfuse(&w, &OpInspector::unfuseRequested);
    // Not editable (no model / optimizer running): nothing can be pressed.
    w.setEditable(false);
    QVERIFY(!w.setPriorityButton()->isEnabled() && !w.fuseButton()->isEnabled());
    QTest::mouseClick(w.fuseButton(), Qt::LeftButton);
    QCOMPARE(fuse.count(), 0);
    w.setEditable(true);
    w.prioritySpin()->setValue(12);
    QTest::mouseClick(w.setPriorityButton(), Qt::LeftButton);
    QCOMPARE(prio.count(), 1);
    QCOMPARE(prio.at(0).at(0).toInt(), 12);
    // Return in the spin box applies too.
    w.prioritySpin()->setFocus();
    w.activateWindow();
    QTRY_VERIFY(w.prioritySpin()->hasFocus());
    w.prioritySpin()->setValue(-3);
    QTest::keyClick(w.prioritySpin(), Qt::Key_Return);
    QCOMPARE(prio.count(), 2);
    QCOMPARE(prio.at(1).at(0).toInt(), -3);
    QTest::mouseClick(w.fuseButton(), Qt::LeftButton);
    QTest::mouseClick(w.unfuseButton(), Qt::LeftButton);
    QCOMPARE(fuse.count(), 1);
    QCOMPARE(unfuse.count(), 1);
    // A new graph clears the selection.
    w.setGraph(chain());
    QVERIFY(!w.setPriorityButton()->isEnabled());
  }
};

QTEST_MAIN(OpInspectorTest)
#include "op_inspector_test.moc"
