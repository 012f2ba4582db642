#include "cost_model_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <span>

#include "costmodel/cost_features.h"
#include "costmodel/cost_scatter_plot.h"

namespace gp {

namespace {

constexpr const char* kErrorStyle = "QLabel { color: #b3261e; }";

QAction* makeAction(QObject* parent, const QString& text, const char* name, const QString& tip) {
  auto* a = new QAction(text, parent);
  a->setObjectName(QString::fromLatin1(name));
  a->setToolTip(tip);
  a->setStatusTip(tip);
  return a;
}

QSpinBox* makeSpin(QWidget* parent, const char* name, int lo, int hi, int value, const QString& tip) {
  auto* s = new QSpinBox(parent);
  s->setObjectName(QString::fromLatin1(name));
  s->setRange(lo, hi);
  s->setValue(value);
  s->setToolTip(tip);
  return s;
}

// "threads 2 · layout 1 · tiles 4" for configuration c of a kernel graph.
QString configText(const CostGraph& g, int64_t c, int32_t configWidth) {
  const auto row = std::span<const float>(g.configFeatures)
                       .subspan(static_cast<size_t>(c) * static_cast<size_t>(configWidth), static_cast<size_t>(configWidth));
  const KernelConfig k = configOfRow(row);
  const int threads = static_cast<size_t>(c) < g.threads.size() ? g.threads[static_cast<size_t>(c)] : k.threads;
  return CostModelWindow::tr("threads %1 · layout %2 · tiles %3").arg(threads).arg(k.layout).arg(k.tiles);
}

std::vector<CostScatterPoint> pointsOf(const CostModelResult& r) {
  std::vector<CostScatterPoint> out;
  const CostDataset& d = r.kernels;
  for (size_t i = 0; i < d.graphs.size(); ++i) {
    const CostGraph& g = d.graphs[i];
    const QString name = QString::fromStdString(g.name);
    for (int64_t c = 0; c < g.numConfigs(); ++c) {
      const auto k = static_cast<size_t>(c);
      out.push_back({g.runtime[k], r.learned[i][k], r.roofline[i][k], name, configText(g, c, d.configWidth)});
    }
  }
  return out;
}

QString fileLabel(const QString& chosen, const QString& resolved) {
  if (resolved.isEmpty()) return CostModelWindow::tr("missing");
  const QString name = QFileInfo(resolved).fileName();
  return chosen.isEmpty() ? CostModelWindow::tr("%1 (shipped)").arg(name) : name;
}

QString score(double v) { return QLocale().toString(v, 'f', 3); }

// "zoo:resnet50", or a model file's name (the whole path is the title's tooltip).
QString modelLabel(const QString& spec) {
  return spec.startsWith(QLatin1String("zoo:")) ? spec : QFileInfo(spec).fileName();
}

}  // namespace

CostModelWindow::CostModelWindow(QWidget* parent) : QMainWindow(parent, Qt::Window) {
  setObjectName(QStringLiteral("CostModelWindow"));
  setWindowTitle(tr("Cost Model"));
  createActions();

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(10, 8, 10, 4);
  layout->setSpacing(4);
  title_ = new QLabel(central);
  title_->setObjectName(QStringLiteral("costTitle"));
  QFont bold = title_->font();
  bold.setBold(true);
  bold.setPointSizeF(bold.pointSizeF() * 1.15);
  title_->setFont(bold);
  title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  files_ = new QLabel(central);
  files_->setObjectName(QStringLiteral("costFiles"));
  files_->setStyleSheet(QStringLiteral("QLabel { color: #5b6475; }"));
  files_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  message_ = new QLabel(central);
  message_->setObjectName(QStringLiteral("costMessage"));
  message_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // one line, never widens the window
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // the scores, and what they mean beside them
  auto* scores = new QWidget(central);
  auto* scoresLayout = new QHBoxLayout(scores);
  scoresLayout->setContentsMargins(0, 4, 0, 4);
  scoresLayout->setSpacing(24);
  summary_ = new QLabel(scores);
  summary_->setObjectName(QStringLiteral("costSummary"));
  summary_->setTextFormat(Qt::RichText);
  auto* explain = new QLabel(
      tr("Kendall's τ (−1…1) and ordered-pair accuracy (OPA, 0…1) say how well each model orders the "
         "configurations of one kernel (threads, layout, tiles), averaged over the kernels; 1 is a perfect order. "
         "Points on the dashed line are exact; above it, a model predicts slower than measured."),
      scores);
  explain->setWordWrap(true);
  explain->setStyleSheet(QStringLiteral("QLabel { color: #5b6475; }"));
  scoresLayout->addWidget(summary_, 0, Qt::AlignTop);
  scoresLayout->addWidget(explain, 1, Qt::AlignTop);
  plot_ = new CostScatterPlot(central);
  plot_->setObjectName(QStringLiteral("costScatter"));
  layout->addWidget(title_);
  layout->addWidget(files_);
  layout->addWidget(message_);
  layout->addWidget(scores);
  layout->addWidget(plot_, 1);
  setCentralWidget(central);

  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  statusBar()->addPermanentWidget(progress_);

  connect(&session_, &CostModelSession::busyChanged, this, &CostModelWindow::onBusyChanged);
  connect(&session_, &CostModelSession::progress, this, [this](int done, int total) {
    if (total <= 0) return;
    progress_->setRange(0, total);
    progress_->setValue(done);
    showMessage(done < total ? tr("Measuring kernel %1 of %2 on this CPU…").arg(done + 1).arg(total)
                             : tr("Predicting %1 kernels with both models…").arg(total),
                false);
  });
  connect(&session_, &CostModelSession::finished, this, &CostModelWindow::onFinished);
  connect(&session_, &CostModelSession::failed, this, [this](const QString& line) { showMessage(line, true); });
  connect(&session_, &CostModelSession::stopped, this,
          [this] { showMessage(tr("Stopped; nothing was predicted."), false); });
  connect(&session_, &CostModelSession::cleared, this, [this] {
    plot_->clear();
    summary_->clear();
    title_->setText(tr("%1: kernels on this CPU").arg(modelLabel(session_.modelSpec())));
    title_->setToolTip(session_.modelSpec());
    showMessage(tr("Measure times up to %1 kernels of the model on this CPU and predicts them with both models.")
                    .arg(kernels_->value()),
                false);
    Q_EMIT resultChanged();
  });
  summary_->clear();
  updateFilesLabel();
  onBusyChanged(false);
  resize(1100, 820);
}

CostModelWindow::~CostModelWindow() = default;

void CostModelWindow::createActions() {
  measure_ = makeAction(this, tr("Measure"), "costMeasure",
                        tr("Time the model's kernels on this CPU in the background and predict them with both models"));
  stop_ = makeAction(this, tr("Stop"), "costStop", tr("Stop measuring"));
  chooseLearned_ = makeAction(this, tr("Learned Model…"), "costChooseLearned",
                              tr("Predict with another learned kernel model (graphplace-cli costmodel train --out)"));
  chooseRoofline_ = makeAction(this, tr("Roofline…"), "costChooseRoofline",
                               tr("Compare with another fitted roofline (graphplace-cli costmodel train --roofline-out)"));
  shipped_ = makeAction(this, tr("Shipped Models"), "costShippedModels",
                        tr("Use the models shipped in resources/costmodels again"));
  connect(measure_, &QAction::triggered, this, &CostModelWindow::measure);
  connect(stop_, &QAction::triggered, &session_, &CostModelSession::stop);
  connect(chooseLearned_, &QAction::triggered, this, [this] { chooseFile(true); });
  connect(chooseRoofline_, &QAction::triggered, this, [this] { chooseFile(false); });
  connect(shipped_, &QAction::triggered, this, [this] {
    setLearnedModel({});
    setRoofline({});
  });

  QToolBar* tb = addToolBar(tr("Cost Model"));
  tb->setObjectName(QStringLiteral("costToolBar"));
  tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
  tb->addAction(measure_);
  tb->addAction(stop_);
  tb->addSeparator();
  tb->addWidget(new QLabel(tr("Kernels "), tb));
  kernels_ = makeSpin(tb, "costKernels", 1, 1000, 40, tr("The most distinct kernels measured, evenly spaced over the model"));
  tb->addWidget(kernels_);
  tb->addWidget(new QLabel(tr("  Repeats "), tb));
  repeats_ = makeSpin(tb, "costRepeats", 1, 50, 3, tr("Timed runs per configuration; the median is kept"));
  tb->addWidget(repeats_);
  tb->addSeparator();
  tb->addActions({chooseLearned_, chooseRoofline_, shipped_});

  QMenu* menu = menuBar()->addMenu(tr("&Cost Model"));
  menu->addActions({measure_, stop_});
  menu->addSeparator();
  menu->addActions({chooseLearned_, chooseRoofline_, shipped_});
  menu->addSeparator();
  QAction* close = menu->addAction(tr("&Close"));
  close->setShortcut(QKeySequence::Close);
  connect(close, &QAction::triggered, this, &QWidget::close);
}

void CostModelWindow::setWorkspace(const std::shared_ptr<const Workspace>& ws) {
  if (!ws) return;
  session_.setWorkspace(ws);  // another graph: cleared()
  setWindowTitle(tr("Cost Model — %1").arg(modelLabel(ws->modelSpec)));
  onBusyChanged(session_.isRunning());
}

void CostModelWindow::setLearnedModel(const QString& path) {
  session_.setLearnedModel(path);
  updateFilesLabel();
}

void CostModelWindow::setRoofline(const QString& path) {
  session_.setRoofline(path);
  updateFilesLabel();
}

void CostModelWindow::updateFilesLabel() {
  const QString learned = session_.learnedModelPath(), roofline = session_.rooflinePath();
  files_->setText(tr("Learned model: %1 · Fitted roofline: %2")
                      .arg(fileLabel(session_.chosenLearnedModel(), learned),
                           fileLabel(session_.chosenRoofline(), roofline)));
  files_->setToolTip(learned + QLatin1Char('\n') + roofline);
}

void CostModelWindow::chooseFile(bool learned) {
  const QString path =
      learned ? QFileDialog::getOpenFileName(this, tr("Learned Kernel Model"), {}, tr("Learned cost models (*.pt)"))
              : QFileDialog::getOpenFileName(this, tr("Fitted Roofline"), {}, tr("Fitted rooflines (*.json)"));
  if (path.isEmpty()) return;
  if (learned)
    setLearnedModel(path);
  else
    setRoofline(path);
}

void CostModelWindow::measure() {
  CostModelSession::Options o;
  o.maxKernels = kernels_->value();
  o.repeats = repeats_->value();
  if (session_.start(o).isEmpty()) {
    elapsed_.start();
    showMessage(tr("Measuring the model's kernels on this CPU…"), false);
  }
}

void CostModelWindow::onFinished() {
  const CostModelResult& r = *session_.result();
  title_->setText(tr("%1: kernels on %2").arg(modelLabel(session_.modelSpec()), r.deviceKind));
  plot_->setPoints(pointsOf(r));
  const QString row = QStringLiteral("<tr><td><span style='color:%1'>%2</span> %3</td>"
                                     "<td align=right style='padding-left:18px'>%4</td>"
                                     "<td align=right style='padding-left:18px'>%5</td></tr>");
  summary_->setText(QStringLiteral("<table cellspacing=0 cellpadding=2><tr><th></th>"
                                   "<th align=right style='padding-left:18px'>%1</th>"
                                   "<th align=right style='padding-left:18px'>%2</th></tr>")
                        .arg(tr("Kendall's τ"), tr("OPA")) +
                    row.arg(QStringLiteral("#1f77b4"), QStringLiteral("●"), tr("learned model"),
                            score(r.learnedScores.kendallTau), score(r.learnedScores.opa)) +
                    row.arg(QStringLiteral("#e67814"), QStringLiteral("▲"), tr("fitted roofline"),
                            score(r.rooflineScores.kendallTau), score(r.rooflineScores.opa)) +
                    QStringLiteral("</table>"));
  showMessage(tr("%1 kernels, %2 samples (kernel × configuration) measured and predicted in %3 s; hover a point "
                 "for its kernel.")
                  .arg(r.kernels.graphs.size())
                  .arg(r.samples())
                  .arg(QLocale().toString(elapsed_.isValid() ? elapsed_.elapsed() / 1000.0 : 0.0, 'f', 1)),
              false);
  Q_EMIT resultChanged();
}

void CostModelWindow::onBusyChanged(bool running) {
  measure_->setEnabled(session_.hasWorkspace() && !running);
  stop_->setEnabled(running);
  for (QAction* a : {chooseLearned_, chooseRoofline_, shipped_}) a->setEnabled(!running);
  kernels_->setEnabled(!running);
  repeats_->setEnabled(!running);
  progress_->setVisible(running);
  if (running) progress_->setRange(0, 0);  // busy until the first kernel is timed
}

void CostModelWindow::showMessage(const QString& text, bool error) {
  messageIsError_ = error;
  message_->setText(text);
  message_->setToolTip(text);
  message_->setStyleSheet(error ? QString::fromLatin1(kErrorStyle) : QString());
}

QString CostModelWindow::messageText() const { return message_->text(); }

QString CostModelWindow::summaryText() const { return summary_->text(); }

QAction* CostModelWindow::action(const char* name) const { return findChild<QAction*>(QString::fromLatin1(name)); }

void CostModelWindow::closeEvent(QCloseEvent* e) {
  session_.stop();
  e->accept();
}

}  // namespace gp
