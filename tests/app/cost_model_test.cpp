// Qt Test: the Cost Model window used as a person would — open a tiny model (an MLP), Run ▸
// Cost Model…, choose a learned kernel model and a fitted roofline (trained here, in a few
// seconds, on the same model's kernels), Measure with 4 kernels and 1 repeat, wait: the scatter
// plot holds two series with a point per sample, a point's tooltip names its kernel and
// configuration, the scores are shown; Colour: prediction error colours a measured op and
// leaves an unmeasured one grey. A run stopped midway ends without a result; a missing model
// file, a broken roofline and a model with no kernel to measure are one line in the window,
// the main window untouched. Skipped
// without the LibTorch plugin. With GP_SCREENSHOT_DIR set, the window is saved there after 40
// kernels of ResNet-18 (cost-model.png) with the shipped models, or those named by
// GP_COSTMODEL_LEARNED / GP_COSTMODEL_ROOFLINE, and the graph coloured by error next to it
// (cost-model-graph.png).
#include <QAction>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QHelpEvent>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <cmath>
#include <qcustomplot.h>

#include "app_test_helpers.h"
#include "base/file_text.h"
#include "cost_model_window.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/cost_scatter_plot.h"
#include "costmodel/dataset_maker.h"
#include "document.h"
#include "graph/graph_colors.h"
#include "graph/graph_view.h"
#include "io/model_loader.h"
#include "main_window.h"
#include "optimize/cost_plugin.h"
#include "optimize/rl_plugin.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

QString dataPath(const char* rel) { return QStringLiteral(GP_TEST_DATA_DIR "/") + QString::fromLatin1(rel); }

// Spins the event loop until the window's measurement has ended, three polls in a row.
bool waitCost(CostModelWindow* cw, int timeoutMs = 300000) {
  QDeadlineTimer deadline(timeoutMs);
  int idlePolls = 0;
  while (!deadline.hasExpired()) {
    QTest::qWait(20);
    idlePolls = cw->session()->isRunning() ? 0 : idlePolls + 1;
    if (idlePolls >= 3) return true;
  }
  return false;
}

// Opens `model` in the main window, then Run ▸ Cost Model….
CostModelWindow* openCostModel(MainWindow& w, Document& doc, const QString& model, GraphMode mode = GraphMode::Default) {
  doc.open(OpenRequest{model, mode, {}, {}, {}, false});
  if (!waitIdle(w)) return nullptr;
  QAction* open = action(w, "actionCostModel");
  if (!open->isEnabled()) return nullptr;
  open->trigger();
  return w.costModelWindow();
}

}  // namespace

class CostModelTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // A learned model and a fitted roofline of the MLP's own kernels (the shipped ones may not
  // exist in a fresh checkout, and these keep the test independent of them).
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("cost_model_test"));
    try {
      rlCpuTimeEntry();
    } catch (const std::exception& e) {
      QSKIP(qPrintable(QStringLiteral("no LibTorch plugin: %1").arg(QString::fromUtf8(e.what()))));
    }
    QVERIFY(dir_.isValid());
    learned_ = dir_.filePath(QStringLiteral("kernel.pt"));
    roofline_ = dir_.filePath(QStringLiteral("roofline.json"));
    const Graph g = loadModel(dataPath("onnx/mlp.onnx").toStdString());
    auto source = cpuMeasurementSource();
    DatasetMakeOptions o;
    o.plans = false;
    o.repeats = 1;
    o.maxKernelsPerModel = 6;
    const MadeDatasets made = makeCostDatasets({{"mlp.onnx", "mlp", &g}}, *source, o);
    QVERIFY(!made.kernels.graphs.empty());
    CostTrainOptions t;
    t.epochs = 3;
    t.hidden = 16;
    trainCostModelFile(made.kernels, t, learned_.toStdString());
    writeTextFileAtomically(roofline_.toStdString(), AnalyticCostModel::fit(made.kernels).toJson());
  }

  void measurePlotTooltipAndColours() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1300, 850);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    CostModelWindow* cw = openCostModel(w, doc, dataPath("onnx/mlp.onnx"));
    QVERIFY(cw);
    QVERIFY(QTest::qWaitForWindowExposed(cw));
    QVERIFY(!cw->messageIsError());
    cw->setLearnedModel(learned_);
    cw->setRoofline(roofline_);
    cw->kernelsSpin()->setValue(4);
    cw->repeatsSpin()->setValue(1);
    QAction* measure = cw->action("costMeasure");
    QAction* stop = cw->action("costStop");
    QVERIFY(measure->isEnabled() && !stop->isEnabled());
    measure->trigger();
    QVERIFY(cw->session()->isRunning());
    QVERIFY(stop->isEnabled() && !measure->isEnabled());
    QVERIFY(waitCost(cw));
    QVERIFY2(!cw->messageIsError(), qPrintable(cw->messageText()));
    const CostModelResult* r = cw->session()->result();
    QVERIFY(r);
    QVERIFY(r->kernels.graphs.size() >= 2 && r->kernels.graphs.size() <= 4);
    QVERIFY(measure->isEnabled() && !stop->isEnabled());

    // Two series of a point per sample, the diagonal beside them, log axes.
    CostScatterPlot* plot = cw->scatterPlot();
    QCOMPARE(plot->plot()->graphCount(), 2);
    QCOMPARE(plot->seriesCount(), 2);
    const int samples = static_cast<int>(r->samples());
    QVERIFY(samples >= 8);
    QCOMPARE(plot->pointCount(CostScatterPlot::Learned), samples);
    QCOMPARE(plot->pointCount(CostScatterPlot::Roofline), samples);
    QCOMPARE(plot->plot()->graph(0)->dataCount(), samples);
    QCOMPARE(plot->plot()->graph(1)->dataCount(), samples);
    QVERIFY(plot->plot()->xAxis->scaleType() == QCPAxis::stLogarithmic);
    QVERIFY(plot->plot()->yAxis->scaleType() == QCPAxis::stLogarithmic);
    QVERIFY(plot->plot()->legend->visible());
    QVERIFY(cw->summaryText().contains(QStringLiteral("Kendall")));
    QVERIFY(cw->summaryText().contains(QStringLiteral("OPA")));

    // Hovering the last point: its kernel's name and configuration.
    QCustomPlot* cp = plot->plot();
    const QPoint at = plot->pointPosition(CostScatterPlot::Roofline, samples - 1);
    QVERIFY(cp->rect().contains(at));
    QHelpEvent help(QEvent::ToolTip, at, cp->mapToGlobal(at));
    QCoreApplication::sendEvent(cp, &help);
    const QString tip = QToolTip::text();
    QVERIFY2(!tip.isEmpty(), "no tooltip on a point");
    const QStringList lines = tip.split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 4, qPrintable(tip));
    bool namesKernel = false;
    for (const CostGraph& g : r->kernels.graphs) namesKernel = namesKernel || lines[0] == QString::fromStdString(g.name);
    QVERIFY2(namesKernel, qPrintable(tip));
    QVERIFY2(QRegularExpression(QStringLiteral("^threads \\d+ · layout [01] · tiles [14]$")).match(lines[1]).hasMatch(),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("measured: ")) && tip.contains(QStringLiteral("learned model: ")) &&
                 tip.contains(QStringLiteral("fitted roofline: ")),
             qPrintable(tip));
    // far from every point: no tooltip text of ours
    QCOMPARE(plot->toolTipAt(QPoint(2, 2)), QString());

    // Colour: prediction error — a measured op takes a colour of the scale, an unmeasured one stays grey.
    auto* mode = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    mode->setCurrentIndex(mode->findData(static_cast<int>(GraphView::ColorMode::PredictionError)));
    QVERIFY(w.graphView()->colorMode() == GraphView::ColorMode::PredictionError);
    QVERIFY(w.graphView()->hasPredictionErrors());
    OpId measured = kNone, unmeasured = kNone;
    for (OpId op = 0; op < doc.graph()->numOps(); ++op) {
      if (std::isfinite(r->opErrors[static_cast<size_t>(op)]) && measured == kNone) measured = op;
      if (!std::isfinite(r->opErrors[static_cast<size_t>(op)]) && unmeasured == kNone) unmeasured = op;
    }
    QVERIFY(measured != kNone);
    QVERIFY(w.graphView()->opColor(measured) != kNoValueColor);
    if (unmeasured != kNone) QCOMPARE(w.graphView()->opColor(unmeasured), kNoValueColor);
    // back to devices: the device colour again
    mode->setCurrentIndex(mode->findData(static_cast<int>(GraphView::ColorMode::Device)));
    QVERIFY(w.graphView()->opColor(measured) != kNoValueColor);

    // Another model: the result goes, the graph has no errors.
    doc.open(OpenRequest{dataPath("dot/small.dot"), GraphMode::Default, {}, {}, {}, false});
    QVERIFY(waitIdle(w));
    QVERIFY(!cw->session()->result());
    QCOMPARE(plot->pointCount(CostScatterPlot::Learned), 0);
    QVERIFY(!w.graphView()->hasPredictionErrors());
  }

  // Stop in the middle of a measurement (ResNet-18's kernels, a few seconds each with these
  // repeats): the run ends within a timed run, without a result, and Measure is back.
  void stopEndsTheRun() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    CostModelWindow* cw = openCostModel(w, doc, dataPath("onnx/resnet18.onnx"), GraphMode::Inference);
    QVERIFY(cw);
    cw->setLearnedModel(learned_);
    cw->setRoofline(roofline_);
    cw->repeatsSpin()->setValue(20);
    QSignalSpy progress(cw->session(), &CostModelSession::progress);
    cw->action("costMeasure")->trigger();
    QVERIFY(cw->session()->isRunning());
    // until the first kernel is timed
    QDeadlineTimer deadline(120000);
    while (!deadline.hasExpired() && (progress.isEmpty() || progress.last().at(0).toInt() < 1)) QTest::qWait(20);
    QVERIFY2(cw->session()->isRunning(), qPrintable(cw->messageText()));
    QVERIFY2(cw->messageText().startsWith(QStringLiteral("Measuring kernel ")), qPrintable(cw->messageText()));
    QElapsedTimer clock;
    clock.start();
    cw->action("costStop")->trigger();
    QVERIFY(waitCost(cw, 30000));
    QVERIFY2(clock.elapsed() < 10000, "Stop took too long");
    QVERIFY(!cw->session()->result());
    QVERIFY(!cw->messageIsError());
    QVERIFY2(cw->messageText().startsWith(QStringLiteral("Stopped")), qPrintable(cw->messageText()));
    QVERIFY(cw->action("costMeasure")->isEnabled() && !cw->action("costStop")->isEnabled());
    QCOMPARE(cw->scatterPlot()->pointCount(CostScatterPlot::Learned), 0);
    QVERIFY(w.lastError().isEmpty());
  }

  void badFilesAreOneLine() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    CostModelWindow* cw = openCostModel(w, doc, dataPath("onnx/mlp.onnx"));
    QVERIFY(cw);
    const auto before = doc.workspace();

    // A learned model file that does not exist: refused before anything runs.
    const QString missing = dir_.filePath(QStringLiteral("no_such_model.pt"));
    cw->setLearnedModel(missing);
    cw->setRoofline(roofline_);
    cw->action("costMeasure")->trigger();
    QVERIFY(!cw->session()->isRunning());
    QVERIFY(cw->messageIsError());
    QVERIFY2(cw->messageText().contains(QStringLiteral("no_such_model.pt")), qPrintable(cw->messageText()));
    QVERIFY(!cw->messageText().contains(QLatin1Char('\n')));

    // A roofline that is not one: the run ends with the parser's one line.
    const QString broken = dir_.filePath(QStringLiteral("broken.json"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"something else\"}");
    f.close();
    cw->setLearnedModel(learned_);
    cw->setRoofline(broken);
    cw->repeatsSpin()->setValue(1);
    cw->kernelsSpin()->setValue(2);
    cw->action("costMeasure")->trigger();
    QVERIFY(waitCost(cw));
    QVERIFY(cw->messageIsError());
    QVERIFY2(cw->messageText().contains(QStringLiteral("broken.json")), qPrintable(cw->messageText()));
    QVERIFY(!cw->messageText().contains(QLatin1Char('\n')));
    QVERIFY(!cw->session()->result());

    // The main window and its document are untouched.
    QVERIFY(doc.workspace() == before);
    QVERIFY(w.lastError().isEmpty());

    // A model with no kernel to run (metadata ops only): one line too.
    const QString dot = dir_.filePath(QStringLiteral("shapes_only.dot"));
    QFile d(dot);
    QVERIFY(d.open(QIODevice::WriteOnly));
    d.write("digraph shapes { a [op=Reshape, bytes=64]; b [op=Identity, bytes=64]; a -> b; }\n");
    d.close();
    doc.open(OpenRequest{dot, GraphMode::Inference, {}, {}, {}, false});
    QVERIFY(waitIdle(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    cw->setRoofline(roofline_);
    QVERIFY(cw->action("costMeasure")->isEnabled());
    cw->action("costMeasure")->trigger();
    QVERIFY(waitCost(cw));
    QVERIFY(cw->messageIsError());
    QVERIFY2(cw->messageText().contains(QStringLiteral("no kernel")), qPrintable(cw->messageText()));
    QVERIFY(!cw->messageText().contains(QLatin1Char('\n')));
  }

  // GP_SCREENSHOT_DIR/cost-model.png: 40 kernels of ResNet-18 (inference) measured with 3 repeats.
  void screenshot() {
    const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR");
    if (dir.isEmpty()) QSKIP("GP_SCREENSHOT_DIR not set");
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    CostModelWindow* cw = openCostModel(w, doc, dataPath("onnx/resnet18.onnx"), GraphMode::Inference);
    QVERIFY(cw);
    cw->resize(1200, 860);
    const QString learned = qEnvironmentVariable("GP_COSTMODEL_LEARNED"), roofline = qEnvironmentVariable("GP_COSTMODEL_ROOFLINE");
    if (!learned.isEmpty()) cw->setLearnedModel(learned);
    else if (cw->session()->learnedModelPath().isEmpty()) cw->setLearnedModel(learned_);
    if (!roofline.isEmpty()) cw->setRoofline(roofline);
    else if (cw->session()->rooflinePath().isEmpty()) cw->setRoofline(roofline_);
    cw->action("costMeasure")->trigger();
    QVERIFY(waitCost(cw, 600000));
    QVERIFY2(cw->session()->result(), qPrintable(cw->messageText()));
    QVERIFY(QTest::qWaitForWindowExposed(cw));
    QTest::qWait(200);
    QVERIFY(cw->grab().save(QString::fromUtf8(dir) + "/cost-model.png"));
    auto* mode = w.findChild<QComboBox*>(QStringLiteral("colorMode"));
    mode->setCurrentIndex(mode->findData(static_cast<int>(GraphView::ColorMode::PredictionError)));
    QVERIFY(waitIdle(w));
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/cost-model-graph.png"));
  }

 private:
  QTemporaryDir dir_;
  QString learned_, roofline_;
};

QTEST_MAIN(CostModelTest)
#include "cost_model_test.moc"
