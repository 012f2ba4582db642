// Qt Test: the device tree under the Cluster panel and the Parallel Plan's memory panel, used as a
// person would at cluster scale — 1,024 GPUs open as 128 collapsed servers whose rows show their
// least and most full GPU, a server expands to its GPUs, the filter finds one GPU among 16,384,
// pods group servers; the model passes QAbstractItemModelTester and the panel never asks for a
// height past the screen.
#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QTest>
#include <QTreeView>

#include "cluster/cluster.h"
#include "panels/cluster_panel.h"
#include "panels/device_groups.h"
#include "panels/device_tree_view.h"

using namespace gp;

namespace {

constexpr int64_t kGiB = 1LL << 30;

// Device d at (d % 61) GiB, utilization (d % 100) %, busy d µs.
std::vector<DeviceFigures> rampFigures(const Cluster& c) {
  std::vector<DeviceFigures> f(static_cast<size_t>(c.numDevices()));
  for (int d = 0; d < c.numDevices(); ++d)
    f[static_cast<size_t>(d)] = {(d % 61) * kGiB, c.device(d).memCapacity, (d % 100) / 100.0, d * 1e-6};
  return f;
}

}  // namespace

class DeviceTreeTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  void groupsFollowServersAndPods() {
    const DeviceGroups one(loadCluster("8xH100-NVSwitch"));
    QCOMPARE(one.levels(), 0);
    QCOMPARE(one.numServers(), 1);
    const DeviceGroups servers(loadCluster("128x8xH100-IB"));
    QCOMPARE(servers.levels(), 1);
    QCOMPARE(servers.numServers(), 128);
    QCOMPARE(servers.serverName(5), std::string("node5"));
    QCOMPARE(servers.devicesOf(5).front(), 40);
    QCOMPARE(servers.slotOf(43), 3);
    QCOMPARE(servers.deviceShortName(43), std::string("gpu3"));
    const DeviceGroups pods(loadCluster("64x8xH100-IB:pod=16"));
    QCOMPARE(pods.levels(), 2);
    QCOMPARE(pods.numPods(), 4);
    QCOMPARE(pods.podOf(17), 1);
    QCOMPARE(pods.serversOf(1).size(), size_t{16});
    QCOMPARE(pods.devicesOfPod(3).size(), size_t{128});
  }

  void aggregateNamesTheFullestGpu() {
    std::vector<DeviceFigures> f(4);
    f[0] = {10 * kGiB, 80 * kGiB, 0.5, 0.010};
    f[1] = {70 * kGiB, 80 * kGiB, 0.9, 0.030};
    f[2] = {85 * kGiB, 80 * kGiB, 0.2, 0.020};  // over
    f[3] = {};                                  // not used
    const std::vector<int> all{0, 1, 2, 3};
    const GroupFigures g = aggregate(all, f);
    QCOMPARE(g.devices, 4);
    QCOMPARE(g.measured, 3);
    QCOMPARE(g.over, 1);
    QCOMPARE(g.minPeak, 10 * kGiB);
    QCOMPARE(g.maxPeak, 85 * kGiB);
    QCOMPARE(g.worst, 2);
    QCOMPARE(g.busiest, 1);
    QCOMPARE(g.minUtil, 0.2);
    QCOMPARE(g.maxUtil, 0.9);
  }

  void modelIsConsistent() {
    for (const char* spec : {"4xP100-PCIe", "2x8xH100-IB", "16x8xH100-IB:pod=4"}) {
      const Cluster c = loadCluster(spec);
      DeviceTreeModel model;
      QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
      model.setCluster(c);
      model.setFigures(rampFigures(c));
      for (int d = 0; d < c.numDevices(); ++d) {
        const QModelIndex i = model.indexOfDevice(d);
        QCOMPARE(i.data(DeviceTreeModel::DeviceRole).toInt(), d);
        QCOMPARE(model.index(i.row(), 0, model.parent(i)), i);
      }
    }
  }

  void thousandGpusOpenCollapsed() {
    const Cluster c = loadCluster("128x8xH100-IB");
    ClusterPanel panel;
    panel.resize(460, 600);
    panel.setCluster(c, "128x8xH100-IB");
    Measurement m;
    m.stepTime = 0.5;
    for (const DeviceFigures& f : rampFigures(c)) m.devices.push_back({f.busy, f.utilization, f.peak, f.capacity});
    m.devices[43].peakMemory = 90 * kGiB;  // node5/gpu3 over its capacity
    panel.setMeasurement(m);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    DeviceTreeView* tree = panel.deviceTree();
    QCOMPARE(panel.deviceCount(), 1024);
    QCOMPARE(tree->visibleRowCount(), 128);  // one row a server
    QVERIFY(panel.sizeHint().height() < 1000);
    // node5's row: 8 GPUs, one over capacity; memory from its least to its most full GPU.
    const DeviceTreeModel& model = *tree->model();
    const QString node5Text = model.indexOfServer(5).data().toString();  // "GPU(s)": no plural forms loaded here
    QVERIFY2(node5Text.startsWith(QStringLiteral("node5 (8 GPU")) && node5Text.endsWith(QStringLiteral(", 1 over)")), qPrintable(node5Text));
    QCOMPARE(model.indexOfServer(5, DeviceTreeModel::Fullest).data().toString(), QStringLiteral("gpu3"));
    QVERIFY(model.indexOfServer(5, DeviceTreeModel::Memory).data(DeviceTreeModel::OverRole).toBool());
    QCOMPARE(model.indexOfServer(6, DeviceTreeModel::Memory).data().toString(),
             QStringLiteral("48.0–55.0 / %1 GiB").arg(static_cast<double>(c.device(48).memCapacity) / kGiB, 0, 'f', 1));
    QCOMPARE(model.indexOfServer(6, DeviceTreeModel::Utilization).data().toString(), QStringLiteral("48–55 %"));
    QVERIFY(model.indexOfServer(5, DeviceTreeModel::Memory).data(Qt::ToolTipRole).toString().contains("Fullest: node5/gpu3"));
    // A click on node5's arrow opens it: its eight GPUs become rows.
    QTreeView* view = tree->view();
    const QModelIndex node5 = tree->viewIndexOfServer(5);
    view->scrollTo(node5);
    const QRect row = view->visualRect(node5);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(row.left() - view->indentation() / 2, row.center().y()));
    QVERIFY(tree->isServerExpanded(5));
    QCOMPARE(tree->visibleRowCount(), 136);
    QCOMPARE(panel.memoryText(43), QStringLiteral("90.0 / %1 GiB").arg(static_cast<double>(c.device(43).memCapacity) / kGiB, 0, 'f', 1));
    QVERIFY(panel.overCapacity(43));
    // Typing in the filter: one GPU and its server.
    QTest::keyClicks(tree->filterEdit(), QStringLiteral("node77/gpu2"));
    QCOMPARE(tree->visibleRowCount(), 2);
    QVERIFY(tree->viewIndexOfDevice(77 * 8 + 2).isValid());
    QVERIFY(!tree->viewIndexOfDevice(0).isValid());
    tree->filterEdit()->clear();
    QCOMPARE(tree->visibleRowCount(), 128);  // back to collapsed servers
  }

  void sixteenThousandGpusInPods() {
    const Cluster c = loadCluster("2048x8xH100-IB:pod=128");
    DeviceTreeView tree;
    tree.resize(420, 500);
    tree.setCluster(c);
    tree.model()->setFigures(rampFigures(c));
    tree.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tree));
    QCOMPARE(tree.model()->groups().numPods(), 16);
    QCOMPARE(tree.visibleRowCount(), 16 + 2048);  // pods open, servers closed
    tree.setFilter(QStringLiteral("node2047/"));
    QCOMPARE(tree.visibleRowCount(), 1 + 1 + 8);  // its pod, the server, its GPUs
    const QModelIndex last = tree.viewIndexOfDevice(16383, DeviceTreeModel::Memory);
    QVERIFY(last.isValid());
    QCOMPARE(last.data(DeviceTreeModel::PeakRole).toLongLong(), (16383 % 61) * kGiB);
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty()) {
      tree.setFilter({});
      tree.expandServer(0);
      QCoreApplication::processEvents();
      QVERIFY(tree.grab().save(QString::fromUtf8(dir) + "/device_tree_16384.png"));
    }
  }
};

QTEST_MAIN(DeviceTreeTest)
#include "device_tree_test.moc"
