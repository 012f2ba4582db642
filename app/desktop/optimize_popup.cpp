#include "optimize_popup.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace gp {

namespace {
const QString kFileItem = QStringLiteral("<file>");
}

OptimizePopup::OptimizePopup(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("optimizePopup"));
  auto* form = new QFormLayout(this);
  form->setContentsMargins(10, 8, 10, 8);
  policy_ = new QComboBox(this);
  policy_->setObjectName(QStringLiteral("optimizePolicy"));
  policy_->addItem(tr("Pre-trained (default)"), QStringLiteral("default"));
  policy_->addItem(tr("New policy (from scratch)"), QStringLiteral("scratch"));
  policy_->addItem(tr("ColocRL (2017 seq2seq, REINFORCE)"), QStringLiteral("colocrl"));
  policy_->addItem(tr("Policy file…"), kFileItem);
  policy_->setToolTip(tr("The policy network the optimizer starts from and fine-tunes"));
  connect(policy_, &QComboBox::activated, this, [this](int i) {
    if (policy_->itemData(i).toString() == kFileItem)
      choosePolicyFile();
    else
      lastPolicyIndex_ = i;
  });
  iterations_ = new QSpinBox(this);
  iterations_->setObjectName(QStringLiteral("optimizeIterations"));
  iterations_->setRange(0, 100000);
  iterations_->setValue(kDefaultIterations);
  iterations_->setSpecialValueText(tr("0 (zero-shot)"));
  iterations_->setToolTip(tr("Training iterations; 0 places with the policy as it is"));
  budget_ = new QSpinBox(this);
  budget_->setObjectName(QStringLiteral("optimizeBudget"));
  budget_->setRange(0, 24 * 3600);
  budget_->setSuffix(tr(" s"));
  budget_->setSpecialValueText(tr("no limit"));
  budget_->setToolTip(tr("Stop after this many seconds even if iterations remain"));
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("optimizeSeed"));
  seed_->setRange(0, 999999);
  seed_->setValue(1);
  seed_->setToolTip(tr("The same seed gives the same plan"));
  form->addRow(tr("Policy:"), policy_);
  form->addRow(tr("Iterations:"), iterations_);
  form->addRow(tr("Time budget:"), budget_);
  form->addRow(tr("Seed:"), seed_);
}

OptimizeOptions OptimizePopup::options() const {
  OptimizeOptions o;
  o.policy = policy_->currentData().toString().toStdString();
  if (o.policy == kFileItem.toStdString()) o.policy = "default";
  o.iterations = iterations_->value();
  o.budgetSeconds = budget_->value();
  o.seed = static_cast<uint64_t>(seed_->value());
  return o;
}

void OptimizePopup::setPolicy(const QString& policy) {
  int i = policy_->findData(policy);
  if (i < 0) {  // a file: listed by its name, before "Policy file…"
    i = policy_->count() - 1;
    policy_->insertItem(i, QFileInfo(policy).fileName(), policy);
    policy_->setItemData(i, policy, Qt::ToolTipRole);
  }
  policy_->setCurrentIndex(i);
  lastPolicyIndex_ = i;
}

void OptimizePopup::setIterations(int n) {
  iterations_->setValue(n);
}
void OptimizePopup::setBudgetSeconds(int seconds) {
  budget_->setValue(seconds);
}
void OptimizePopup::setSeed(int seed) {
  seed_->setValue(seed);
}

void OptimizePopup::choosePolicyFile() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Choose a Policy"), {}, tr("Policy checkpoints (*.pt);;All files (*)"));
  if (path.isEmpty())
    policy_->setCurrentIndex(lastPolicyIndex_);
  else
    setPolicy(path);
}

}  // namespace gp
