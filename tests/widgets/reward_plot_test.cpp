// Qt Test: the reward plot grows a point per optimizer iteration, draws the best baseline and
// the lower bound where their rewards are, marks the zero-shot plan and the polishing rounds,
// coalesces replots, zooms with the wheel and exports.
#include "reward/reward_plot.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>
#include <cmath>

using namespace gp;

namespace {

IterationReport report(int i, double mean, double best, double bestStep) {
  IterationReport r;
  r.iteration = i;
  r.meanReward = mean;
  r.bestReward = best;
  r.bestStepTime = bestStep;
  return r;
}

// How many pixels of `img` are close to `c`.
int pixelsNear(const QImage& img, const QColor& c) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor p = img.pixelColor(x, y);
      if (std::abs(p.red() - c.red()) + std::abs(p.green() - c.green()) + std::abs(p.blue() - c.blue()) < 30) ++n;
    }
  return n;
}

}  // namespace

class RewardPlotTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void curvesGrowAndReferenceLines() {
    RewardPlot plot;
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(!plot.lowerBoundLineVisible());
    QVERIFY(!plot.baselineLineVisible());

    // Lower bound 100 ms, best baseline 144 ms: reward −1.2.
    plot.setReferenceLines({0.100, 0.144, QStringLiteral("m_etf")});
    QVERIFY(plot.lowerBoundLineVisible());
    QVERIFY(plot.baselineLineVisible());
    QCOMPARE(plot.rewardOf(0.144), -1.2);
    for (int i = 1; i <= 12; ++i) {
      const double step = 0.200 - 0.006 * i;  // 194 ms ... 128 ms: climbs past the baseline
      plot.addIteration(report(i, -std::sqrt(step / 0.1) - 0.3, -std::sqrt(step / 0.1), step));
    }
    QCOMPARE(plot.pointCount(), 12);
    QCOMPARE(plot.meanRewards().size(), 12);
    QCOMPARE(plot.plot()->graph(0)->dataCount(), 12);  // mean
    QCOMPARE(plot.plot()->graph(1)->dataCount(), 12);  // best of the iteration
    QCOMPARE(plot.plot()->graph(2)->dataCount(), 12);  // best so far
    QVERIFY(std::abs(plot.bestStepTime() - 0.128) < 1e-12);
    QVERIFY(plot.bestRewards().back() > plot.rewardOf(0.144));  // above the baseline line

    // Coalesced: twelve points, at most one replot so far; then one after the interval.
    const int before = plot.replotCount();
    QTRY_VERIFY_WITH_TIMEOUT(plot.replotCount() == before + 1, 1000);
    QTest::qWait(3 * RewardPlot::kReplotIntervalMs);
    QCOMPARE(plot.replotCount(), before + 1);
    // The view holds the curves and both lines.
    const QCPRange y = plot.plot()->yAxis->range();
    QVERIFY(y.contains(-1.0) && y.contains(-1.2) && y.contains(plot.bestRewards().front()));
    QVERIFY(plot.plot()->xAxis->range().contains(12));

    // A burst of 200 points costs a handful of replots, not 200.
    const int burstStart = plot.replotCount();
    QElapsedTimer t;
    t.start();
    for (int i = 13; i <= 212; ++i) {
      plot.addIteration(report(i, -1.5, -1.15, 0.128));
      if (i % 20 == 0) QTest::qWait(15);  // the event loop runs meanwhile
    }
    QTest::qWait(2 * RewardPlot::kReplotIntervalMs);
    const int burstReplots = plot.replotCount() - burstStart;
    QVERIFY2(burstReplots <= 2 + t.elapsed() / RewardPlot::kReplotIntervalMs,
             qPrintable(QString::number(burstReplots)));
    QCOMPARE(plot.pointCount(), 212);
    QVERIFY(plot.plot()->xAxis->range().contains(212));

    // Wheel zoom: the view stops following new points until a double click.
    const QCPRange xBefore = plot.plot()->xAxis->range();
    QWheelEvent wheel(QPointF(320, 180), plot.plot()->mapToGlobal(QPointF(320, 180)), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(plot.plot(), &wheel);
    QTest::qWait(2 * RewardPlot::kReplotIntervalMs);
    const QCPRange zoomed = plot.plot()->xAxis->range();
    QVERIFY(zoomed.size() < xBefore.size());
    plot.addIteration(report(213, -1.5, -1.15, 0.128));
    plot.replotNow();
    QCOMPARE(plot.plot()->xAxis->range().size(), zoomed.size());
    QTest::mouseDClick(plot.plot(), Qt::LeftButton, {}, QPoint(320, 180));
    plot.replotNow();
    QVERIFY(plot.plot()->xAxis->range().contains(213) && plot.plot()->xAxis->range().contains(1));

    // Renders: the baseline's dark red and the best-so-far green are on screen.
    plot.replotNow();
    const QImage img = plot.grab().toImage();
    QVERIFY(pixelsNear(img, QColor(178, 34, 34)) > 100);
    QVERIFY(pixelsNear(img, QColor(46, 139, 87)) > 100);
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(plot.grab().save(QString::fromUtf8(dir) + "/reward_plot.png"));

    // clear(): a new run starts empty.
    plot.clear();
    QCOMPARE(plot.pointCount(), 0);
    QCOMPARE(plot.plot()->graph(0)->dataCount(), 0);
    QCOMPARE(plot.bestStepTime(), 0.0);
  }

