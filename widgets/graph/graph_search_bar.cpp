#include "graph/graph_search_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

#include "graph/graph_view.h"

namespace gp {

GraphSearchBar::GraphSearchBar(GraphView* view, QWidget* parent) : QWidget(parent), view_(view) {
  edit_ = new QLineEdit(this);
  edit_->setPlaceholderText(tr("Search ops…"));
  edit_->setClearButtonEnabled(true);
  kind_ = new QComboBox(this);
  kind_->addItem(tr("Name"), static_cast<int>(GraphView::SearchKind::Name));
  kind_->addItem(tr("Regex"), static_cast<int>(GraphView::SearchKind::Regex));
  kind_->addItem(tr("Op type"), static_cast<int>(GraphView::SearchKind::OpType));
  prev_ = new QToolButton(this);
  prev_->setArrowType(Qt::UpArrow);
  prev_->setToolTip(tr("Previous match (Shift+Enter)"));
  next_ = new QToolButton(this);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolTip(tr("Next match (Enter)"));
  status_ = new QLabel(this);
  status_->setMinimumWidth(90);
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(300);

  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 2, 4, 2);
  row->addWidget(edit_, 1);
  row->addWidget(kind_);
  row->addWidget(prev_);
  row->addWidget(next_);
  row->addWidget(status_);

  connect(debounce_, &QTimer::timeout, this, &GraphSearchBar::runSearch);
  connect(edit_, &QLineEdit::textEdited, debounce_, qOverload<>(&QTimer::start));
  connect(edit_, &QLineEdit::returnPressed, this, [this] {
    if (debounce_->isActive() || view_->matchCount() == 0)
      runSearch();
    else
      view_->nextMatch();
  });
  connect(kind_, &QComboBox::currentIndexChanged, this, &GraphSearchBar::runSearch);
  connect(prev_, &QToolButton::clicked, view_, &GraphView::previousMatch);
  connect(next_, &QToolButton::clicked, view_, &GraphView::nextMatch);
  connect(view_, &GraphView::matchChanged, this, &GraphSearchBar::updateStatus);
  updateStatus(-1, 0);
}

void GraphSearchBar::runSearch() {
  debounce_->stop();
  const QString text = edit_->text();
  if (text.isEmpty()) {
    updateStatus(-1, 0);
    status_->clear();
    return;
  }
  view_->search(text, static_cast<GraphView::SearchKind>(kind_->currentData().toInt()));
}

QString GraphSearchBar::statusText() const { return status_->text(); }

void GraphSearchBar::updateStatus(int current, int count) {
  prev_->setEnabled(count > 1);
  next_->setEnabled(count > 1);
  if (edit_->text().isEmpty())
    status_->clear();
  else if (count == 0)
    status_->setText(tr("No matches"));
  else
    status_->setText(tr("%1 of %2").arg(current + 1).arg(count));
}

}  // namespace gp
