#include "parallel/device_memory_panel.h"

#include <QGridLayout>
#include <QLabel>

#include "device_colors.h"
#include "panels/memory_bar.h"
#include "panels/number_format.h"

namespace gp {

namespace {
const QColor kUnused(205, 207, 210);
}  // namespace

DeviceMemoryPanel::DeviceMemoryPanel(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this)) {
  grid_->setContentsMargins(6, 6, 6, 6);
  grid_->setHorizontalSpacing(8);
  grid_->setVerticalSpacing(3);
}

void DeviceMemoryPanel::clear() {
  for (QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) delete w;
  for (int r = 0; r < grid_->rowCount(); ++r) grid_->setRowStretch(r, 0);
  bars_.clear();
  labels_.clear();
  capacity_.clear();
  names_.clear();
}

void DeviceMemoryPanel::setCluster(const Cluster& c) {
  clear();
  const std::vector<int> server = serverOf(c);
  std::vector<int> rowsUsed;
  for (int d = 0; d < c.numDevices(); ++d) {
    const std::string& name = c.device(d).name;
    const size_t slash = name.find_last_of('/');
    const int s = server[static_cast<size_t>(d)];
    if (static_cast<int>(rowsUsed.size()) <= s) {
      rowsUsed.resize(static_cast<size_t>(s) + 1, 0);
      auto* head = new QLabel(
          slash == std::string::npos ? QString::fromStdString(c.name()) : QString::fromStdString(name.substr(0, slash)),
          this);
      QFont f = head->font();
      f.setBold(true);
      head->setFont(f);
      grid_->addWidget(head, 0, 2 * s, 1, 2);
    }
    const int row = ++rowsUsed[static_cast<size_t>(s)];
    auto* label = new QLabel(QString::fromStdString(slash == std::string::npos ? name : name.substr(slash + 1)), this);
    auto* bar = new MemoryBar(this);
    bar->setObjectName(QStringLiteral("memory_%1").arg(d));
    grid_->addWidget(label, row, 2 * s);
    grid_->addWidget(bar, row, 2 * s + 1);
    grid_->setColumnStretch(2 * s + 1, 1);
    labels_.push_back(label);
    bars_.push_back(bar);
    capacity_.push_back(c.device(d).memCapacity);
    names_.push_back(QString::fromStdString(name));
    bar->setValues(-1, c.device(d).memCapacity, kUnused);
  }
  grid_->setRowStretch(grid_->rowCount(), 1);
}

void DeviceMemoryPanel::setMeasurement(const ParallelMeasurement& m, int ranksPerStage) {
  std::vector<bool> used(bars_.size(), false);
  for (size_t r = 0; r < m.rankDevice.size() && r < m.peakMemory.size(); ++r) {
    const int d = m.rankDevice[r];
    if (d < 0 || d >= static_cast<int>(bars_.size())) continue;
    used[static_cast<size_t>(d)] = true;
    const int stage = static_cast<int>(r) / std::max(1, ranksPerStage);
    bars_[static_cast<size_t>(d)]->setValues(m.peakMemory[r], m.capacity[r], deviceColor(stage));
    QString parts;
    if (stage < static_cast<int>(m.memory.size())) {
      const StageMemory& sm = m.memory[static_cast<size_t>(stage)];
      auto size = [](double bytes) { return panels::formatMemorySize(static_cast<int64_t>(bytes)); };
      parts = tr("\nweights %1 · gradients %2 · optimizer state %3 · activations %4")
                  .arg(size(sm.statics.weights), size(sm.statics.gradients), size(sm.statics.optimizer),
                       size(static_cast<double>(sm.activations)));
    }
    bars_[static_cast<size_t>(d)]->setToolTip(tr("%1, stage %2: %3")
                                                  .arg(names_[static_cast<size_t>(d)])
                                                  .arg(stage)
                                                  .arg(bars_[static_cast<size_t>(d)]->toolTip()) +
                                              parts);
  }
  for (size_t d = 0; d < bars_.size(); ++d) {
    if (used[d]) continue;
    bars_[d]->setValues(-1, capacity_[d], kUnused);
    bars_[d]->setToolTip(tr("%1: not used by the plan (%2)").arg(names_[d], panels::formatMemorySize(capacity_[d])));
  }
}

}  // namespace gp
