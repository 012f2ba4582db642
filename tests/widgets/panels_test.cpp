// Qt Test: the cluster panel (presets, memory bars red over capacity, figures), the device
// legend (drop of op ids on a device row) and the history (Δ column, moved ops, compare, restore).
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeView>
#include <QTest>
#include <QtWidgets/QPushButton>

#include "cluster/cluster.h"
#include "device_colors.h"
#include "panels/cluster_panel.h"
#include "panels/device_legend.h"
#include "panels/device_tree_view.h"
#include "panels/history_model.h"
#include "panels/history_panel.h"
#include "panels/memory_bar.h"

using namespace gp;

namespace {

constexpr int64_t kGiB = 1LL << 30;

// "15.0": GiB with one decimal, as the memory bars print them
QString gib(int64_t bytes) { return QString::number(static_cast<double>(bytes) / kGiB, 'f', 1); }

void saveShot(QWidget& w, const char* name) {
  QCoreApplication::processEvents();  // let delayed layouts (header sections) settle
  if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/" + name));
}

// How many pixels of `img` are exactly `c`.
int countColor(const QImage& img, const QColor& c) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += img.pixelColor(x, y) == c;
  return n;
}

// What the cluster panel drew for a device's memory: its bar, cut from the tree's viewport.
QImage memoryBarImage(ClusterPanel& panel, int device) {
  QTreeView* view = panel.deviceTree()->view();
  const QRect cell = view->visualRect(panel.deviceTree()->viewIndexOfDevice(device, DeviceTreeModel::Memory));
  return view->viewport()->grab(cell.adjusted(2, 1, -2, -1)).toImage();
}

QStringList presetList() {
  QStringList out;
  for (const std::string& n : clusterPresetNames()) out << QString::fromStdString(n);
  return out;
}

HistoryEntry makeEntry(const QString& label, double stepMs, std::vector<int32_t> devices, bool feasible = true) {
  HistoryEntry e;
  e.label = label;
  e.kind = HistoryKind::Baseline;
  e.plan.device = std::move(devices);
  e.stepTime = stepMs / 1e3;
  e.lowerBound = 0.080;
  e.feasible = feasible;
  if (!feasible) e.problem = QStringLiteral("gpu1 needs 18.20 GB, 1.02 GB over its 17.18 GB");
  e.when = QDateTime(QDate(2024, 5, 1), QTime(14, 3, 12));
  return e;
}

}  // namespace

class PanelsTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  void clusterPanelShowsMeasurement() {
    const QStringList presets = presetList();
    QVERIFY2(presets.contains("4xP100-PCIe"), "cluster presets not found: set GP_RESOURCE_DIR");
    const Cluster c = loadCluster("4xP100-PCIe");
    ClusterPanel panel;
    panel.resize(460, 420);
    panel.setPresets(presets);
    panel.setCluster(c, "4xP100-PCIe");
    QCOMPARE(panel.presetCombo()->currentText(), QString("4xP100-PCIe"));
    QCOMPARE(panel.deviceCount(), 4);
    // the memory a model may use: 16 GiB less what TensorFlow 1.x keeps
    QVERIFY(c.device(0).memCapacity < 16 * kGiB);
    bool frameworkShown = false;  // the framework the step is simulated under, and its per-op time
    for (const QLabel* l : panel.findChildren<QLabel*>()) frameworkShown |= l->text().contains("tf1-graph · 20 µs per op");
    QVERIFY(frameworkShown);
    QCOMPARE(panel.memoryText(0), QString("– / %1 GiB").arg(gib(c.device(0).memCapacity)));
    // Utilization and busy time appear once measured.
    QVERIFY(panel.deviceTree()->view()->isColumnHidden(DeviceTreeModel::Utilization));

