// GraphSearchBar: a search field for a GraphView: text, kind (name / regex / op type),
// previous / next buttons and "3 of 120". Searching selects every match in the view.
#pragma once
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace gp {

class GraphView;

class GraphSearchBar : public QWidget {
  Q_OBJECT
 public:
  explicit GraphSearchBar(GraphView* view, QWidget* parent = nullptr);

  QLineEdit* lineEdit() const { return edit_; }
  QComboBox* kindCombo() const { return kind_; }
  QString statusText() const;  // "3 of 120", "No matches" or empty
  void runSearch();            // searches now (typing searches after a short pause)

 private:
  void updateStatus(int current, int count);

  GraphView* view_;
  QLineEdit* edit_;
  QComboBox* kind_;
  QToolButton *prev_, *next_;
  QLabel* status_;
  QTimer* debounce_;
};

}  // namespace gp