  void bestCurveFollowsLateBound() {
    // Points that arrive before the lower bound is known still get their best-so-far curve.
    RewardPlot plot;
    plot.addIteration(report(1, -3, -2, 0.4));
    plot.addIteration(report(2, -3, -2, 0.1));
    QCOMPARE(plot.plot()->graph(2)->dataCount(), 0);
    plot.setReferenceLines({0.1, 0, {}});
    QCOMPARE(plot.plot()->graph(2)->dataCount(), 2);
    QCOMPARE(plot.plot()->graph(2)->data()->at(1)->value, -1.0);
    QVERIFY(plot.lowerBoundLineVisible());
    QVERIFY(!plot.baselineLineVisible());
  }

  void exportPaints() {
    RewardPlot plot;
    plot.resize(500, 300);
    plot.setReferenceLines({0.05, 0.06, QStringLiteral("m_sct")});
    for (int i = 1; i <= 8; ++i) plot.addIteration(report(i, -1.6 + 0.04 * i, -1.3 + 0.02 * i, 0.07 - 0.002 * i));
    // PNG: a big image, painted (the bound's grey and the baseline's red are there).
    QImage img(1600, 900, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    {
      QPainter p(&img);
      p.setRenderHint(QPainter::Antialiasing);
      plot.renderTo(&p, QRectF(0, 0, 1600, 900));
    }
    QVERIFY(pixelsNear(img, QColor(178, 34, 34)) > 200);
    QVERIFY(pixelsNear(img, QColor(70, 130, 180)) > 200);
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(img.save(QString::fromUtf8(dir) + "/reward_plot_export.png"));
    // SVG: vector paths and the labels as text.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(800, 450));
    svg.setViewBox(QRectF(0, 0, 800, 450));
    {
      QPainter p(&svg);
      plot.renderTo(&p, QRectF(0, 0, 800, 450));
    }
    buffer.close();
    QVERIFY(bytes.contains("<path") || bytes.contains("<polyline"));
    QVERIFY2(bytes.contains("m_sct"), bytes.left(400).constData());
    QVERIFY(bytes.contains("iteration"));
  }

  void zeroShotPlanIsAMarkerAtIterationZero() {
    RewardPlot plot;
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    IterationReport zero;
    zero.zeroShot = true;
    zero.bestStepTime = 0.150;
    plot.addIteration(zero);  // before the bound is known: kept, drawn once it is
    QVERIFY(!plot.zeroShotMarkerVisible());
    plot.setReferenceLines({0.100, 0.160, QStringLiteral("heft")});
    QVERIFY(plot.zeroShotMarkerVisible());
    QCOMPARE(plot.zeroShotStepTime(), 0.150);
    QCOMPARE(plot.pointCount(), 0);  // not an iteration: no mean / best point
    QCOMPARE(plot.bestStepTime(), 0.150);
    plot.addIteration(report(1, -1.5, -1.2, 0.140));
    plot.replotNow();
    QCOMPARE(plot.pointCount(), 1);
    QVERIFY(plot.plot()->xAxis->range().contains(0));  // the marker is in view
    QVERIFY(plot.plot()->yAxis->range().contains(plot.rewardOf(0.150)));
    const QImage img = plot.grab().toImage();
    QVERIFY(pixelsNear(img, QColor(128, 0, 128)) > 20);  // the diamond and its label
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(img.save(QString::fromUtf8(dir) + "/reward_plot_zero_shot.png"));
    plot.clear();
    QVERIFY(!plot.zeroShotMarkerVisible());
    QCOMPARE(plot.zeroShotStepTime(), 0.0);
  }

  void polishingRoundsAreOnABand() {
    RewardPlot plot;
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setReferenceLines({0.100, 0.160, QStringLiteral("heft")});
    for (int i = 1; i <= 8; ++i) plot.addIteration(report(i, -1.6, -1.3 + 0.01 * i, 0.150 - 0.002 * i));
    plot.replotNow();
    QVERIFY(!plot.polishBandVisible());
    const QColor band(248, 237, 211);  // the band's translucent gold over the white axis rect
    const int before = pixelsNear(plot.grab().toImage(), band);
    for (int i = 9; i <= 11; ++i) {
      IterationReport r = report(i, -1.18 + 0.01 * i, -1.18 + 0.01 * i, 0.134 - 0.002 * i);
      r.polish = true;
      plot.addIteration(r);
    }
    plot.replotNow();
    QVERIFY(plot.polishBandVisible());
    QCOMPARE(plot.polishFrom(), 9.0);
    QCOMPARE(plot.polishTo(), 11.0);
    QCOMPARE(plot.pointCount(), 11);  // the rounds are points of the curves too
    const QImage img = plot.grab().toImage();
    // Three of eleven iterations wide, the full height: thousands of pixels.
    QVERIFY2(pixelsNear(img, band) > before + 2000, qPrintable(QString::number(pixelsNear(img, band) - before)));
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(img.save(QString::fromUtf8(dir) + "/reward_plot_polish.png"));
    plot.clear();
    QVERIFY(!plot.polishBandVisible());
    QCOMPARE(plot.polishFrom(), 0.0);
  }
};

QTEST_MAIN(RewardPlotTest)
#include "reward_plot_test.moc"
