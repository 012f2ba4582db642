// Qt Test: the graph view used as a person would: it opens collapsed by scope, double-click
// expands a group, clicks / keys / search select and assign ops, colours follow the plan, and the
// fully expanded GNMT training graph lays out.
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <QComboBox>
#include <QLineEdit>
#include <QPainter>
#include <regex>

#include "device_colors.h"
#include "graph/graph_builder.h"
#include "graph/graph_search_bar.h"
#include "graph/graph_view.h"
#include "io/model_loader.h"

using namespace gp;

namespace {

// enc/l0/{a,b,c} -> enc/l1/{a,b} -> dec/{x,y} -> out, plus a side branch enc/l0/c -> dec/y
std::shared_ptr<const Graph> smallGraph() {
  GraphBuilder b("t");
  TensorId t = b.addGraphInput({"x", {4}});
  const char* names[] = {"enc/l0/a", "enc/l0/b", "enc/l0/c", "enc/l1/a", "enc/l1/b", "dec/x", "dec/y", "out"};
  const char* types[] = {"MatMul", "Add", "Relu", "MatMul", "Add", "MatMul", "Softmax", "Identity"};
  TensorId side = kNone;
  for (int i = 0; i < 8; ++i) {
    std::vector<TensorId> in{t};
    if (i == 6) in.push_back(side);
    OpId op = b.addOp({.name = names[i], .type = types[i], .inputs = in, .outputs = {{"", {4}}}, .flops = 1e6});
    t = b.output(op);
    if (i == 2) side = t;
  }
  return std::make_shared<const Graph>(std::move(b).build("t"));
}

ScopeId scopeNamed(const Graph& g, const std::string& name) {
  for (ScopeId s = 0; s < g.numScopes(); ++s)
    if (g.scopeName(s) == name) return s;
  return kNone;
}

bool waitForLayout(GraphView& v, int ms = 20000) {
  QElapsedTimer t;
  t.start();
  while ((v.isLayoutRunning() || v.visibleNodeCount() == 0) && t.elapsed() < ms) QTest::qWait(5);
  return !v.isLayoutRunning();
}

bool waitForOverview(GraphView& v, int ms = 20000) {
  QElapsedTimer t;
  t.start();
  while (!v.overviewReady() && t.elapsed() < ms) QTest::qWait(5);
  return v.overviewReady();
}

// Pixels of `img` inside `r` equal to `c`.
int countColor(const QImage& img, const QRectF& r, QColor c) {
  int n = 0;
  const QRect box = r.toAlignedRect().intersected(img.rect());
  for (int y = box.top(); y <= box.bottom(); ++y)
    for (int x = box.left(); x <= box.right(); ++x) n += img.pixelColor(x, y).rgb() == c.rgb();
  return n;
}

void screenshot(QWidget& w, const char* name) {
  if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/" + name));
}

std::vector<OpId> opsMatching(const Graph& g, const std::string& pattern) {
  std::regex re(pattern, std::regex::icase);
  std::vector<OpId> out;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (std::regex_search(g.opName(op), re)) out.push_back(op);
  return out;
}

}  // namespace

class GraphViewTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void startsCollapsedAndDoubleClickExpands() {
    auto g = smallGraph();
    GraphView view;
    view.resize(700, 500);
    view.show();
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.setGraph(g);
    QVERIFY(view.isLayoutRunning());
    QVERIFY(finished.wait(10000));
    QCOMPARE(view.visibleNodeCount(), 3);  // enc, dec, out
    const ScopeId enc = scopeNamed(*g, "enc");
    QVERIFY(!view.isExpanded(enc));
    const QRectF box = view.scopeRect(enc);
    QVERIFY(view.rect().contains(box.toRect()));
    QTest::mouseDClick(&view, Qt::LeftButton, {}, box.center().toPoint());
    QVERIFY(view.isExpanded(enc));
    QVERIFY(finished.wait(10000));
    QCOMPARE(view.visibleNodeCount(), 4);  // enc/l0, enc/l1, dec, out
    // and back: double-click the frame of the open group (its title strip) collapses it
    view.collapseScope(enc);
    QVERIFY(finished.wait(10000));
    QCOMPARE(view.visibleNodeCount(), 3);
    view.expandAll();
    QVERIFY(finished.wait(10000));
    QCOMPARE(view.visibleNodeCount(), 8);
  }

  void clickSelectsGroupAndOps() {
    auto g = smallGraph();
    GraphView view;
    view.resize(700, 500);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    QSignalSpy changed(&view, &GraphView::selectionChanged);
    const ScopeId dec = scopeNamed(*g, "dec");
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.scopeRect(dec).center().toPoint());
    QCOMPARE(view.selectedOps(), (std::vector<OpId>{g->findOp("dec/x"), g->findOp("dec/y")}));
    QCOMPARE(changed.count(), 1);
    // shift-click adds "out", shift-click again removes it
    const QPoint out = view.opRect(g->findOp("out")).center().toPoint();
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, out);
    QCOMPARE(view.selectedOps().size(), size_t{3});
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ControlModifier, out);
    QCOMPARE(view.selectedOps().size(), size_t{2});
    QTest::keyClick(&view, Qt::Key_Escape);
    QVERIFY(view.selectedOps().empty());
    QCOMPARE(changed.count(), 4);
    // from another view: no signal
    view.setSelectedOps({g->findOp("out"), g->findOp("out")});
    QCOMPARE(view.selectedOps(), (std::vector<OpId>{g->findOp("out")}));
    QCOMPARE(changed.count(), 4);
  }

  void rubberBandAndPan() {
    auto g = smallGraph();
    GraphView view;
    view.resize(700, 500);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    view.expandAll();
    QVERIFY(waitForLayout(view));
    QTest::qWait(20);
    // shift+drag around everything selects all ops
    QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(2, 2));
    QTest::mouseMove(&view, QPoint(300, 300));
    QTest::mouseMove(&view, QPoint(view.width() - 2, view.height() - 2));
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(view.width() - 2, view.height() - 2));
    QCOMPARE(static_cast<int>(view.selectedOps().size()), g->numOps());
    // plain drag on empty space pans
    const QRectF before = view.opRect(0);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(3, 3));
    QTest::mouseMove(&view, QPoint(40, 60));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(40, 60));
    QCOMPARE(view.opRect(0).topLeft(), before.topLeft() + QPointF(37, 57));
    // wheel zooms around the cursor: the point under it stays put
    const double z = view.zoom();
    const QPointF c = view.opRect(0).center();
    QWheelEvent wheel(c, view.mapToGlobal(c), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QVERIFY(view.zoom() > z * 1.1);
    QVERIFY((view.opRect(0).center() - c).manhattanLength() < 1);
  }

  void keysAssignToDevice() {
    auto g = smallGraph();
    GraphView view;
    view.resize(700, 500);
    view.show();
    view.setGraph(g);
    view.setDevices({"gpu0", "gpu1", "gpu2"});
    QVERIFY(waitForLayout(view));
    QSignalSpy assign(&view, &GraphView::assignRequested);
    QTest::keyClick(&view, Qt::Key_2);  // nothing selected: nothing to assign
    QCOMPARE(assign.count(), 0);
    view.setSelectedOps({g->findOp("dec/x")});
    QTest::keyClick(&view, Qt::Key_2);
    QCOMPARE(assign.count(), 1);
    QCOMPARE(assign[0][0].value<std::vector<OpId>>(), (std::vector<OpId>{g->findOp("dec/x")}));
    QCOMPARE(assign[0][1].toInt(), 1);
    QTest::keyClick(&view, Qt::Key_5);  // no fifth device
    QCOMPARE(assign.count(), 1);
  }

  void planColoursThePixels() {
    auto g = smallGraph();
    GraphView view;
    view.resize(800, 600);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    view.expandAll();
    QVERIFY(waitForLayout(view));
    view.setDevices({"gpu0", "gpu1", "gpu2"});
    Plan plan = Plan::singleDevice(g->numOps(), 0);
    view.setPlan(plan);
    const OpId x = g->findOp("dec/x");
    QImage img = view.grab().toImage();
    const QRectF box = view.opRect(x);
    QVERIFY(box.width() > 10);
    QVERIFY(countColor(img, box, deviceColor(0)) > 20);
    QCOMPARE(countColor(img, box, deviceColor(2)), 0);
    plan.device[x] = 2;
    view.setPlan(plan);
    img = view.grab().toImage();
    QVERIFY(countColor(img, box, deviceColor(2)) > 20);
    QCOMPARE(countColor(img, box, deviceColor(0)), 0);
    // fusion-group mode: no groups -> neutral grey, the device colour is gone
    view.setColorMode(GraphView::ColorMode::FusionGroup);
    img = view.grab().toImage();
    QCOMPARE(countColor(img, box, deviceColor(2)), 0);
    view.setColorMode(GraphView::ColorMode::Device);
    screenshot(view, "graph_view_small_expanded.png");
  }

  void collapsedGroupShowsDeviceShares() {
    auto g = smallGraph();
    GraphView view;
    view.resize(800, 600);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    view.setDevices({"gpu0", "gpu1"});
    Plan plan = Plan::singleDevice(g->numOps(), 0);
    plan.device[g->findOp("dec/y")] = 1;  // dec: half on gpu0, half on gpu1
    view.setPlan(plan);
    const QImage img = view.grab().toImage();
    const QRectF dec = view.scopeRect(scopeNamed(*g, "dec"));
    const int a = countColor(img, dec, deviceColor(0)), b = countColor(img, dec, deviceColor(1));
    QVERIFY(a > 10);
    QVERIFY(b > 10);
    QVERIFY(std::abs(a - b) < (a + b) / 5);  // about half each
    QCOMPARE(countColor(img, view.scopeRect(scopeNamed(*g, "enc")), deviceColor(1)), 0);
    screenshot(view, "graph_view_small_collapsed.png");
  }

  void searchSelectsMatches() {
    auto g = smallGraph();
    GraphView view;
    view.resize(700, 500);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    QSignalSpy changed(&view, &GraphView::selectionChanged);
    QCOMPARE(view.search("enc/l0/.*", GraphView::SearchKind::Regex), 3);
    QCOMPARE(view.selectedOps(), opsMatching(*g, "enc/l0/.*"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(view.search("matmul", GraphView::SearchKind::OpType), 3);
    QCOMPARE(view.search("L1/", GraphView::SearchKind::Name), 2);
    QCOMPARE(view.search("([", GraphView::SearchKind::Regex), 0);  // invalid: no matches
    // the search bar: "1 of 3", next -> "2 of 3"
    GraphSearchBar bar(&view);
    bar.kindCombo()->setCurrentIndex(2);
    bar.lineEdit()->setText("MatMul");
    bar.runSearch();
    QCOMPARE(bar.statusText(), QString("1 of 3"));
    view.nextMatch();
    QCOMPARE(bar.statusText(), QString("2 of 3"));
    view.previousMatch();
    view.previousMatch();
    QCOMPARE(bar.statusText(), QString("3 of 3"));
  }

  void resnet50() {
    auto g = std::make_shared<const Graph>(loadModel("zoo:resnet50"));
    GraphView view;
    view.resize(1200, 800);
    view.show();
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.setGraph(g);
    QVERIFY(finished.wait(20000));
    const int collapsed = view.visibleNodeCount();
    QVERIFY(collapsed > 1);
    QVERIFY(collapsed < 40);
    // double-click the biggest group on screen
    ScopeId biggest = kNone;
    int most = 0;
    for (ScopeId s = 1; s < g->numScopes(); ++s) {
      const QRectF r = view.scopeRect(s);
      if (r.isEmpty() || !view.rect().contains(r.center().toPoint())) continue;
      int n = 0;
      for (OpId op = 0; op < g->numOps(); ++op)
        for (ScopeId a = g->opScope(op); a != kNone; a = g->scopeParent(a)) n += a == s;
      if (n > most) most = n, biggest = s;
    }
    QVERIFY(biggest != kNone);
    QTest::mouseDClick(&view, Qt::LeftButton, {}, view.scopeRect(biggest).center().toPoint());
    QVERIFY(finished.wait(20000));
    QVERIFY(view.visibleNodeCount() > collapsed);
    // regex search selects exactly the ops whose names match
    const int n = view.search("/(conv[^/]*|relu)$", GraphView::SearchKind::Regex);
    QCOMPARE(view.selectedOps(), opsMatching(*g, "/(conv[^/]*|relu)$"));
    QVERIFY(n > 10);
    view.setDevices({"gpu0", "gpu1", "gpu2", "gpu3"});
    Plan plan = Plan::singleDevice(g->numOps(), 0);
    for (OpId op = 0; op < g->numOps(); ++op) plan.device[op] = op * 4 / g->numOps();
    view.setPlan(plan);
    view.setSelectedOps({});
    view.zoomToFit();
    screenshot(view, "graph_view_resnet50.png");
  }

  void gnmtExpandAll() {
    auto g = std::make_shared<const Graph>(loadModel("zoo:gnmt"));
    QCOMPARE(g->numOps(), 63799);
    GraphView view;
    view.resize(1400, 900);
    view.show();
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.setGraph(g);
    QVERIFY(finished.wait(30000));
    QVERIFY(view.visibleNodeCount() < 50);
    view.setDevices({"gpu0", "gpu1", "gpu2", "gpu3"});
    Plan plan = Plan::singleDevice(g->numOps(), 0);
    for (OpId op = 0; op < g->numOps(); ++op) plan.device[op] = g->opScope(op) % 4;
    view.setPlan(plan);
    screenshot(view, "graph_view_gnmt_collapsed.png");
    QElapsedTimer t;
    t.start();
    view.expandAll();
    QVERIFY(finished.wait(60000));
    qInfo("gnmt: expand all laid out in %lld ms", static_cast<long long>(t.elapsed()));
    QCOMPARE(view.visibleNodeCount(), 63799);
    QVERIFY(waitForOverview(view));
    view.zoomToFit();
    screenshot(view, "graph_view_gnmt_fit.png");
    // zoomed in on a search match: readable boxes
    QVERIFY(view.search("step_3/", GraphView::SearchKind::Name) > 0);
    view.setViewport(QPointF(0, 0), 0.9);
    view.nextMatch();
    view.previousMatch();
    QVERIFY(view.rect().contains(view.opRect(view.selectedOps()[0]).center().toPoint()));
    view.setSelectedOps({});
    screenshot(view, "graph_view_gnmt_zoomed.png");
    view.setViewport(QPointF(0, 0), 0.3);
    view.centerOnOp(20000);
    screenshot(view, "graph_view_gnmt_near.png");
    view.setViewport(QPointF(0, 0), 0.06);
    view.centerOnOp(20000);
    screenshot(view, "graph_view_gnmt_mid.png");
    view.setViewport(QPointF(0, 0), 0.01);
    view.centerOnOp(20000);
    screenshot(view, "graph_view_gnmt_far.png");
  }
};

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
