// Qt Test: exported models as a user first sees them in the app — opened from the File menu's
// path (Document::open), each model's first view shows a handful of boxes at a zoom where names
// read (at least 80 %), with the graph's inputs on screen, and nothing is refused.
#include <QTest>

#include "app_test_helpers.h"
#include "document.h"
#include "graph/graph_view.h"
#include "main_window.h"

using namespace gp;

class FirstViewTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("first_view_test"));
  }

  void exportedModelsOpenReadable_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("unrolled seq2seq (10,959 ops)") << QStringLiteral("onnx/seq2seq_unrolled.onnx");
    QTest::newRow("transformer encoder") << QStringLiteral("onnx/transformer_encoder.onnx");
    QTest::newRow("resnet18") << QStringLiteral("onnx/resnet18.onnx");
    QTest::newRow("mobilenet_v2") << QStringLiteral("onnx/mobilenet_v2.onnx");
  }

  void exportedModelsOpenReadable() {
    QFETCH(QString, file);
    Document doc;
    MainWindow w(&doc);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{QStringLiteral(GP_TEST_DATA_DIR "/") + file, GraphMode::Default,
                         QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(gptest::waitIdle(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QVERIFY(doc.hasModel());
    GraphView* view = w.graphView();
    const int boxes = view->visibleNodeCount();
    QVERIFY2(boxes >= 2 && boxes <= 40, qPrintable(QStringLiteral("%1 boxes").arg(boxes)));
    QVERIFY2(view->zoom() >= 0.8 - 1e-9, qPrintable(QStringLiteral("zoom %1").arg(view->zoom())));
    // The data's way in is on screen: the box of the first op that reads a graph input.
    const Graph& g = *doc.graph();
    OpId first = kNone;
    for (OpId op : g.topoOrder()) {
      for (TensorId t : g.inputs(op))
        if (g.tensorKind(t) == TensorKind::GraphInput) first = op;
      if (first != kNone) break;
    }
    QVERIFY(first != kNone);
    const QRectF box = view->opRect(first);
    QVERIFY2(box.intersects(QRectF(view->rect())),
             qPrintable(QStringLiteral("input box at %1,%2").arg(box.x()).arg(box.y())));
  }
};

QTEST_MAIN(FirstViewTest)
#include "first_view_test.moc"
