#include "panels/cluster_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

#include "device_colors.h"
#include "panels/elided_label.h"
#include "panels/memory_bar.h"
#include "panels/number_format.h"

namespace gp {

using namespace gp::panels;

namespace {

QLabel* makeNumberLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

QLabel* makeHeader(const QString& text, Qt::Alignment align, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setAlignment(align | Qt::AlignBottom);
  QFont f = l->font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  l->setFont(f);
  l->setForegroundRole(QPalette::PlaceholderText);
  return l;
}

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

  deviceBox_ = new QWidget(this);
  deviceGrid_ = new QGridLayout(deviceBox_);
  deviceGrid_->setContentsMargins(0, 4, 0, 4);
  deviceGrid_->setHorizontalSpacing(8);
  deviceGrid_->setVerticalSpacing(3);
  top->addWidget(deviceBox_);

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
  top->addStretch(1);

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
  combo_->insertItem(0, tr("%1 (file)").arg(QFileInfo(label).fileName()), QString());
  combo_->setItemData(0, label, Qt::ToolTipRole);
  combo_->setCurrentIndex(0);
}

void ClusterPanel::setCluster(const Cluster& c, const QString& label) {
  selectLabelInCombo(label);
  description_->setText(QString::fromStdString(c.description()));

  devices_.assign(static_cast<size_t>(c.numDevices()), DeviceSpec{});
  for (int d = 0; d < c.numDevices(); ++d) devices_[static_cast<size_t>(d)] = c.device(d);

  // One line per device kind, in order of first appearance.
  QStringList kindLines;
  std::vector<std::string> seen;
  for (const DeviceSpec& dev : devices_) {
    if (std::find(seen.begin(), seen.end(), dev.kind) != seen.end()) continue;
    seen.push_back(dev.kind);
    const auto n =
        std::count_if(devices_.begin(), devices_.end(), [&](const DeviceSpec& s) { return s.kind == dev.kind; });
    kindLines << tr("<b>%1 × %2</b><br>%3 · %4 TFLOPS f32 · %5 TFLOPS f16")
                     .arg(QLocale().toString(static_cast<qlonglong>(n)),
                          QString::fromStdString(dev.kind).toHtmlEscaped(), formatMemorySize(dev.memCapacity),
                          tflops(dev.peak[static_cast<int>(PeakType::F32)]),
                          tflops(dev.peak[static_cast<int>(PeakType::F16)]));
  }
  // The software the step is simulated under: its per-op floor and the memory it keeps (the
  // capacities above are what is left for the model).
  const FrameworkSpec& fw = c.framework();
  kindLines << tr("%1 · %2 µs per op · %3 kept")
                   .arg(QString::fromStdString(fw.name).toHtmlEscaped(), QLocale().toString(fw.opOverhead * 1e6, 'g', 3),
                        formatMemorySize(fw.reservedMemory));
  kinds_->setText(kindLines.join(QStringLiteral("<br>")));
  rebuildDeviceRows();
  clearMeasurement();
}

void ClusterPanel::rebuildDeviceRows() {
  rows_.clear();
  while (QLayoutItem* item = deviceGrid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }

  bool mixed = false;
  for (const DeviceSpec& d : devices_) mixed |= d.kind != devices_.front().kind;

  deviceGrid_->addWidget(makeHeader(tr("Device"), Qt::AlignLeft, deviceBox_), 0, 0);
  if (mixed) deviceGrid_->addWidget(makeHeader(tr("Kind"), Qt::AlignLeft, deviceBox_), 0, 1);
  deviceGrid_->addWidget(makeHeader(tr("Peak memory / capacity"), Qt::AlignLeft, deviceBox_), 0, 2);
  deviceGrid_->addWidget(makeHeader(tr("Util."), Qt::AlignRight, deviceBox_), 0, 3);
  deviceGrid_->addWidget(makeHeader(tr("Busy"), Qt::AlignRight, deviceBox_), 0, 4);
  deviceGrid_->setColumnStretch(2, 1);

  for (size_t i = 0; i < devices_.size(); ++i) {
    const DeviceSpec& d = devices_[i];
    const int row = static_cast<int>(i) + 1;
    DeviceRow r{};
    r.name =
        new QLabel(tr("<span style=\"color:%1\">■</span>&nbsp;%2")
                       .arg(deviceColor(static_cast<int>(i)).name(), QString::fromStdString(d.name).toHtmlEscaped()),
                   deviceBox_);
    r.name->setToolTip(tr("%1 (%2): %3 memory, %4 TFLOPS f32")
                           .arg(QString::fromStdString(d.name), QString::fromStdString(d.kind),
                                formatMemorySize(d.memCapacity), tflops(d.peak[static_cast<int>(PeakType::F32)])));
    r.kind = new QLabel(QString::fromStdString(d.kind), deviceBox_);
    r.kind->setVisible(mixed);
    r.memory = new MemoryBar(deviceBox_);
    r.memory->setValues(-1, d.memCapacity, deviceColor(static_cast<int>(i)));
    r.util = makeNumberLabel(deviceBox_);
    r.busy = makeNumberLabel(deviceBox_);
    deviceGrid_->addWidget(r.name, row, 0);
    deviceGrid_->addWidget(r.kind, row, 1);
    deviceGrid_->addWidget(r.memory, row, 2);
    deviceGrid_->addWidget(r.util, row, 3);
    deviceGrid_->addWidget(r.busy, row, 4);
    rows_.push_back(r);
  }
}

void ClusterPanel::setMeasurement(const Measurement& m) {
  const QLocale loc;
  const size_t n = std::min(rows_.size(), m.devices.size());
  const int decimals = msDecimals(m.stepTime * 1e3);  // one precision for the busy column
  for (size_t i = 0; i < rows_.size(); ++i) {
    DeviceRow& r = rows_[i];
    if (i >= n) {
      r.memory->setValues(-1, devices_[i].memCapacity, deviceColor(static_cast<int>(i)));
      r.util->setText(tr("–"));
      r.busy->setText(tr("–"));
      continue;
    }
    const DeviceStats& s = m.devices[i];
    const int64_t capacity = s.capacity > 0 ? s.capacity : devices_[i].memCapacity;
    r.memory->setValues(s.peakMemory, capacity, deviceColor(static_cast<int>(i)));
    r.util->setText(tr("%1 %").arg(loc.toString(100.0 * s.utilization, 'f', 0)));
    r.busy->setText(tr("%1 ms").arg(formatMs(s.busy, decimals)));
  }
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
  for (size_t i = 0; i < rows_.size(); ++i) {
    rows_[i].memory->setValues(-1, devices_[i].memCapacity, deviceColor(static_cast<int>(i)));
    rows_[i].util->setText(tr("–"));
    rows_[i].busy->setText(tr("–"));
  }
  for (QLabel* l : {stepValue_, boundValue_, ratioValue_, commValue_}) l->setText(tr("–"));
  statusValue_->setText(tr("Not measured"));
  statusValue_->setStyleSheet(QString());
}

MemoryBar* ClusterPanel::memoryBar(int device) const {
  return device >= 0 && device < deviceCount() ? rows_[static_cast<size_t>(device)].memory : nullptr;
}

QString ClusterPanel::utilizationText(int device) const {
  return device >= 0 && device < deviceCount() ? rows_[static_cast<size_t>(device)].util->text() : QString();
}

QString ClusterPanel::busyText(int device) const {
  return device >= 0 && device < deviceCount() ? rows_[static_cast<size_t>(device)].busy->text() : QString();
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
