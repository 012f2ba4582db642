// OptimizePopup: the Optimize button's options (its drop-down menu): the policy (the shipped
// pre-trained one, a new one, or a policy file), the iteration count, a time budget and the
// seed. options() gives what Document::optimize takes.
#pragma once
#include <QWidget>

#include "optimize/optimize.h"

class QComboBox;
class QSpinBox;

namespace gp {

class OptimizePopup : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kDefaultIterations = 40;

  explicit OptimizePopup(QWidget* parent = nullptr);

  OptimizeOptions options() const;
  // "default", "scratch" or a policy file's path (listed by its file name).
  void setPolicy(const QString& policy);
  void setIterations(int n);
  void setBudgetSeconds(int seconds);  // 0: none
  void setSeed(int seed);

 private:
  void choosePolicyFile();

  QComboBox* policy_;
  QSpinBox *iterations_, *budget_, *seed_;
  int lastPolicyIndex_ = 0;
};

}  // namespace gp