    Measurement m;
    m.stepTime = 0.1234;
    m.lowerBound = 0.1;
    m.feasible = false;
    m.problem = "gpu1 needs 19.33 GB, 2.15 GB over its 17.18 GB";
    m.commBytes = 3 * kGiB / 2;
    const double util[] = {0.87, 0.95, 0.42, 0.05};
    const int64_t peak[] = {11 * kGiB + kGiB / 5, 18 * kGiB, 8 * kGiB, kGiB / 2};
    for (int d = 0; d < 4; ++d)
      m.devices.push_back(
          {.busy = util[d] * m.stepTime, .utilization = util[d], .peakMemory = peak[d], .capacity = 16 * kGiB});
    panel.setMeasurement(m);
    QVERIFY(!panel.deviceTree()->view()->isColumnHidden(DeviceTreeModel::Utilization));
    QVERIFY(!panel.deviceTree()->view()->isColumnHidden(DeviceTreeModel::Busy));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    QCOMPARE(panel.memoryText(0), QString("11.2 / 16.0 GiB"));
    QCOMPARE(panel.memoryText(1), QString("18.0 / 16.0 GiB"));
    QVERIFY(!panel.overCapacity(0));
    QVERIFY(panel.overCapacity(1));
    QCOMPARE(panel.utilizationText(0), QString("87 %"));
    QCOMPARE(panel.busyText(1), QString("117.2 ms"));
    QCOMPARE(panel.busyText(3), QString("6.2 ms"));  // the busy column shares the step time's precision
    QVERIFY(panel.summaryText().contains("123.4 ms"));
    QVERIFY(panel.summaryText().contains("1.23 × the lower bound"));
    QVERIFY(panel.summaryText().contains("2.15 GB over"));

    saveShot(panel, "cluster_panel.png");
    // Pixels: the over-capacity bar is red, the others are in their device colour and never red.
    const QImage over = memoryBarImage(panel, 1);
    const QImage ok = memoryBarImage(panel, 0);
    const QImage okQuarter = memoryBarImage(panel, 2);
    QVERIFY2(countColor(over, MemoryBar::overColor()) > over.width() * over.height() / 4, "over-capacity bar not red");
    QCOMPARE(countColor(ok, MemoryBar::overColor()), 0);
    QVERIFY(countColor(ok, deviceColor(0)) > ok.width() * ok.height() / 4);
    // Half full (8 of 16 GiB): about half the bar's width in the device colour on the middle row.
    int filled = 0;
    for (int x = 0; x < okQuarter.width(); ++x) filled += okQuarter.pixelColor(x, 3) == deviceColor(2);
    QVERIFY2(std::abs(filled - okQuarter.width() / 2) <= 3,
             qPrintable(QString("%1 of %2").arg(filled).arg(okQuarter.width())));

