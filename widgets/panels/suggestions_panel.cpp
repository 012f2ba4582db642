#include "panels/suggestions_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <cmath>

namespace gp {

SuggestionsPanel::SuggestionsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(2);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("suggestionsStatus"));
  status_->setWordWrap(true);
  view_ = new QTreeWidget(this);
  view_->setObjectName(QStringLiteral("suggestionsView"));
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setMouseTracking(true);
  view_->setHeaderLabels({tr("Step"), tr("Change"), tr("Move")});
  view_->setMinimumHeight(40);  // tabbed with History: the dock area must not grow the window
  // a move repeated in every layer says so at its end ("…, and likewise in 11 more of …/*")
  view_->setTextElideMode(Qt::ElideMiddle);
  view_->header()->setStretchLastSection(true);
  view_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  view_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  apply_ = new QPushButton(tr("Apply"), this);
  apply_->setObjectName(QStringLiteral("applySuggestion"));
  // as the History panel: the list, then one row with what is going on and the button
  auto* bottom = new QHBoxLayout;
  bottom->setSpacing(8);
  bottom->addWidget(status_, 1);
  bottom->addWidget(apply_, 0, Qt::AlignTop);
  layout->addWidget(view_, 1);
  layout->addLayout(bottom);
  connect(view_, &QTreeWidget::itemEntered, this,
          [this](QTreeWidgetItem* item) { Q_EMIT previewRequested(view_->indexOfTopLevelItem(item)); });
  connect(view_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
    if (refusal_.isEmpty()) Q_EMIT applyRequested(view_->indexOfTopLevelItem(item));
  });
  connect(view_, &QTreeWidget::currentItemChanged, this, &SuggestionsPanel::updateApply);
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (auto* item = view_->currentItem()) Q_EMIT applyRequested(view_->indexOfTopLevelItem(item));
  });
  view_->viewport()->installEventFilter(this);
  updateApply();
}

void SuggestionsPanel::setRows(const std::vector<Row>& rows) {
  view_->clear();
  const QLocale loc;
  for (const Row& r : rows) {
    auto* item = new QTreeWidgetItem(view_, {tr("%1 ms").arg(loc.toString(r.stepMs, 'f', 2)),
                                             QStringLiteral("%1%2 %").arg(r.change < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                                                          loc.toString(std::abs(100 * r.change), 'f',
                                                                                       std::abs(r.change) < 1e-3 ? 3 : 1)),
                                             r.move});
    item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(2, tr("%1 (%2)").arg(r.move, r.kind));
  }
  updateApply();
}

bool SuggestionsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport() && event->type() == QEvent::Leave) Q_EMIT previewRequested(-1);
  return QWidget::eventFilter(watched, event);
}

void SuggestionsPanel::setStatus(const QString& text) { status_->setText(text); }
QString SuggestionsPanel::statusText() const { return status_->text(); }
int SuggestionsPanel::rowCount() const { return view_->topLevelItemCount(); }

void SuggestionsPanel::setApplyRefusal(const QString& why) {
  refusal_ = why;
  updateApply();
}

void SuggestionsPanel::updateApply() {
  apply_->setEnabled(refusal_.isEmpty() && view_->currentItem() != nullptr);
  apply_->setToolTip(refusal_.isEmpty() ? tr("Apply the selected move (one undo step)") : refusal_);
}

}  // namespace gp
