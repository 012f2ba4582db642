// Qt Test: what an import could only guess, as a person meets it — a model whose shapes are
// partly unknown opens with a banner, "Show them" selects the estimated ops and the inspector
// says their cost is estimated; a model with a symbolic batch dimension says its default and
// File ▸ Symbolic Dimensions… reopens it with another value.
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <cmath>

#include "app_options.h"
#include "app_test_helpers.h"
#include "document.h"
#include "import_notice.h"
#include "main_window.h"
#include "panels/op_inspector.h"

using namespace gp;

namespace {
QString dataPath(const char* rel) {
  return QStringLiteral(GP_TEST_DATA_DIR "/") + QLatin1String(rel);
}
}  // namespace

class ImportNoticeTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("import_notice_test"));
  }

  void commandLineDims() {
    AppOptions o = parseAppOptions({"graphplace", "m.onnx", "--dim", "batch=8", "--dim", "seq=128"});
    QVERIFY(!o.exitNow);
    QCOMPARE(o.dims.size(), size_t{2});
    QCOMPARE(o.dims.at("batch"), int64_t{8});
    QCOMPARE(o.dims.at("seq"), int64_t{128});
    QCOMPARE(parseAppOptions({"graphplace", "m.onnx", "--dim", "batch"}).exitCode, 2);
    QCOMPARE(parseAppOptions({"graphplace", "m.onnx", "--dim", "batch=0"}).exitCode, 2);
  }

  void estimatedOpsAreShownAndSelectable() {
    Document doc;
    MainWindow w(&doc);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dataPath("malformed/missing_shape.onnx"),
                         GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(gptest::waitIdle(w));
    QVERIFY(doc.hasModel());
    QVERIFY(w.lastError().isEmpty());
    ImportBanner* banner = w.importBanner();
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("have shapes the importer could not learn")),
             qPrintable(banner->text()));
    QVERIFY(!gptest::action(w, "actionSymbolicDims")->isEnabled());

    Q_EMIT banner->linkActivated(QStringLiteral("estimated"));  // "Show them"
    QCOMPARE(doc.selection().size(), size_t{2});
    QVERIFY2(w.opInspector()->valueText(OpInspector::Row::Cost).contains(QStringLiteral("(2 estimated)")),
             qPrintable(w.opInspector()->valueText(OpInspector::Row::Cost)));
    doc.setSelection({doc.graph()->findOp("relu")});
    QVERIFY(w.opInspector()->valueText(OpInspector::Row::Cost).contains(QStringLiteral("estimated")));

    // A model with every shape known and no symbolic dimension: no banner.
    doc.open(OpenRequest{QStringLiteral("zoo:resnet50"), GraphMode::Default, {}, {}, {}, false});
    QVERIFY(gptest::waitIdle(w));
    QVERIFY(!banner->isVisible());
  }

  void symbolicDimsReopenTheModel() {
    Document doc;
    MainWindow w(&doc);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dataPath("onnx/mlp.onnx"), GraphMode::Default,
                         QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(gptest::waitIdle(w));
    QVERIFY(w.importBanner()->isVisible());
    QVERIFY2(w.importBanner()->text().contains(QStringLiteral("batch = 1 (default)")),
             qPrintable(w.importBanner()->text()));
    QAction* dims = gptest::action(w, "actionSymbolicDims");
    QVERIFY(dims->isEnabled());
    const double flops1 = doc.graph()->totalFlops();

    bool answered = false;
    QTimer::singleShot(200, &w, [&] {  // the dialog is modal: answer it from the event loop
      auto* dialog = w.findChild<QDialog*>(QStringLiteral("symbolicDimsDialog"));
      if (!dialog) return;
      auto* spin = dialog->findChild<QSpinBox*>(QStringLiteral("dim_batch"));
      if (!spin) return;
      spin->setValue(8);
      dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
      answered = true;
    });
    QSignalSpy opened(&doc, &Document::opened);
    dims->trigger();
    QVERIFY(answered);
    QVERIFY(gptest::waitIdle(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(doc.graph()->symbolicDims().at(0).value, int64_t{8});
    QVERIFY(doc.graph()->symbolicDims().at(0).bound);
    QVERIFY(std::abs(doc.graph()->totalFlops() - 8 * flops1) < 1e-6 * doc.graph()->totalFlops());
    QVERIFY2(w.importBanner()->text().contains(QStringLiteral("batch = 8")), qPrintable(w.importBanner()->text()));
    QVERIFY(!w.importBanner()->text().contains(QStringLiteral("default")));
  }
};

QTEST_MAIN(ImportNoticeTest)
#include "import_notice_test.moc"
