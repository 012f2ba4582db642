// Qt Test: the timeline (Gantt) view shows a simulated step as rows of bars and is used with
// the mouse and keys as a person would (click, shift-click, wheel, drag, double-click).
#include "timeline/timeline_view.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>
#include <memory>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "device_colors.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "placement/placer.h"
#include "sim/simulator.h"

using namespace gp;

Q_DECLARE_METATYPE(std::vector<gp::OpId>)

namespace {

void saveShot(QWidget& w, const QString& name) {
  if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/" + name));
}

// x (1024x1024 f32) -> enc/matmul (gpu0) -> enc/relu + enc/scale (gpu0, fused) -> dec/matmul (gpu1)
// -> dec/softmax (gpu1): one 4 MiB transfer gpu0 -> plx0 -> gpu1.
struct Small {
  std::shared_ptr<const Graph> g;
  Cluster c = loadCluster("4xP100-PCIe");
  Measurement m;
  OpId matmul0, relu, scale, matmul1, softmax;

  Small() {
    GraphBuilder b("small");
    const std::vector<int64_t> s = {1024, 1024};
    TensorId x = b.addGraphInput({"x", s});
    matmul0 =
        b.addOp({.name = "enc/matmul", .type = "MatMul", .inputs = {x}, .outputs = {{"enc/h", s}}, .flops = 2e10});
    relu = b.addOp(
        {.name = "enc/relu", .type = "Relu", .inputs = {b.output(matmul0)}, .outputs = {{"", s}}, .flops = 1e6});
    scale = b.addOp(
        {.name = "enc/scale", .type = "Mul", .inputs = {b.output(relu)}, .outputs = {{"enc/y", s}}, .flops = 1e6});
    matmul1 = b.addOp(
        {.name = "dec/matmul", .type = "MatMul", .inputs = {b.output(scale)}, .outputs = {{"", s}}, .flops = 1e10});
    softmax = b.addOp(
        {.name = "dec/softmax", .type = "Softmax", .inputs = {b.output(matmul1)}, .outputs = {{"", s}}, .flops = 5e6});
    g = std::make_shared<const Graph>(std::move(b).build("small"));
    CostModel cost(*g, c);
    Simulator sim(cost);
    m = sim.run(Plan{{0, 0, 0, 1, 1}, {}, {-1, 0, 0, -1, -1}});
  }
  const TimelineEvent& event(OpId op) const {
    for (const TimelineEvent& e : m.timeline)
      if (e.kind == TimelineEvent::Kind::Op && e.id == op) return e;
    qFatal("op %d has no event", op);
  }
};

void wheel(QWidget& w, QPointF pos, int delta, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QWheelEvent e(pos, w.mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(&w, &e);
}

bool sameImage(const QImage& a, const QImage& b) {
  return a.convertToFormat(QImage::Format_RGB32) == b.convertToFormat(QImage::Format_RGB32);
}

// Pixels of c's hue (any shade of it: full, dimmed, merged sparse columns); greys don't count.
int countHue(const QImage& img, QColor c) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor p = img.pixelColor(x, y);
      const int dh = std::abs(p.hsvHue() - c.hsvHue());
      n += p.hsvSaturation() > 40 && std::min(dh, 360 - dh) <= 6;
    }
  return n;
}

}  // namespace

class TimelineViewTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { qRegisterMetaType<std::vector<gp::OpId>>(); }

  void rowsAreDevicesThenUsedChannels() {
    Small s;
    QVERIFY(s.m.feasible);
    TimelineView v;
    v.resize(900, 260);
    v.setData(s.g, s.c, s.m);
    QCOMPARE(v.rowCount(), 6);
    QStringList names;
    for (int r = 0; r < v.rowCount(); ++r) names << v.rowName(r);
    QCOMPARE(names, (QStringList{"gpu0", "gpu1", "gpu2", "gpu3", "gpu0->plx0", "plx0->gpu1"}));
    QCOMPARE(v.rowName(6), QString());
    // 4 kernels (relu + scale fused into one) + the transfer on each of its 2 channels
    QCOMPARE(v.barCount(), size_t{6});
    v.clear();
    QCOMPARE(v.rowCount(), 0);
    QCOMPARE(v.barCount(), size_t{0});
  }

  // The same plan on 1,024 GPUs (two servers of them used): rows for the two GPUs and the
  // channels between them, the 1,022 idle GPUs counted, not listed; hit-testing follows.
  void idleDevicesOfALargeClusterGetNoRow() {
    Small s;
    s.c = loadCluster("128x8xH100-IB");
    CostModel cost(*s.g, s.c);
    Simulator sim(cost);
    s.m = sim.run(Plan{{0, 0, 0, 9, 9}, {}, {-1, 0, 0, -1, -1}});
    QVERIFY(s.m.feasible);
    TimelineView v;
    v.resize(900, 260);
    v.setData(s.g, s.c, s.m);
    QCOMPARE(v.hiddenDevices(), 1022);
    QCOMPARE(v.rowName(0), QString("node0/gpu0"));
    QCOMPARE(v.rowName(1), QString("node1/gpu1"));
    QVERIFY(v.rowCount() > 2);  // the route's channels follow
    for (int r = 2; r < v.rowCount(); ++r) QVERIFY2(v.rowName(r).contains("->"), qPrintable(v.rowName(r)));
    QCOMPARE(v.barCount(), size_t{4} + static_cast<size_t>(v.rowCount() - 2));  // 4 kernels, the transfer per channel
  }

  void criticalPathOutlinesATransferOnEveryChannelOfItsRoute() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const QImage plain = v.grab().toImage().convertToFormat(QImage::Format_RGB32);
    PathStep transfer;
    transfer.kind = PathStep::Kind::Transfer;
    for (const TimelineEvent& e : s.m.timeline)
      if (e.kind == TimelineEvent::Kind::Transfer) transfer.id = e.id, transfer.device = 0, transfer.dst = e.dst;
    QCOMPARE(transfer.dst, 1);
    v.setCriticalPath({transfer});
    QCOMPARE(v.criticalPathBars(), size_t{1});
    const QImage outlined = v.grab().toImage().convertToFormat(QImage::Format_RGB32);
    // the changed pixel rows form two bands: gpu0->plx0 and plx0->gpu1
    std::vector<int> ys;
    for (int y = 0; y < plain.height(); ++y)
      for (int x = 0; x < plain.width(); ++x)
        if (plain.pixel(x, y) != outlined.pixel(x, y)) {
          ys.push_back(y);
          break;
        }
    QVERIFY(!ys.empty());
    int bands = 1;
    for (size_t i = 1; i < ys.size(); ++i) bands += ys[i] > ys[i - 1] + 1;
    QCOMPARE(bands, 2);
    saveShot(v, "timeline_path_transfer.png");
  }

  void barsSitWhereTheOpsRanInDeviceColours() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const QRectF a = v.opBarRect(s.matmul0), b = v.opBarRect(s.matmul1);
    QVERIFY(a.width() > 20 && b.width() > 20);
    QVERIFY(b.top() > a.top());  // gpu1 row below gpu0
    const TimelineEvent &ea = s.event(s.matmul0), &eb = s.event(s.matmul1);
    QVERIFY(eb.start >= ea.end);
    // Pixel widths and positions proportional to the simulated times.
    QVERIFY(qAbs(a.width() / b.width() - (ea.end - ea.start) / (eb.end - eb.start)) < 0.05);
    const double pps = a.width() / (ea.end - ea.start);
    QVERIFY(qAbs((b.left() - a.left()) - (eb.start - ea.start) * pps) < 1.5);
    const QImage img = v.grab().toImage();
    QCOMPARE(img.pixelColor(QPoint(int(a.center().x()), int(a.top() + 5))), deviceColor(0));
    QCOMPARE(img.pixelColor(QPoint(int(b.center().x()), int(b.top() + 5))), deviceColor(1));
    saveShot(v, "timeline_small.png");
  }

  void clickSelectsAndShiftClickToggles() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QSignalSpy spy(&v, &TimelineView::selectionChanged);
    QTest::mouseClick(&v, Qt::LeftButton, Qt::NoModifier, v.opBarRect(s.matmul1).center().toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).value<std::vector<OpId>>(), std::vector<OpId>{s.matmul1});
    // The fused bar selects its whole group.
    QCOMPARE(v.opBarRect(s.relu), v.opBarRect(s.scale));
    QTest::mouseClick(&v, Qt::LeftButton, Qt::ShiftModifier, v.opBarRect(s.relu).center().toPoint());
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.last().at(0).value<std::vector<OpId>>(), (std::vector<OpId>{s.relu, s.scale, s.matmul1}));
    QTest::mouseClick(&v, Qt::LeftButton, Qt::ControlModifier, v.opBarRect(s.matmul1).center().toPoint());
    QCOMPARE(spy.last().at(0).value<std::vector<OpId>>(), (std::vector<OpId>{s.relu, s.scale}));
    // Empty space (gpu3 is idle) clears.
    const QRectF r = v.opBarRect(s.matmul1);
    QTest::mouseClick(&v, Qt::LeftButton, Qt::NoModifier, QPoint(int(r.center().x()), int(r.center().y() + 2 * 26)));
    QCOMPARE(spy.count(), 4);
    QVERIFY(spy.last().at(0).value<std::vector<OpId>>().empty());
    QVERIFY(v.selectedOps().empty());
  }

  void tooltipNamesTheOp() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const QPoint pos = v.opBarRect(s.matmul1).center().toPoint();
    QHelpEvent e(QEvent::ToolTip, pos, v.mapToGlobal(pos));
    QApplication::sendEvent(&v, &e);
    const QString text = QToolTip::text();
    QVERIFY2(text.contains("dec/matmul") && text.contains("MatMul") && text.contains("gpu1"), qPrintable(text));
    // The fused kernel lists its group; a transfer names tensor, bytes and route ends.
    const QPoint fused = v.opBarRect(s.relu).center().toPoint();
    QHelpEvent e2(QEvent::ToolTip, fused, v.mapToGlobal(fused));
    QApplication::sendEvent(&v, &e2);
    QVERIFY2(QToolTip::text().contains("enc/relu") && QToolTip::text().contains("enc/scale"),
             qPrintable(QToolTip::text()));
    const TimelineEvent* xfer = nullptr;
    for (const TimelineEvent& ev : s.m.timeline)
      if (ev.kind == TimelineEvent::Kind::Transfer) xfer = &ev;
    QVERIFY(xfer);
    const QRectF a = v.opBarRect(s.matmul0), b = v.opBarRect(s.matmul1);  // fit: x is linear in time
    const double pps = b.width() / (s.event(s.matmul1).end - s.event(s.matmul1).start);
    const QPoint onXfer(int(a.left() + ((xfer->start + xfer->end) / 2 - s.event(s.matmul0).start) * pps),
                        int(a.top() + 4 * 26 + 10 + 20 / 2));  // 4 device rows, a gap, middle of gpu0->plx0
    QHelpEvent e3(QEvent::ToolTip, onXfer, v.mapToGlobal(onXfer));
    QApplication::sendEvent(&v, &e3);
    QVERIFY2(QToolTip::text().contains("enc/y") && QToolTip::text().contains("gpu0") &&
                 QToolTip::text().contains("gpu1") && QToolTip::text().contains("MB"),
             qPrintable(QToolTip::text()));
  }

  void rowsScrollWhenTheyOverflow() {
    Small s;
    TimelineView v;
    v.resize(800, 150);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const double top = v.opBarRect(s.matmul1).top();
    const QRectF range = v.visibleTimeRange();
    wheel(v, QPointF(20, 100), -120);  // over the row labels: scrolls rows, keeps the time window
    QVERIFY(v.opBarRect(s.matmul1).top() < top - 10);
    QCOMPARE(v.visibleTimeRange(), range);
    wheel(v, QPointF(20, 100), 10 * 120);
    QCOMPARE(v.opBarRect(s.matmul1).top(), top);
    saveShot(v, "timeline_small_scrolled.png");
  }

  void wheelZoomsAroundTheCursorAndFitRestores() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const QRectF fit = v.visibleTimeRange();
    QCOMPARE(fit.left(), 0.0);
    QVERIFY(fit.right() >= s.m.stepTime && fit.right() <= 1.05 * s.m.stepTime);
    // Anchor: the middle of dec/matmul's bar stays under the cursor.
    const QRectF bar = v.opBarRect(s.matmul1);
    const QPointF at = bar.center();
    const double tAt = (s.event(s.matmul1).start + s.event(s.matmul1).end) / 2;
    wheel(v, at, 3 * 120);
    const QRectF zoomed = v.visibleTimeRange();
    QVERIFY2(zoomed.width() < 0.52 * fit.width() && zoomed.width() > 0.5 * fit.width(),
             qPrintable(QString::number(zoomed.width() / fit.width())));
    const double expectLeft = at.x() - (at.x() - bar.left()) * fit.width() / zoomed.width();
    QVERIFY2(qAbs(v.opBarRect(s.matmul1).left() - expectLeft) < 1.5, qPrintable(QString::number(expectLeft)));
    QVERIFY(zoomed.left() < tAt && zoomed.right() > tAt);
    // Shift+wheel pans without zooming.
    wheel(v, at, -120, Qt::ShiftModifier);
    QVERIFY(qAbs(v.visibleTimeRange().width() - zoomed.width()) < 1e-12);
    QVERIFY(v.visibleTimeRange().left() > zoomed.left());
    // Dragging pans by the dragged distance and selects nothing.
    QSignalSpy spy(&v, &TimelineView::selectionChanged);
    const QRectF before = v.visibleTimeRange();
    QTest::mousePress(&v, Qt::LeftButton, Qt::NoModifier, at.toPoint());
    QMouseEvent move(QEvent::MouseMove, at + QPointF(100, 0), v.mapToGlobal(at + QPointF(100, 0)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&v, &move);
    QTest::mouseRelease(&v, Qt::LeftButton, Qt::NoModifier, (at + QPointF(100, 0)).toPoint());
    QCOMPARE(spy.count(), 0);
    const double ppsFit = bar.width() / (s.event(s.matmul1).end - s.event(s.matmul1).start);
    const double pps = ppsFit * fit.width() / before.width();
    QVERIFY(qAbs((before.left() - v.visibleTimeRange().left()) * pps - 100) < 1.5);
    // Zooming far out stops at the fit; double-click and F restore it.
    for (int i = 0; i < 20; ++i) wheel(v, at, -120);
    QCOMPARE(v.visibleTimeRange(), fit);
    wheel(v, at, 5 * 120);
    QTest::mouseDClick(&v, Qt::LeftButton, Qt::NoModifier, QPoint(v.width() - 5, v.height() - 5));
    QCOMPARE(v.visibleTimeRange(), fit);
    wheel(v, at, 5 * 120);
    QTest::keyClick(&v, Qt::Key_F);
    QCOMPARE(v.visibleTimeRange(), fit);
  }

  void selectionChangesPixelsWithoutSignal() {
    Small s;
    TimelineView v;
    v.resize(1000, 260);
    v.setData(s.g, s.c, s.m);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QSignalSpy spy(&v, &TimelineView::selectionChanged);
    const QImage before = v.grab().toImage();
    v.setSelectedOps({s.matmul1});
    const QImage after = v.grab().toImage();
    QCOMPARE(spy.count(), 0);
    QVERIFY(!sameImage(before, after));
    // The selected bar keeps its colour, the others are dimmed.
    const QRectF a = v.opBarRect(s.matmul0), b = v.opBarRect(s.matmul1);
    QCOMPARE(after.pixelColor(QPoint(int(b.center().x()), int(b.top() + 5))), deviceColor(1));
    QVERIFY(after.pixelColor(QPoint(int(a.center().x()), int(a.top() + 5))) != deviceColor(0));
    saveShot(v, "timeline_small_selected.png");
    v.setSelectedOps({});
    QVERIFY(sameImage(before, v.grab().toImage()));
  }

  void gnmtTrainingStepPaints() {
    auto g = std::make_shared<const Graph>(loadModel("zoo:gnmt"));
    QVERIFY(g->numOps() > 50000);
    Cluster c = loadCluster("4xP100-PCIe");
    CostModel cost(*g, c);
    Simulator sim(cost);
    PlacementResult r = runPlacement("m_topo", cost, sim);
    QVERIFY(!r.measurement.timeline.empty());
    TimelineView v;
    v.resize(1600, 320);
    QElapsedTimer timer;
    timer.start();
    v.setData(g, c, r.measurement);
    qInfo("setData of %zu events: %lld ms", r.measurement.timeline.size(), static_cast<long long>(timer.elapsed()));
    QVERIFY(v.barCount() > 50000);
    QCOMPARE(v.rowName(3), QString("gpu3"));
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    saveShot(v, "timeline_gnmt.png");
    QImage img = v.grab().toImage();
    for (int d = 0; d < 4; ++d) QVERIFY2(countHue(img, deviceColor(d)) > 500, qPrintable(QString::number(d)));
    // A few kernels from the middle of the step (wherever the plan puts them).
    const double step = r.measurement.stepTime;
    std::vector<OpId> pick;
    double t0 = 0;
    for (const TimelineEvent& e : r.measurement.timeline)
      if (e.kind == TimelineEvent::Kind::Op && e.start >= 0.5 * step && e.end - e.start > 1e-5 * step &&
          (pick.empty() || e.end < t0 + 0.006 * step) && pick.size() < 4) {
        if (pick.empty()) t0 = e.start;
        pick.push_back(e.id);
      }
    // Zoomed in to 1% of the step around them: bars get wide enough for names.
    v.setVisibleTimeRange(t0 - 0.002 * step, t0 + 0.008 * step);
    QVERIFY(qAbs(v.visibleTimeRange().width() - 0.01 * step) < 1e-9 * step);
    const QImage zoomed = v.grab().toImage();
    QVERIFY(!sameImage(img, zoomed));
    saveShot(v, "timeline_gnmt_zoomed.png");
    // A selection inside the window: outlined, everything else dimmed.
    QVERIFY(!pick.empty());
    v.setSelectedOps(pick);
    QVERIFY(!sameImage(zoomed, v.grab().toImage()));
    saveShot(v, "timeline_gnmt_selected.png");
    v.setSelectedOps({});
    v.setVisibleTimeRange(t0, t0 + 0.0005 * step);
    saveShot(v, "timeline_gnmt_zoomed_more.png");
    // Export of the whole timeline.
    QImage out(1800, v.contentHeight(), QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::transparent);
    {
      QPainter p(&out);
      v.renderTo(&p, QRectF(0, 0, out.width(), out.height()));
    }
    for (int d = 0; d < 4; ++d) QVERIFY(countHue(out, deviceColor(d)) > 500);
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(out.save(QString::fromUtf8(dir) + "/timeline_gnmt_export.png"));
    // SVG: level of detail keeps the file small (pixel runs, not 100k+ rectangles).
    QBuffer svg;
    QSvgGenerator gen;
    gen.setOutputDevice(&svg);
    gen.setSize(QSize(1800, v.contentHeight()));
    gen.setViewBox(QRect(0, 0, 1800, v.contentHeight()));
    {
      QPainter p(&gen);
      v.renderTo(&p, QRectF(0, 0, 1800, v.contentHeight()));
    }
    QVERIFY(svg.data().contains("<svg"));
    QVERIFY2(svg.data().size() < 8'000'000, qPrintable(QString::number(svg.data().size())));
  }
};

QTEST_MAIN(TimelineViewTest)
#include "timeline_view_test.moc"
