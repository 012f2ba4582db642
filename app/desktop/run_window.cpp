#include "run_window.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "base/error.h"
#include "reward/reward_plot.h"

namespace gp {

namespace {

constexpr const char* kErrorStyle = "QLabel { color: #b3261e; }";

QString ms(double v) {
  if (std::isinf(v)) return RunWindow::tr("infeasible");
  if (v <= 0) return QStringLiteral("—");
  return QLocale().toString(v, 'f', 2);
}

QTableWidgetItem* cell(const QString& text, bool number = true) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

RunWindow::RunWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("runWindow"));
  setAttribute(Qt::WA_DeleteOnClose, false);
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  title_ = new QLabel(central);
  title_->setObjectName(QStringLiteral("runTitle"));
  title_->setTextFormat(Qt::PlainText);
  message_ = new QLabel(central);
  message_->setObjectName(QStringLiteral("runMessage"));
  message_->setTextFormat(Qt::PlainText);
  message_->setWordWrap(true);
  health_ = new QLabel(central);
  health_->setObjectName(QStringLiteral("runHealth"));
  health_->setTextFormat(Qt::PlainText);
  health_->hide();
  plot_ = new RewardPlot(central);
  plot_->setMinimumHeight(240);
  table_ = new QTableWidget(central);
  table_->setObjectName(QStringLiteral("runTable"));
  table_->verticalHeader()->hide();
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  apply_ = new QPushButton(tr("Apply Best Plan"), central);
  apply_->setObjectName(QStringLiteral("runApplyBest"));
  apply_->setToolTip(tr("Place the open model's ops as the run's best plan does (the run's model and cluster must be open)"));
  apply_->setEnabled(false);
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (const RunLogState* s = state(); s && !s->bestPlan.device.empty())
      Q_EMIT applyBestPlan(QString::fromStdString(s->model), s->bestPlan);
  });
  auto* top = new QHBoxLayout;
  top->addWidget(title_, 1);
  top->addWidget(apply_);
  layout->addLayout(top);
  layout->addWidget(message_);
  layout->addWidget(health_);
  layout->addWidget(plot_, 3);
  layout->addWidget(table_, 2);
  setCentralWidget(central);
  resize(900, 700);
  timer_.setInterval(kPollMs);
  connect(&timer_, &QTimer::timeout, this, &RunWindow::poll);
}

RunWindow::~RunWindow() = default;

void RunWindow::attach(const QString& path) {
  path_ = path;
  follower_ = std::make_unique<RunLogFollower>(path.toStdString());
  plot_->clear();
  plotted_ = 0;
  table_->clear();
  table_->setRowCount(0);
  table_->setColumnCount(0);
  health_->hide();
  apply_->setEnabled(false);
  setWindowTitle(tr("Run — %1").arg(QFileInfo(path).fileName()));
  sinceChange_.start();
  timer_.start();
  poll();
}

void RunWindow::pollNow() {
  if (timer_.isActive()) poll();
}

const RunLogState* RunWindow::state() const { return follower_ ? &follower_->state() : nullptr; }
QString RunWindow::messageText() const { return message_->text(); }
QString RunWindow::titleText() const { return title_->text(); }
QString RunWindow::healthText() const { return health_->isHidden() ? QString() : health_->text(); }

void RunWindow::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QString::fromLatin1(kErrorStyle) : QString());
  messageIsError_ = error;
}

void RunWindow::poll() {
  if (!follower_) return;
  try {
    if (follower_->poll()) {
      sinceChange_.restart();
      refresh();
    }
    updateStatus();
  } catch (const Error& e) {
    timer_.stop();  // what was read stays
    refresh();
    showMessage(QString::fromStdString(e.what()), true);
  }
}

void RunWindow::refresh() {
  const RunLogState& s = follower_->state();
  QString what;
  if (s.command == "optimize")
    what = tr("optimize %1 on %2 (%3 ops)").arg(QString::fromStdString(s.model), QString::fromStdString(s.cluster)).arg(s.ops);
  else if (s.command == "pretrain")
    what = tr("pretrain over %1 tasks").arg(s.tasks.size());
  else
    what = tr("a run");
  if (s.ranks > 1) what += tr(" · %1 ranks").arg(s.ranks);
  what += tr(" · seed %1").arg(s.seed);
  title_->setText(what);
  fillPlot();
  fillTable();
  if (s.healthRound >= 0 && !s.busySeconds.empty()) {
    QStringList parts;
    for (size_t r = 0; r < s.busySeconds.size(); ++r)
      parts << tr("rank %1 worked %2 s, waited %3 s")
                   .arg(r)
                   .arg(QLocale().toString(s.busySeconds[r], 'f', 1))
                   .arg(QLocale().toString(r < s.waitingSeconds.size() ? s.waitingSeconds[r] : 0.0, 'f', 1));
    health_->setText(tr("Round %1: %2").arg(s.healthRound).arg(parts.join(QStringLiteral(" · "))));
    health_->show();
  }
  apply_->setEnabled(s.command == "optimize" && !s.bestPlan.device.empty());
}

