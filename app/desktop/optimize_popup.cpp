#include "optimize_popup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace gp {

namespace {
const QString kFileItem = QStringLiteral("<file>");
}

FuseMode fuseWhenNotATask(const OptimizeTasks& tasks, int planFusionGroups) {
  if (tasks.fusion || planFusionGroups <= 0) return FuseMode::None;
  return tasks.placement ? FuseMode::Default : FuseMode::Plan;
}

OptimizePopup::OptimizePopup(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("optimizePopup"));
  auto* form = new QFormLayout(this);
  form->setContentsMargins(10, 8, 10, 8);

  // What to optimize (GO's tasks); defaults as OptimizeTasks: placement and scheduling.
  auto* taskRow = new QHBoxLayout;
  taskRow->setSpacing(12);
  auto makeTask = [&](const QString& text, const char* name) {
    auto* box = new QCheckBox(text, this);
    box->setObjectName(QString::fromLatin1(name));
    taskRow->addWidget(box);
    connect(box, &QCheckBox::toggled, this, &OptimizePopup::onTaskToggled);
    return box;
  };
  placement_ = makeTask(tr("Placement"), "optimizePlacement");
  schedule_ = makeTask(tr("Scheduling"), "optimizeScheduling");
  fusion_ = makeTask(tr("Fusion"), "optimizeFusion");
  taskRow->addStretch(1);
  tasksNote_ = new QLabel(this);
  tasksNote_->setObjectName(QStringLiteral("optimizeTasksNote"));
  tasksNote_->setForegroundRole(QPalette::PlaceholderText);
  tasksNote_->setWordWrap(true);
  const OptimizeTasks defaults;
  for (auto [box, on] : {std::pair{placement_, defaults.placement}, {schedule_, defaults.schedule}, {fusion_, defaults.fusion}}) {
    const QSignalBlocker block(box);
    box->setChecked(on);
  }

  policy_ = new QComboBox(this);
  policy_->setObjectName(QStringLiteral("optimizePolicy"));
  policy_->addItem(tr("Search, no learning (default)"), QStringLiteral("search"));
  policy_->addItem(tr("Pre-trained policy, fine-tuned"), QStringLiteral("pretrained"));
  policy_->addItem(tr("New policy, learning (from scratch)"), QStringLiteral("scratch"));
  policy_->addItem(tr("ColocRL (2017 seq2seq, REINFORCE)"), QStringLiteral("colocrl"));
  policy_->addItem(tr("Policy file…"), kFileItem);
  policy_->setToolTip(tr("The policy network whose samples the search starts from, and whether it learns as it "
                         "searches. On model families it never saw, learning did not beat the search alone in "
                         "the same time (docs/performance.md, \"Learning\")."));
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
  iterations_->setToolTip(tr("Search iterations (with a learning policy, each ends in an update); 0 places with "
                             "the start plan and the policy as it is"));
  budget_ = new QSpinBox(this);
  budget_->setObjectName(QStringLiteral("optimizeBudget"));
  budget_->setRange(0, 24 * 3600);
  budget_->setSuffix(tr(" s"));
  budget_->setSpecialValueText(tr("no limit"));
  budget_->setToolTip(tr("Stop after this many seconds even if iterations remain"));
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("optimizeSeed"));
  seed_->setRange(0, 999999);
  seed_->setValue(static_cast<int>(OptimizeOptions{}.seed));  // the core's default, as the CLI's
  seed_->setToolTip(tr("The same seed gives the same plan"));
  form->addRow(tr("Optimize:"), taskRow);
  form->addRow(QString(), tasksNote_);
  form->addRow(tr("Policy:"), policy_);
  form->addRow(tr("Iterations:"), iterations_);
  form->addRow(tr("Time budget:"), budget_);
  form->addRow(tr("Seed:"), seed_);
  onTaskToggled();
}

OptimizeTasks OptimizePopup::tasks() const {
  return OptimizeTasks{placement_->isChecked(), schedule_->isChecked(), fusion_->isChecked()};
}

OptimizeOptions OptimizePopup::options() const {
  OptimizeOptions o;
  const QString policy = policy_->currentData().toString();
  o.policy = policy == kFileItem ? PolicyChoice{} : parsePolicy(policy.toStdString());
  o.iterations = iterations_->value();
  o.budgetSeconds = budget_->value();
  o.seed = static_cast<uint64_t>(seed_->value());
  o.tasks = tasks();
  o.fuse = fuseWhenNotATask(o.tasks, planFusionGroups_);
  return o;
}

void OptimizePopup::setTasks(const OptimizeTasks& t) {
  if (!t.any()) return;
  for (auto [box, on] : {std::pair{placement_, t.placement}, {schedule_, t.schedule}, {fusion_, t.fusion}}) {
    const QSignalBlocker block(box);  // no half-set state (e.g. nothing ticked) in between
    box->setChecked(on);
  }
  onTaskToggled();
}

void OptimizePopup::setPlanState(int fusionGroups, bool hasPriorities) {
  if (fusionGroups == planFusionGroups_ && hasPriorities == planHasPriorities_) return;
  planFusionGroups_ = fusionGroups;
  planHasPriorities_ = hasPriorities;
  updateNote();
}

// At least one task stays ticked: the only ticked box is greyed out (it cannot be unticked),
// its tooltip says why.
void OptimizePopup::onTaskToggled() {
  QCheckBox* boxes[] = {placement_, schedule_, fusion_};
  int ticked = 0;
  for (QCheckBox* b : boxes) ticked += b->isChecked() ? 1 : 0;
  if (ticked == 0) {  // cannot happen through the boxes (the last one is disabled); be safe
    placement_->setChecked(true);
    return;  // the toggle above comes back here
  }
  static const char* kTips[] = {QT_TR_NOOP("Choose a device for every op"),
                                QT_TR_NOOP("Choose a priority for every op: which ready op each device runs first"),
                                QT_TR_NOOP("Choose which ops of a device run as one kernel")};
  for (int i = 0; i < 3; ++i) {
    const bool last = ticked == 1 && boxes[i]->isChecked();
    boxes[i]->setEnabled(!last);
    boxes[i]->setToolTip(last ? tr("At least one task stays selected: tick another one first") : tr(kTips[i]));
  }
  updateNote();
  Q_EMIT tasksChanged();
}

QString OptimizePopup::tasksNote() const { return tasksNote_->text(); }

void OptimizePopup::updateNote() {
  const OptimizeTasks t = tasks();
  QStringList fixed;
  if (!t.placement) fixed << tr("devices (as in the plan)");
  if (!t.schedule) fixed << (planHasPriorities_ ? tr("order (the plan's priorities)") : tr("order (FIFO)"));
  if (!t.fusion) {
    const FuseMode fuse = fuseWhenNotATask(t, planFusionGroups_);
    fixed << (fuse == FuseMode::Plan      ? tr("fusion (the plan's %n group(s))", nullptr, planFusionGroups_)
              : fuse == FuseMode::Default ? tr("fusion (default: elementwise chains)")
                                          : tr("fusion (none)"));
  }
  tasksNote_->setText(fixed.isEmpty() ? tr("All three are decided jointly.")
                                      : tr("Not optimized: %1").arg(fixed.join(QStringLiteral(" · "))));
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
