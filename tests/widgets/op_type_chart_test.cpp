// Qt Test: the op-type chart shows a graph's histogram as bars, largest first.
#include <QTest>
#include <qcustomplot.h>

#include "graph/graph_builder.h"
#include "op_type_chart.h"

using namespace gp;

class OpTypeChartTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void countsLargestFirst() {
    GraphBuilder b("t");
    TensorId prev = b.addGraphInput({"x", {4}});
    const char* types[] = {"MatMul", "Add", "MatMul", "Relu", "MatMul", "Add"};
    int i = 0;
    for (const char* t : types) {
      OpId op = b.addOp({.name = "op" + std::to_string(i++), .type = t, .inputs = {prev}, .outputs = {{"", {4}}},
                         .flops = 10.0 * i});
      prev = b.output(op);
    }
    Graph g = std::move(b).build("t");
    OpTypeChart chart;
    chart.resize(400, 300);
    chart.setGraph(g);
    QCOMPARE(chart.barCount(), 3);
    QCOMPARE(chart.labels(), (QStringList{"MatMul", "Add", "Relu"}));
    QCOMPARE(chart.values(), (QVector<double>{3, 2, 1}));
    chart.setGraph(g, OpTypeChart::Measure::Flops, 1);
    QCOMPARE(chart.labels(), (QStringList{"MatMul", "other"}));
    QCOMPARE(chart.values(), (QVector<double>{10 + 30 + 50, 20 + 40 + 60}));
    // It renders: a non-empty pixmap with the bar colour somewhere.
    chart.show();
    QImage img = chart.plot()->toPixmap(400, 300).toImage();
    bool found = false;
    for (int y = 0; y < img.height() && !found; y += 2)
      for (int x = 0; x < img.width() && !found; x += 2) found = img.pixelColor(x, y) == QColor(70, 130, 180);
    QVERIFY(found);
    // GP_SCREENSHOT_DIR=/tmp/shots: keep a picture of what the test saw, to look at
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(chart.grab().save(QString::fromUtf8(dir) + "/op_type_chart.png"));
  }
};

QTEST_MAIN(OpTypeChartTest)
#include "op_type_chart_test.moc"
