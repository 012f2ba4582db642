// HistoryPanel: the HistoryModel in a table (rows multi-selectable), a line comparing the two
// selected entries ("#3 vs #1: −12.3 ms (−8.1 %), 1,234 ops moved") with, below it, a detail the
// owner sets (which part of the critical path changed), and a Restore button.
// The newest entry is selected and scrolled to when it is added.
#pragma once
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gp {

class HistoryModel;

class HistoryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit HistoryPanel(HistoryModel* model, QWidget* parent = nullptr);

  void selectRows(int a, int b = -1);  // programmatic selection (tests, main window)
  QList<int> selectedRows() const;     // ascending

  QTableView* view() const { return view_; }
  QPushButton* restoreButton() const { return restore_; }
  QString summaryText() const;
  void setComparisonDetail(const QString& text);  // empty: hidden
  QString comparisonDetail() const;
  // Why restoring is not allowed now ("" when it is): the Restore button is disabled with the
  // reason as its tooltip.
  void setRestoreRefusal(const QString& why);

 Q_SIGNALS:
  void restoreRequested(int row);           // Restore button / double-click on a row
  void compareChanged(int rowA, int rowB);  // two rows selected (A older); (-1, -1) otherwise

 private:
  void onSelectionChanged();
  void onRowsInserted(int first, int last);
  void onRestoreClicked();
  void fitColumns();
  void updateSummary(const QList<int>& rows);
  void updateRestore();

  HistoryModel* model_;
  QTableView* view_;
  QLabel* summary_;
  QLabel* detail_;
  QPushButton* restore_;
  QString restoreRefusal_;
  int compareA_ = -1, compareB_ = -1;
};

}  // namespace gp
