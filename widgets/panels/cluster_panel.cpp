#include "panels/cluster_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

#include "device_colors.h"
#include "panels/device_tree_view.h"
#include "panels/elided_label.h"
#include "panels/number_format.h"

namespace gp {

using namespace gp::panels;

namespace {

QString tflops(double flops) {
  return QLocale().toString(flops / 1e12, 'f', 1);
}

}  // namespace

ClusterPanel::ClusterPanel(QWidget* parent) : QWidget(parent) {
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(6, 6, 6, 6);
  top->setSpacing(4);

  auto* chooser = new QHBoxLayout;
  chooser->setSpacing(4);
  combo_ = new QComboBox(this);
  combo_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  combo_->setToolTip(tr("Cluster preset"));
  loadButton_ = new QPushButton(tr("Load…"), this);
  loadButton_->setToolTip(tr("Load a cluster description (.json)"));
  chooser->addWidget(combo_, 1);
  chooser->addWidget(loadButton_);
  top->addLayout(chooser);

  description_ = new ElidedLabel(3, this);
  description_->setForegroundRole(QPalette::PlaceholderText);
  top->addWidget(description_);
  kinds_ = new QLabel(this);
  kinds_->setWordWrap(true);
  kinds_->setTextFormat(Qt::RichText);
  kinds_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(kinds_);

  tree_ = new DeviceTreeView(this);
  top->addWidget(tree_, 1);

  auto* form = new QFormLayout;
  form->setContentsMargins(0, 2, 0, 0);
  form->setHorizontalSpacing(12);
  form->setVerticalSpacing(2);
  form->setLabelAlignment(Qt::AlignLeft);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  stepValue_ = new QLabel(this);
  boundValue_ = new QLabel(this);
  ratioValue_ = new QLabel(this);
  commValue_ = new QLabel(this);
  statusValue_ = new QLabel(this);
  statusValue_->setWordWrap(true);
  for (QLabel* l : {stepValue_, boundValue_, ratioValue_, commValue_, statusValue_})
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(tr("Step time"), stepValue_);
  form->addRow(tr("Lower bound"), boundValue_);
  form->addRow(tr("Ratio"), ratioValue_);
  form->addRow(tr("Transfers"), commValue_);
  form->addRow(tr("Status"), statusValue_);
  top->addLayout(form);

  connect(combo_, &QComboBox::activated, this, &ClusterPanel::onActivated);
  connect(loadButton_, &QPushButton::clicked, this, &ClusterPanel::onLoadClicked);
  clearMeasurement();
}

void ClusterPanel::setPresets(const QStringList& names) {
  presets_ = names;
  const QSignalBlocker block(combo_);
  combo_->clear();
  for (const QString& n : names) combo_->addItem(n, n);
  if (!fileLabel_.isEmpty()) selectLabelInCombo(fileLabel_);
}

void ClusterPanel::selectLabelInCombo(const QString& label) {
  const QSignalBlocker block(combo_);
  // Drop a previous file entry (its data is empty; presets carry their name).
  for (int i = combo_->count() - 1; i >= 0; --i)
    if (combo_->itemData(i).toString().isEmpty()) combo_->removeItem(i);
  const int preset = combo_->findData(label);
  if (preset >= 0) {
    fileLabel_.clear();
    combo_->setCurrentIndex(preset);
    return;
  }
  fileLabel_ = label;
  // A file by its name; a generated cluster ("128x8xH100-IB", "random:7") by its spec.
  const QFileInfo file(label);
  const bool isFile = file.isFile() || label.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
  combo_->insertItem(0, isFile ? tr("%1 (file)").arg(file.fileName()) : label, QString());
  combo_->setItemData(0, label, Qt::ToolTipRole);
  combo_->setCurrentIndex(0);
}

void ClusterPanel::setCluster(const Cluster& c, const QString& label) {
  selectLabelInCombo(label);
  description_->setText(QString::fromStdString(c.description()));

  // One line per device kind, in order of first appearance.
  std::vector<int> firstOfKind, count;
  for (int d = 0; d < c.numDevices(); ++d) {
    const auto it = std::find_if(firstOfKind.begin(), firstOfKind.end(),
                                 [&](int f) { return c.device(f).kind == c.device(d).kind; });
    if (it != firstOfKind.end()) {
      ++count[static_cast<size_t>(it - firstOfKind.begin())];
      continue;
    }
    firstOfKind.push_back(d);
    count.push_back(1);
  }
  QStringList kindLines;
  for (size_t k = 0; k < firstOfKind.size(); ++k) {
    const DeviceSpec& dev = c.device(firstOfKind[k]);
    kindLines << tr("<b>%1 × %2</b><br>%3 · %4 TFLOPS f32 · %5 TFLOPS f16")
                     .arg(QLocale().toString(count[k]), QString::fromStdString(dev.kind).toHtmlEscaped(),
                          formatMemorySize(dev.memCapacity), tflops(dev.peak[static_cast<int>(PeakType::F32)]),
                          tflops(dev.peak[static_cast<int>(PeakType::F16)]));
  }
  // The software the step is simulated under: its per-op floor and the memory it keeps (the
  // capacities above are what is left for the model).
  const FrameworkSpec& fw = c.framework();
  kindLines << tr("%1 · %2 µs per op · %3 kept")
                   .arg(QString::fromStdString(fw.name).toHtmlEscaped(), QLocale().toString(fw.opOverhead * 1e6, 'g', 3),
                        formatMemorySize(fw.reservedMemory));
  kinds_->setText(kindLines.join(QStringLiteral("<br>")));
  tree_->setCluster(c);
  clearMeasurement();
}

void ClusterPanel::setMeasurement(const Measurement& m) {
  const QLocale loc;
  const int decimals = msDecimals(m.stepTime * 1e3);  // one precision for the busy column
  std::vector<DeviceFigures> figures(static_cast<size_t>(tree_->model()->deviceCount()));
  for (size_t i = 0; i < figures.size() && i < m.devices.size(); ++i) {
    const DeviceStats& s = m.devices[i];
    figures[i] = {s.peakMemory, s.capacity, s.utilization, s.busy};
  }
  tree_->model()->setFigures(std::move(figures), {}, {}, decimals);
  tree_->setColumnsShown(tree_->model()->mixedKinds(), true, true);
  stepValue_->setText(tr("%1 ms").arg(formatMs(m.stepTime, decimals)));
  boundValue_->setText(tr("%1 ms").arg(formatMs(m.lowerBound, decimals)));
  ratioValue_->setText(m.lowerBound > 0 ? tr("%1 × the lower bound").arg(loc.toString(m.ratio(), 'f', 2)) : tr("–"));
  commValue_->setText(formatMemorySize(m.commBytes));
  if (m.feasible) {
    statusValue_->setText(tr("✓ Feasible"));
    statusValue_->setStyleSheet(QStringLiteral("color: #1a7f37;"));
  } else {
    statusValue_->setText(m.problem.empty() ? tr("✗ Not feasible") : tr("✗ %1").arg(QString::fromStdString(m.problem)));
    statusValue_->setStyleSheet(QStringLiteral("color: #cf222e;"));
  }
}

void ClusterPanel::clearMeasurement() {
  tree_->model()->clearFigures();
  // Utilization and busy time only once measured: until then the names have the room.
  tree_->setColumnsShown(tree_->model()->mixedKinds(), false, true);
  for (QLabel* l : {stepValue_, boundValue_, ratioValue_, commValue_}) l->setText(tr("–"));
  statusValue_->setText(tr("Not measured"));
  statusValue_->setStyleSheet(QString());
}

int ClusterPanel::deviceCount() const { return tree_->model()->deviceCount(); }

QString ClusterPanel::memoryText(int device) const {
  return device >= 0 && device < deviceCount() ? tree_->model()->deviceText(device, DeviceTreeModel::Memory) : QString();
}

bool ClusterPanel::overCapacity(int device) const {
  return device >= 0 && device < deviceCount() &&
         tree_->model()->indexOfDevice(device).data(DeviceTreeModel::OverRole).toBool();
}

QString ClusterPanel::utilizationText(int device) const {
  return device >= 0 && device < deviceCount() ? tree_->model()->deviceText(device, DeviceTreeModel::Utilization) : QString();
}

QString ClusterPanel::busyText(int device) const {
  return device >= 0 && device < deviceCount() ? tree_->model()->deviceText(device, DeviceTreeModel::Busy) : QString();
}

QString ClusterPanel::summaryText() const {
  return QStringList{stepValue_->text(), boundValue_->text(), ratioValue_->text(), commValue_->text(),
                     statusValue_->text()}
      .join(QLatin1Char('\n'));
}

void ClusterPanel::onActivated(int index) {
  const QString name = combo_->itemData(index).toString();
  if (!name.isEmpty()) Q_EMIT presetChosen(name);
}

void ClusterPanel::onLoadClicked() {
  const QString dir = fileLabel_.isEmpty() ? QString() : QFileInfo(fileLabel_).absolutePath();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Load cluster"), dir, tr("Cluster descriptions (*.json);;All files (*)"));
  if (!path.isEmpty()) Q_EMIT fileChosen(path);
}

}  // namespace gp
