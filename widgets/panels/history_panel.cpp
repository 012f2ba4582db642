#include "panels/history_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/history_model.h"
#include "panels/number_format.h"

namespace gp {

using namespace gp::panels;

HistoryPanel::HistoryPanel(HistoryModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(6, 6, 6, 6);
  top->setSpacing(4);

  view_ = new QTableView(this);
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setAlternatingRowColors(true);
  view_->setShowGrid(false);
  view_->setWordWrap(false);
  view_->setTextElideMode(Qt::ElideMiddle);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  QHeaderView* h = view_->horizontalHeader();
  h->setHighlightSections(false);
  h->setStretchLastSection(false);
  h->setSectionResizeMode(QHeaderView::ResizeToContents);
  h->setSectionResizeMode(HistoryModel::Label, QHeaderView::Stretch);
  top->addWidget(view_, 1);

  auto* bottom = new QHBoxLayout;
  bottom->setSpacing(8);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  detail_ = new QLabel(this);
  detail_->setObjectName(QStringLiteral("comparisonDetail"));
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->hide();
  restore_ = new QPushButton(tr("Restore"), this);
  auto* texts = new QVBoxLayout;
  texts->setSpacing(2);
  texts->addWidget(summary_);
  texts->addWidget(detail_);
  bottom->addLayout(texts, 1);
  bottom->addWidget(restore_, 0, Qt::AlignTop);
  top->addLayout(bottom);

  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPanel::onSelectionChanged);
  connect(model_, &QAbstractItemModel::rowsInserted, this,
          [this](const QModelIndex&, int first, int last) { onRowsInserted(first, last); });
  connect(model_, &QAbstractItemModel::modelReset, this, &HistoryPanel::onSelectionChanged);
  // QTableView re-fits ResizeToContents columns when columns change, not when rows do.
  connect(model_, &QAbstractItemModel::rowsInserted, this, &HistoryPanel::fitColumns);
  connect(model_, &QAbstractItemModel::modelReset, this, &HistoryPanel::fitColumns);
  connect(model_, &QAbstractItemModel::dataChanged, this, &HistoryPanel::fitColumns);
  connect(view_, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
    if (index.isValid()) Q_EMIT restoreRequested(index.row());
  });
  connect(restore_, &QPushButton::clicked, this, &HistoryPanel::onRestoreClicked);
  updateRestore();
  updateSummary({});
}

QList<int> HistoryPanel::selectedRows() const {
  QList<int> rows;
  for (const QModelIndex& i : view_->selectionModel()->selectedRows()) rows << i.row();
  std::sort(rows.begin(), rows.end());
  return rows;
}

void HistoryPanel::selectRows(int a, int b) {
  QItemSelection sel;
  for (int r : {a, b})
    if (r >= 0 && r < model_->count()) sel.select(model_->index(r, 0), model_->index(r, HistoryModel::ColumnCount - 1));
  view_->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
  const int current = b >= 0 ? b : a;
  if (current >= 0 && current < model_->count())
    view_->selectionModel()->setCurrentIndex(model_->index(current, 0), QItemSelectionModel::NoUpdate);
}

void HistoryPanel::onRowsInserted(int, int last) {
  selectRows(last);
  view_->scrollTo(model_->index(last, 0));
}

void HistoryPanel::fitColumns() {
  // resizeSections() is a protected slot of QHeaderView: it applies each section's resize mode.
  QMetaObject::invokeMethod(view_->horizontalHeader(), "resizeSections", Qt::DirectConnection);
}

void HistoryPanel::onRestoreClicked() {
  const QList<int> rows = selectedRows();
  if (rows.size() == 1) Q_EMIT restoreRequested(rows.front());
}

void HistoryPanel::setRestoreRefusal(const QString& why) {
  restoreRefusal_ = why;
  updateRestore();
}

void HistoryPanel::updateRestore() {
  restore_->setEnabled(selectedRows().size() == 1 && restoreRefusal_.isEmpty());
  restore_->setToolTip(restoreRefusal_.isEmpty() ? tr("Make the selected entry's plan the current plan") : restoreRefusal_);
}

void HistoryPanel::onSelectionChanged() {
  const QList<int> rows = selectedRows();
  updateRestore();
  updateSummary(rows);
  const int a = rows.size() == 2 ? rows[0] : -1;
  const int b = rows.size() == 2 ? rows[1] : -1;
  if (a != compareA_ || b != compareB_) {
    compareA_ = a;
    compareB_ = b;
    Q_EMIT compareChanged(a, b);
  }
}

void HistoryPanel::setComparisonDetail(const QString& text) {
  detail_->setText(text);
  detail_->setVisible(!text.isEmpty());
}

QString HistoryPanel::comparisonDetail() const { return detail_->text(); }

void HistoryPanel::updateSummary(const QList<int>& rows) {
  const QLocale loc;
  if (rows.size() == 2) {
    const HistoryEntry& a = model_->entry(rows[0]);
    const HistoryEntry& b = model_->entry(rows[1]);
    const double d = b.stepTime - a.stepTime;
    const size_t moved = HistoryModel::movedOps(a.plan, b.plan).size();
    const QString pct = a.stepTime > 0 ? formatSigned(100.0 * d / a.stepTime, 1) : tr("–");
    summary_->setText(tr("#%1 vs #%2: %3 ms (%4 %), %Ln ops moved", nullptr, static_cast<int>(moved))
                          .arg(loc.toString(rows[1] + 1), loc.toString(rows[0] + 1),
                               formatSignedMs(d, std::max(a.stepTime, b.stepTime)), pct));
    summary_->setToolTip(
        tr("#%1: %2\n#%3: %4").arg(loc.toString(rows[1] + 1), b.label, loc.toString(rows[0] + 1), a.label));
  } else if (rows.size() == 1) {
    const HistoryEntry& e = model_->entry(rows[0]);
    summary_->setText(e.feasible ? tr("#%1 %2: %3 ms. Select a second entry to compare.")
                                       .arg(loc.toString(rows[0] + 1), e.label, formatMs(e.stepTime))
                                 : tr("#%1 %2: not feasible (%3).").arg(loc.toString(rows[0] + 1), e.label, e.problem));
    summary_->setToolTip(QString());
  } else {
    summary_->setText(model_->count() == 0 ? tr("Measured plans appear here.")
                                           : tr("Select two entries to compare them."));
    summary_->setToolTip(QString());
  }
}

QString HistoryPanel::summaryText() const {
  return summary_->text();
}

}  // namespace gp
