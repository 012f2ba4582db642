#include "panels/device_tree_view.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QPainter>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "panels/memory_bar.h"

namespace gp {

namespace {

// The memory column as a bar (paintMemoryBar), every other column as usual.
class MemoryBarDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    if (index.column() != DeviceTreeModel::Memory) return QStyledItemDelegate::paint(p, option, index);
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();  // the background and selection only: the bar carries the figures
    QStyledItemDelegate::paint(p, opt, {});
    paintMemoryBar(*p, option.rect.adjusted(2, 1, -2, -1), option.palette, option.font,
                   index.data(DeviceTreeModel::PeakRole).toLongLong(), index.data(DeviceTreeModel::CapacityRole).toLongLong(),
                   index.data(DeviceTreeModel::ColorRole).value<QColor>(), index.data(Qt::DisplayRole).toString(),
                   index.data(DeviceTreeModel::MinPeakRole).toLongLong());
  }

  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setHeight(std::max(s.height(), option.fontMetrics.height() + 8));
    return s;
  }
};

}  // namespace

DeviceTreeView::DeviceTreeView(QWidget* parent)
    : QWidget(parent),
      model_(new DeviceTreeModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTreeView(this)),
      filter_(new QLineEdit(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(3);
  filter_->setObjectName(QStringLiteral("deviceFilter"));
  filter_->setPlaceholderText(tr("Filter devices by name"));
  filter_->setClearButtonEnabled(true);
  filter_->setToolTip(tr("Show the servers and GPUs whose name contains this text (node12, gpu3, node12/gpu3)"));
  layout->addWidget(filter_);

  proxy_->setSourceModel(model_);
  proxy_->setFilterRole(DeviceTreeModel::FilterRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setRecursiveFilteringEnabled(true);
  proxy_->setAutoAcceptChildRows(true);
  view_->setObjectName(QStringLiteral("deviceTree"));
  view_->setModel(proxy_);
  view_->setItemDelegate(new MemoryBarDelegate(view_));
  view_->setUniformRowHeights(true);  // only the visible rows are ever measured
  view_->setRootIsDecorated(true);
  view_->setAlternatingRowColors(false);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setAllColumnsShowFocus(true);
  view_->setTextElideMode(Qt::ElideMiddle);
  view_->header()->setStretchLastSection(false);
  view_->header()->setSectionsMovable(false);
  layout->addWidget(view_, 1);

  connect(filter_, &QLineEdit::textChanged, this, &DeviceTreeView::setFilter);
  for (auto signal : {&QTreeView::doubleClicked, &QTreeView::activated})
    connect(view_, signal, this, [this](const QModelIndex& index) {
      const int d = index.data(DeviceTreeModel::DeviceRole).toInt();
      if (d >= 0) Q_EMIT deviceActivated(d);
    });
  setColumnsShown(false, true, true);
}

void DeviceTreeView::setCluster(const Cluster& c) {
  model_->setCluster(c);
  // A list of a few GPUs needs no filter (and keeps none).
  filter_->setVisible(model_->deviceCount() > kExpandedDevices);
  if (filter_->isHidden() && !filter_->text().isEmpty()) filter_->clear();
  // A squeezed dock still shows the header and up to four GPUs (a small cluster whole), or
  // three rows of servers.
  const int rows = std::clamp(model_->groups().levels() == 0 ? model_->deviceCount() : 3, 2, 4);
  view_->setMinimumHeight(view_->header()->sizeHint().height() + rows * (fontMetrics().height() + 8) +
                          2 * view_->frameWidth());
  view_->setRootIsDecorated(model_->groups().levels() > 0);  // a flat list of GPUs needs no arrows
  applyShape();
  fitColumns();
}

void DeviceTreeView::setColumnsShown(bool kind, bool utilizationAndBusy, bool fullest) {
  showKind_ = kind;
  showUtil_ = utilizationAndBusy;
  showFullest_ = fullest;
  fitColumns();
}

void DeviceTreeView::fitColumns() {
  const bool groups = model_->groups().levels() > 0;
  const QFontMetrics fm(font());
  // Widths from the longest texts a column holds, not from every row (a scan of 16,384 rows).
  int name = fm.horizontalAdvance(model_->headerData(DeviceTreeModel::Name, Qt::Horizontal).toString());
  const int top = model_->rowCount();
  for (int r : {0, top - 1})
    if (r >= 0) name = std::max(name, fm.horizontalAdvance(model_->index(r, 0).data().toString()));
  if (model_->deviceCount() > 0)
    name = std::max(name, fm.horizontalAdvance(model_->deviceText(model_->deviceCount() - 1, DeviceTreeModel::Name)));
  name += view_->indentation() * model_->groups().levels() + 16 + (groups ? view_->indentation() : 0) +
          fm.height();  // the device's swatch
  const int kind = fm.horizontalAdvance(QStringLiteral("V100-SXM2-16GB")) + 12;
  const int util = fm.horizontalAdvance(QStringLiteral("100–100 %")) + 12;
  const int busy = fm.horizontalAdvance(QStringLiteral("10,000.00 ms")) + 12;
  // The fullest GPU is named within its group: "gpu3" in a server, "node12/gpu3" in a pod.
  const int fullest =
      std::max(fm.horizontalAdvance(model_->headerData(DeviceTreeModel::Fullest, Qt::Horizontal).toString()),
               fm.horizontalAdvance(model_->groups().levels() == 2 ? QStringLiteral("node0000/gpu00") : QStringLiteral("gpu00"))) +
      12;
  // What fits beside a memory bar of at least ~10 characters: a narrow dock drops the fullest
  // GPU's column (its name stays in the group's tooltip) and narrows the names.
  // The room inside the tree's frame and scroll bar (the viewport may not have its new size yet).
  const int width = std::max(this->width() - 2 * view_->frameWidth() - view_->verticalScrollBar()->sizeHint().width(), 200);
  const int bar = fm.horizontalAdvance(QStringLiteral("00.0–00.0 / 00.0 GiB")) * 2 / 3;
  int fixed = (showKind_ ? kind : 0) + (showUtil_ ? util + busy : 0);
  const bool fullestFits = showFullest_ && groups && std::min(name, width * 2 / 5) + fixed + fullest + bar <= width;
  if (fullestFits) fixed += fullest;
  // Names shrink to leave the bar room, never below their full length in a flat list of GPUs.
  name = std::clamp(width - fixed - bar, groups ? std::min(name, 90) : name, name);
  view_->setColumnHidden(DeviceTreeModel::Kind, !showKind_);
  view_->setColumnHidden(DeviceTreeModel::Utilization, !showUtil_);
  view_->setColumnHidden(DeviceTreeModel::Busy, !showUtil_);
  view_->setColumnHidden(DeviceTreeModel::Fullest, !fullestFits);
  QHeaderView* h = view_->header();
  h->setSectionResizeMode(QHeaderView::Interactive);
  h->setSectionResizeMode(DeviceTreeModel::Memory, QHeaderView::Stretch);
  h->setMinimumSectionSize(fm.horizontalAdvance(QStringLiteral("00")));
  view_->setColumnWidth(DeviceTreeModel::Name, name);
  view_->setColumnWidth(DeviceTreeModel::Kind, kind);
  view_->setColumnWidth(DeviceTreeModel::Utilization, util);
  view_->setColumnWidth(DeviceTreeModel::Busy, busy);
  view_->setColumnWidth(DeviceTreeModel::Fullest, fullest);
}

void DeviceTreeView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitColumns();
}

void DeviceTreeView::applyShape() {
  view_->collapseAll();
  if (!filter_->text().isEmpty() || model_->deviceCount() <= kExpandedDevices) {
    view_->expandAll();
    return;
  }
  // Pods open (their servers show as rows) while there are few of them; servers stay closed.
  if (model_->groups().levels() == 2 && model_->groups().numPods() <= 16)
    for (int r = 0; r < proxy_->rowCount(); ++r) view_->expand(proxy_->index(r, 0));
}

void DeviceTreeView::setFilter(const QString& text) {
  if (filter_->text() != text) {
    filter_->setText(text);  // comes back here through textChanged
    return;
  }
  proxy_->setFilterFixedString(text);
  if (text.isEmpty()) {
    applyShape();
    return;
  }
  // What matched, opened: every server holding a match (a few hundred rows at most).
  int rows = 0;
  for (int r = 0; r < proxy_->rowCount() && rows <= 512; ++r) {
    const QModelIndex top = proxy_->index(r, 0);
    rows += 1 + proxy_->rowCount(top);
    for (int c = 0; c < proxy_->rowCount(top); ++c) rows += proxy_->rowCount(proxy_->index(c, 0, top));
  }
  if (rows <= 512) view_->expandAll();
}

QModelIndex DeviceTreeView::viewIndexOfDevice(int device, int column) const {
  return proxy_->mapFromSource(model_->indexOfDevice(device, column));
}

QModelIndex DeviceTreeView::viewIndexOfServer(int server, int column) const {
  return proxy_->mapFromSource(model_->indexOfServer(server, column));
}

void DeviceTreeView::expandServer(int server) {
  const QModelIndex i = viewIndexOfServer(server);
  if (!i.isValid()) return;
  if (i.parent().isValid()) view_->expand(i.parent());
  view_->expand(i);
  view_->scrollTo(i, QAbstractItemView::PositionAtTop);
}

bool DeviceTreeView::isServerExpanded(int server) const {
  const QModelIndex i = viewIndexOfServer(server);
  return i.isValid() && view_->isExpanded(i);
}

int DeviceTreeView::visibleRowCount() const { return countVisibleRows(INT_MAX); }

int DeviceTreeView::countVisibleRows(int limit) const {
  int rows = 0;
  std::vector<QModelIndex> open{QModelIndex()};
  while (!open.empty() && rows < limit) {
    const QModelIndex parent = open.back();
    open.pop_back();
    const int n = proxy_->rowCount(parent);
    rows += n;
    for (int r = 0; r < n; ++r) {
      const QModelIndex child = proxy_->index(r, 0, parent);
      if (view_->isExpanded(child)) open.push_back(child);
    }
  }
  return rows;
}

QSize DeviceTreeView::sizeHint() const {
  const int row = fontMetrics().height() + 8;
  const int rows = std::clamp(countVisibleRows(12), 4, 12);  // sizeHint is asked often: no walk of 16,384 rows
  return {380, filter_->sizeHint().height() + view_->header()->sizeHint().height() + rows * row + 8};
}

}  // namespace gp
