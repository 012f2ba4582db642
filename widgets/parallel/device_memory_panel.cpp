#include "parallel/device_memory_panel.h"

#include <QVBoxLayout>

#include "device_colors.h"
#include "panels/device_tree_view.h"
#include "panels/number_format.h"

namespace gp {

namespace {
const QColor kUnused(205, 207, 210);
}  // namespace

DeviceMemoryPanel::DeviceMemoryPanel(QWidget* parent) : QWidget(parent), tree_(new DeviceTreeView(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(tree_);
  tree_->setColumnsShown(false, false, true);
}

void DeviceMemoryPanel::clear() {
  Cluster none;
  tree_->setCluster(none);
}

void DeviceMemoryPanel::setCluster(const Cluster& c) {
  tree_->setCluster(c);
  tree_->setColumnsShown(tree_->model()->mixedKinds(), false, true);
}

void DeviceMemoryPanel::setMeasurement(const ParallelMeasurement& m, int ranksPerStage) {
  const int n = tree_->model()->deviceCount();
  std::vector<DeviceFigures> figures(static_cast<size_t>(n));
  std::vector<QColor> colors(static_cast<size_t>(n), kUnused);
  std::vector<QString> details(static_cast<size_t>(n), tr("not used by the plan"));
  // The tooltip line of each stage, made once (a stage has thousands of GPUs at scale).
  std::vector<QString> stageLine(m.memory.size());
  auto size = [](double bytes) { return panels::formatMemorySize(static_cast<int64_t>(bytes)); };
  for (size_t s = 0; s < m.memory.size(); ++s) {
    const StageMemory& sm = m.memory[s];
    stageLine[s] = tr("stage %1: weights %2 · gradients %3 · optimizer state %4 · activations %5 · NCCL buffers %6 · cuBLAS workspaces %7")
                       .arg(s)
                       .arg(size(sm.statics.weights), size(sm.statics.gradients), size(sm.statics.optimizer),
                            size(static_cast<double>(sm.activations)), size(sm.runtime.nccl), size(sm.runtime.workspaces));
    if (sm.statics.step > static_cast<double>(sm.activations))
      stageLine[s] += tr(" · the optimizer step's fp32 gradient copy %1, counted in place of the activations").arg(size(sm.statics.step));
    if (sm.reserved > 0) stageLine[s] += tr(" · reserved by PyTorch's caching allocator %1").arg(size(sm.reserved));
  }
  for (size_t r = 0; r < m.rankDevice.size() && r < m.peakMemory.size(); ++r) {
    const int d = m.rankDevice[r];
    if (d < 0 || d >= n) continue;
    const int stage = static_cast<int>(r) / std::max(1, ranksPerStage);
    figures[static_cast<size_t>(d)] = {m.peakMemory[r], r < m.capacity.size() ? m.capacity[r] : 0, -1, -1};
    colors[static_cast<size_t>(d)] = deviceColor(stage);
    details[static_cast<size_t>(d)] = static_cast<size_t>(stage) < stageLine.size()
                                          ? tr("rank %1, %2").arg(r).arg(stageLine[static_cast<size_t>(stage)])
                                          : tr("rank %1, stage %2").arg(r).arg(stage);
  }
  tree_->model()->setFigures(std::move(figures), std::move(colors), std::move(details));
}

int DeviceMemoryPanel::deviceCount() const { return tree_->model()->deviceCount(); }

QString DeviceMemoryPanel::memoryText(int device) const {
  return tree_->model()->deviceText(device, DeviceTreeModel::Memory);
}

bool DeviceMemoryPanel::overCapacity(int device) const {
  return tree_->model()->indexOfDevice(device).data(DeviceTreeModel::OverRole).toBool();
}

QString DeviceMemoryPanel::toolTip(int device) const {
  return tree_->model()->indexOfDevice(device).data(Qt::ToolTipRole).toString();
}

}  // namespace gp
