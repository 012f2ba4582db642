// SuggestionsPanel: the moves that would shorten the step (sim/suggestions.h), best first: the
// step time after each and the change; below, a line saying what is going on ("Looking for
// moves…", "None of the 214 moves tried shortens the step") and Apply. Hovering a row asks
// for a preview of it (its ops outlined in the graph); double-clicking or Apply applies it.
#pragma once
#include <QString>
#include <QWidget>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace gp {

class SuggestionsPanel : public QWidget {
  Q_OBJECT
 public:
  struct Row {
    QString move;     // "conv1 and 3 more → gpu2"
    QString kind;     // "op", "scope", "fuse", "priority"
    double stepMs = 0;
    double change = 0;  // fraction, negative when faster
  };
  explicit SuggestionsPanel(QWidget* parent = nullptr);

  void setRows(const std::vector<Row>& rows);  // clears the current row
  void setStatus(const QString& text);
  QString statusText() const;
  int rowCount() const;
  QTreeWidget* view() const { return view_; }
  QPushButton* applyButton() const { return apply_; }
  // Why Apply is not allowed now ("" when it is): the button is disabled with it as its tooltip.
  void setApplyRefusal(const QString& why);

 Q_SIGNALS:
  void applyRequested(int row);
  void previewRequested(int row);  // the row under the mouse, -1 when it leaves the rows

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // the mouse leaving the rows

 private:
  void updateApply();
  QLabel* status_;
  QTreeWidget* view_;
  QPushButton* apply_;
  QString refusal_;
};

}  // namespace gp