    panel.clearMeasurement();
    QCOMPARE(panel.utilizationText(0), QString("–"));
    QVERIFY(!panel.overCapacity(1));
  }

  void clusterPanelSixteenDevices() {
    const Cluster c = loadCluster("2x8xH100-IB");
    ClusterPanel panel;
    panel.resize(420, 560);
    panel.setPresets(presetList());
    panel.setCluster(c, "2x8xH100-IB");
    QCOMPARE(panel.deviceCount(), 16);
    Measurement m;
    m.stepTime = 0.0123;
    m.lowerBound = 0.0081;
    m.commBytes = 40LL << 30;
    for (int d = 0; d < 16; ++d)
      m.devices.push_back({.busy = 0.0123 * (0.3 + 0.04 * d),
                           .utilization = 0.3 + 0.04 * d,
                           .peakMemory = (5LL + 4 * d) << 30,
                           .capacity = c.device(d).memCapacity});
    panel.setMeasurement(m);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // 80 GiB less PyTorch's share
    QCOMPARE(panel.memoryText(15), QString("65.0 / %1 GiB").arg(gib(c.device(15).memCapacity)));
    QCOMPARE(panel.busyText(15), QString("11.07 ms"));
    QVERIFY(panel.summaryText().contains("1.52 × the lower bound"));
    QVERIFY(panel.summaryText().contains("Feasible"));
    saveShot(panel, "cluster_panel_16.png");
  }

  void clusterPanelMixedKinds() {
    // 4xP100-PCIe with gpu3 swapped for a 32 GB V100: the kind column appears.
    QFile f(QString::fromStdString(clusterResourceDir()) + "/4xP100-PCIe.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString json = QString::fromUtf8(f.readAll());
    json.replace(R"({"name": "gpu3", "kind": "P100-PCIe-16GB"})", R"({"name": "gpu3", "kind": "V100-PCIe-32GB"})");
    json.replace(R"("device_kinds": {)",
                 R"("device_kinds": {"V100-PCIe-32GB": {"peak_TFLOPS": {"f64": 7, "f32": 14,)"
                 R"( "f16": 112}, "memory_bandwidth_GBps": 900, "memory_GiB": 32, "launch_overhead_us": 5},)");
    const Cluster c = parseClusterJson(json.toStdString(), "mixed.json");
    QCOMPARE(c.device(3).kind, std::string("V100-PCIe-32GB"));
    ClusterPanel panel;
    panel.resize(460, 380);
    panel.setCluster(c, "/data/mixed.json");
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.memoryText(3), QString("– / %1 GiB").arg(gib(c.device(3).memCapacity)));
    QVERIFY(!panel.deviceTree()->view()->isColumnHidden(DeviceTreeModel::Kind));
    QCOMPARE(panel.deviceTree()->model()->deviceText(3, DeviceTreeModel::Kind), QString("V100-PCIe-32GB"));
    QCOMPARE(panel.deviceTree()->model()->deviceText(0, DeviceTreeModel::Kind), QString("P100-PCIe-16GB"));
    // One preset kind: no kind column.
    panel.setCluster(loadCluster("4xP100-PCIe"), "4xP100-PCIe");
    QVERIFY(panel.deviceTree()->view()->isColumnHidden(DeviceTreeModel::Kind));
    panel.setCluster(c, "/data/mixed.json");
    saveShot(panel, "cluster_panel_mixed.png");
  }

  void clusterPanelPresetChoice() {
    ClusterPanel panel;
    panel.setPresets({"2xK80", "4xP100-PCIe", "8xV100-DGX1"});
    panel.setCluster(loadCluster("4xP100-PCIe"), "4xP100-PCIe");
    QSignalSpy chosen(&panel, &ClusterPanel::presetChosen);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.presetCombo()->setFocus();
    QTest::keyClick(panel.presetCombo(), Qt::Key_Down);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.at(0).at(0).toString(), QString("8xV100-DGX1"));
    // A cluster from a file shows the file's name; presets stay choosable.
    panel.setCluster(loadCluster("2xK80"), "/tmp/somewhere/my_cluster.json");
    QCOMPARE(panel.presetCombo()->currentText(), QString("my_cluster.json (file)"));
    // A generated cluster shows its spec.
    panel.setCluster(loadCluster("2xK80"), "128x8xH100-IB");
    QCOMPARE(panel.presetCombo()->currentText(), QString("128x8xH100-IB"));
    panel.setCluster(loadCluster("2xK80"), "/tmp/somewhere/my_cluster.json");
    QCOMPARE(panel.presetCombo()->count(), 4);
    panel.setCluster(loadCluster("2xK80"), "2xK80");
    QCOMPARE(panel.presetCombo()->count(), 3);
    QCOMPARE(panel.presetCombo()->currentText(), QString("2xK80"));
    QCOMPARE(panel.deviceCount(), 2);
    QCOMPARE(chosen.count(), 1);  // programmatic changes do not emit
  }

  // 1,024 devices fold into 128 servers; the servers holding ops open by themselves; a click
  // opens or closes one; filtered to one server's: eight rows, and a drop on the third of them
  // moves the ops to node77/gpu2 (device 618); a drag held over a closed server opens it.
  void legendGroupsServersFiltersAndDrops() {
    QStringList names;
    for (int d = 0; d < 1024; ++d) names << QString("node%1/gpu%2").arg(d / 8).arg(d % 8);
    DeviceLegend legend;
    legend.setDevices(names);
    std::vector<int> counts(1024, 0);
    counts[3] = 100, counts[9] = 5;
    legend.setOpCounts(counts);
    QVERIFY(legend.isGrouped());
    QCOMPARE(legend.serverCount(), 128);
    QVERIFY(legend.isServerExpanded(0) && legend.isServerExpanded(1) && !legend.isServerExpanded(2));
    QCOMPARE(legend.shownCount(), 16);
    QCOMPARE(legend.rowCount(), 128 + 16);
    QVERIFY(legend.sizeHint().height() < 128 * 40);
    legend.resize(legend.sizeHint());
    legend.show();
    QVERIFY(QTest::qWaitForWindowExposed(&legend));
    saveShot(legend, "device_legend_servers.png");
    // A click on a server's row opens it, another closes it; the user's choice then holds.
    QTest::mouseClick(&legend, Qt::LeftButton, {}, legend.serverRowRect(5).center());
    QVERIFY(legend.isServerExpanded(5));
    QCOMPARE(legend.shownCount(), 24);
    QCOMPARE(legend.rowAt(legend.rowRect(45).center()), 45);
    QCOMPARE(legend.serverAt(legend.serverRowRect(5).center()), 5);
    QTest::mouseClick(&legend, Qt::LeftButton, {}, legend.serverRowRect(5).center());
    QVERIFY(!legend.isServerExpanded(5));
    QVERIFY(legend.rowRect(45).isEmpty());
    legend.setOpCounts(std::vector<int>(1024, 1));  // the user opened and closed: nothing opens by itself
    QCOMPARE(legend.shownCount(), 16);

    legend.setFilter("NODE77/");
    QCOMPARE(legend.shownCount(), 8);
    QCOMPARE(legend.rowCount(), 9);
    legend.resize(legend.sizeHint());
    QVERIFY(legend.sizeHint().height() < 300);
    QVERIFY(legend.rowRect(0).isEmpty());  // filtered out
    const QPoint onThird = legend.rowRect(618).center();
    QCOMPARE(legend.rowAt(onThird), 618);
    QSignalSpy assigned(&legend, &DeviceLegend::assignRequested);
    std::unique_ptr<QMimeData> mime(opsToMime({4, 5}));
    QDragEnterEvent enter(onThird, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &enter);
    QDropEvent drop(QPointF(onThird), Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &drop);
    QCOMPARE(assigned.count(), 1);
    QCOMPARE(assigned.at(0).at(1).toInt(), 618);
    legend.setFilter("gpu");  // matches every device: the servers stay as they were
    QCOMPARE(legend.shownCount(), 16);
    legend.setFilter({});
    QCOMPARE(legend.rowCount(), 128 + 16);

    // Ops held over closed node10 open it; then they drop on its gpu4 (device 84).
    legend.resize(legend.sizeHint());
    const QPoint onServer = legend.serverRowRect(10).center();
    QDragEnterEvent enter2(onServer, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &enter2);
    QDragMoveEvent hold(onServer, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &hold);
    QVERIFY(!legend.isServerExpanded(10));
    QTRY_VERIFY_WITH_TIMEOUT(legend.isServerExpanded(10), 3000);
    legend.resize(legend.sizeHint());
    const QPoint onGpu4 = legend.rowRect(84).center();
    QDragMoveEvent over(onGpu4, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &over);
    QVERIFY(over.isAccepted());
    QDropEvent drop2(QPointF(onGpu4), Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &drop2);
    QCOMPARE(assigned.count(), 2);
    QCOMPARE(assigned.at(1).at(1).toInt(), 84);
  }

  void legendDropAssigns() {
    DeviceLegend legend;
    legend.setDevices({"gpu0", "gpu1", "gpu2", "gpu3"});
    legend.setOpCounts({12000, 345, 0, 51454});
    legend.resize(legend.sizeHint());
    legend.show();
    QVERIFY(QTest::qWaitForWindowExposed(&legend));
    QCOMPARE(legend.countText(3), QString("51,454 ops"));
    QSignalSpy assigned(&legend, &DeviceLegend::assignRequested);
    QSignalSpy activated(&legend, &DeviceLegend::deviceActivated);

    std::unique_ptr<QMimeData> mime(opsToMime({1, 2, 3}));
    const QPoint onRow2 = legend.rowRect(2).center();
    QDragEnterEvent enter(onRow2, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(onRow2, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &move);
    QVERIFY(move.isAccepted());
    QCOMPARE(legend.dropTargetRow(), 2);
    saveShot(legend, "device_legend_drag.png");
    // The highlighted row is tinted with the device colour (alpha 70 over the background).
    const QImage img = legend.grab().toImage();
    const QColor bg = img.pixelColor(1, 1), c = deviceColor(2);
    auto mix = [](int a, int b) { return (a * (255 - 70) + b * 70) / 255; };
    const QColor tint(mix(bg.red(), c.red()), mix(bg.green(), c.green()), mix(bg.blue(), c.blue()));
    auto near = [&](const QColor& p) {
      return std::abs(p.red() - tint.red()) + std::abs(p.green() - tint.green()) + std::abs(p.blue() - tint.blue()) <=
             6;
    };
    auto tinted = [&](int row) {
      int n = 0;
      const QRect r = legend.rowRect(row);
      for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) n += near(img.pixelColor(x, y));
      return n;
    };
    QVERIFY2(tinted(2) > legend.rowRect(2).width() * legend.rowRect(2).height() / 3,
             qPrintable(QString::number(tinted(2))));
    QCOMPARE(tinted(1), 0);

    QDropEvent drop(onRow2, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &drop);
    QCOMPARE(assigned.count(), 1);
    QCOMPARE(assigned.at(0).at(0).value<std::vector<OpId>>(), (std::vector<OpId>{1, 2, 3}));
    QCOMPARE(assigned.at(0).at(1).toInt(), 2);
    QCOMPARE(legend.dropTargetRow(), -1);

    // Other mime data is refused; double-click activates a device.
    QMimeData text;
    text.setText("hello");
    QDragEnterEvent refused(onRow2, Qt::MoveAction, &text, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&legend, &refused);
    QVERIFY(!refused.isAccepted());
    QTest::mouseDClick(&legend, Qt::LeftButton, {}, legend.rowRect(1).center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 1);
    saveShot(legend, "device_legend.png");
  }

  void historyModelDeltas() {
    HistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.add(makeEntry("m_etf", 150.0, {0, 0, 1, 1, 2}));
    model.add(makeEntry("Manual edit (3 ops → gpu3)", 160.0, {3, 3, 3, 1, 2}, false));
    model.add(makeEntry("Optimizer best", 138.0, {0, 1, 1, 1, 3}));
    QCOMPARE(model.count(), 3);
    QCOMPARE(model.rowCount(), 3);
    auto cell = [&](int r, int c) { return model.data(model.index(r, c)).toString(); };
    QCOMPARE(cell(0, HistoryModel::Step), QString("150.0"));
    QCOMPARE(cell(0, HistoryModel::Ratio), QString("1.88×"));
    QCOMPARE(cell(0, HistoryModel::Delta), QString("–"));
    QCOMPARE(cell(1, HistoryModel::Delta), QString("+10.0 ms (+6.7 %)"));
    // The infeasible entry is skipped: #3 compares with #1.
    QCOMPARE(cell(2, HistoryModel::Delta), QString("\u221212.0 ms (\u22128.0 %)"));
    QCOMPARE(model.previousFeasible(2), 0);
    QCOMPARE(cell(1, HistoryModel::Feasible), QString("No"));
    QCOMPARE(cell(2, HistoryModel::Time), QString("14:03:12"));
    QCOMPARE(model.data(model.index(1, HistoryModel::Step), Qt::ToolTipRole).toString(),
             QString("gpu1 needs 18.20 GB, 1.02 GB over its 17.18 GB"));
    QCOMPARE(model.data(model.index(1, HistoryModel::Step), Qt::ForegroundRole).value<QBrush>().color(),
             QColor(140, 140, 140));
    QVERIFY(model.data(model.index(2, HistoryModel::Delta), Qt::ForegroundRole).value<QBrush>().color().green() > 100);
    QCOMPARE(model.data(model.index(2, HistoryModel::Delta), HistoryModel::RawRole).toDouble(), 0.138 - 0.150);

    QCOMPARE(HistoryModel::movedOps(model.entry(0).plan, model.entry(2).plan), (std::vector<OpId>{1, 4}));
    QCOMPARE(HistoryModel::movedOps(model.entry(0).plan, model.entry(1).plan), (std::vector<OpId>{0, 1, 2}));
    QCOMPARE(HistoryModel::movedOps(Plan{{0, 1}, {}, {}}, Plan{{0, 1, 1}, {}, {}}), (std::vector<OpId>{2}));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void historyPanelCompareAndRestore() {
    HistoryModel model;
    HistoryPanel panel(&model);
    panel.resize(560, 230);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy compare(&panel, &HistoryPanel::compareChanged);
    QSignalSpy restore(&panel, &HistoryPanel::restoreRequested);

    std::vector<int32_t> big(2000, 0), moved = big;
    for (int i = 0; i < 1234; ++i) moved[static_cast<size_t>(i)] = 1 + i % 3;
    model.add(makeEntry("m_etf", 152.5, big));
    QCOMPARE(panel.selectedRows(), QList<int>{0});
    model.add(makeEntry("Manual edit (1,234 ops → gpu2)", 170.0, moved, false));
    model.add(makeEntry("Optimizer best", 140.2, moved));
    // The newest entry is selected when added.
    QCOMPARE(panel.selectedRows(), QList<int>{2});
    QCOMPARE(compare.count(), 0);

    panel.selectRows(0, 2);
    QCOMPARE(compare.count(), 1);
    QCOMPARE(compare.at(0).at(0).toInt(), 0);
    QCOMPARE(compare.at(0).at(1).toInt(), 2);
    QCOMPARE(panel.summaryText(), QString("#3 vs #1: \u221212.3 ms (\u22128.1 %), 1,234 ops moved"));
    QVERIFY(!panel.restoreButton()->isEnabled());
    // Columns fit their contents (QTableView alone fits them to the header only).
    const QHeaderView* header = panel.view()->horizontalHeader();
    QVERIFY(header->sectionSize(HistoryModel::Delta) >=
            panel.view()->fontMetrics().horizontalAdvance(model.data(model.index(1, HistoryModel::Delta)).toString()));
    saveShot(panel, "history_panel.png");

    // Ctrl-click a third row: no pair any more.
    const QTableView* view = panel.view();
    const QRect r1 = view->visualRect(model.index(1, 1));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, r1.center());
    QCOMPARE(panel.selectedRows(), (QList<int>{0, 1, 2}));
    QCOMPARE(compare.count(), 2);
    QCOMPARE(compare.at(1).at(0).toInt(), -1);

    // Click one row, Restore.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r1.center());
    QCOMPARE(panel.selectedRows(), QList<int>{1});
    QVERIFY(panel.restoreButton()->isEnabled());
    QTest::mouseClick(panel.restoreButton(), Qt::LeftButton);
    QCOMPARE(restore.count(), 1);
    QCOMPARE(restore.at(0).at(0).toInt(), 1);
    const QPoint row2 = view->visualRect(model.index(2, 0)).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row2);  // a real double-click starts with a press
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, row2);
    QCOMPARE(restore.count(), 2);
    QCOMPARE(restore.at(1).at(0).toInt(), 2);
  }
};

QTEST_MAIN(PanelsTest)
#include "panels_test.moc"