void RunWindow::fillPlot() {
  const RunLogState& s = follower_->state();
  if (s.points.size() < plotted_) {  // the log started again
    plot_->clear();
    plotted_ = 0;
  }
  if (plotted_ == 0) {
    plot_->setPerRound(s.command == "pretrain");
    if (s.command == "optimize")
      plot_->setReferenceLines({s.lowerBoundMs * 1e-3, s.bestBaselineMs * 1e-3, QString::fromStdString(s.bestBaseline)});
  }
  // pretrain's latest round may still grow: it is drawn once the next one starts or the run ends
  const size_t ready = s.command == "pretrain" && !s.ended && !s.points.empty() ? s.points.size() - 1 : s.points.size();
  for (; plotted_ < ready; ++plotted_) {
    const RunLogState::Point& p = s.points[plotted_];
    IterationReport it;
    it.iteration = p.x;
    it.zeroShot = p.zeroShot && s.command == "optimize";
    it.meanReward = p.meanReward;
    it.bestReward = p.bestReward;
    it.bestStepTime = std::isfinite(p.bestStepMs) ? p.bestStepMs * 1e-3 : 0;
    plot_->addIteration(it);
  }
}

void RunWindow::fillTable() {
  const RunLogState& s = follower_->state();
  if (s.command == "pretrain") {
    const QStringList head{tr("Task"), tr("Rank"), tr("Round"), tr("Start ms"), tr("Best ms"), tr("Gain"), tr("Own plan ms")};
    table_->setColumnCount(static_cast<int>(head.size()));
    table_->setHorizontalHeaderLabels(head);
    table_->setRowCount(static_cast<int>(s.tasks.size()));
    for (size_t i = 0; i < s.tasks.size(); ++i) {
      const RunLogState::Task& t = s.tasks[i];
      const int row = static_cast<int>(i);
      const QString name = QString::fromStdString(t.name) + (t.heldOut ? tr(" (held out)") : QString());
      const bool seen = t.round >= 0;
      const double gain = seen && t.startMs > 0 && std::isfinite(t.startMs) && std::isfinite(t.bestMs) ? 1 - t.bestMs / t.startMs : 0;
      table_->setItem(row, 0, cell(name, false));
      table_->setItem(row, 1, cell(seen ? QString::number(t.rank) : QString()));
      table_->setItem(row, 2, cell(seen ? QString::number(t.round) : QString()));
      table_->setItem(row, 3, cell(seen ? ms(t.startMs) : QString()));
      table_->setItem(row, 4, cell(seen ? ms(t.bestMs) : QString()));
      table_->setItem(row, 5, cell(seen ? QLocale().toString(100 * gain, 'f', 1) + QStringLiteral(" %") : QString()));
      table_->setItem(row, 6, cell(seen ? ms(t.ownMs) : QString()));
    }
  } else if (s.command == "optimize") {
    std::map<int32_t, int> perDevice;
    for (int32_t d : s.bestPlan.device) ++perDevice[d];
    const QStringList head{tr("Device"), tr("Ops in the best plan")};
    table_->setColumnCount(static_cast<int>(head.size()));
    table_->setHorizontalHeaderLabels(head);
    table_->setRowCount(static_cast<int>(perDevice.size()));
    int row = 0;
    for (const auto& [device, ops] : perDevice) {
      table_->setItem(row, 0, cell(QString::number(device)));
      table_->setItem(row, 1, cell(QString::number(ops)));
      ++row;
    }
  }
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
}

void RunWindow::updateStatus() {
  const RunLogState& s = follower_->state();
  const QString best = s.command == "optimize" && s.bestStepMs > 0
                           ? tr("; best plan %1 ms (iteration %2)").arg(ms(s.bestStepMs)).arg(s.bestIteration)
                           : QString();
  if (!s.error.empty()) {
    timer_.stop();
    showMessage(tr("The run failed: %1").arg(QString::fromStdString(s.error)), true);
  } else if (s.ended) {
    timer_.stop();
    showMessage((s.stopped ? tr("Stopped after %1 s") : tr("Finished in %1 s")).arg(QLocale().toString(s.seconds, 'f', 1)) +
                    best,
                false);
  } else if (s.events == 0) {
    showMessage(tr("Waiting for the run to write %1…").arg(path_), false);
  } else if (sinceChange_.elapsed() > kQuietSeconds * 1000) {
    showMessage(tr("No event for %1 s: the run may have stopped without finishing (still following)")
                    .arg(sinceChange_.elapsed() / 1000) + best,
                false);
  } else {
    showMessage(tr("Running: %1 s in").arg(QLocale().toString(s.lastEventSeconds, 'f', 0)) + best, false);
  }
}

}  // namespace gp
