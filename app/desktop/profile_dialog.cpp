#include "profile_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMutex>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

#include "background_job.h"
#include "cluster/cluster.h"
#include "profile/profile_output.h"
#include "profile/profile_plugin.h"

namespace gp {

struct ProfileDialog::Shared {
  std::atomic<bool> cancel{false};
  QMutex mutex;
  QStringList lines;  // progress lines not shown yet (guarded by mutex)

  void add(const std::string& line) {
    QMutexLocker lock(&mutex);
    lines << QString::fromStdString(line);
  }
  QStringList take() {
    QMutexLocker lock(&mutex);
    QStringList out;
    out.swap(lines);
    return out;
  }
};

struct ProfileDialog::Outcome {
  ProfileResult result;
  ProfileSummary summary;
  QString text;  // profileSummaryText
};

ProfileDialog::ProfileDialog(QWidget* parent, Runner runner) : QDialog(parent) {
  setRunner(std::move(runner));
  setObjectName(QStringLiteral("profileDialog"));
  setWindowTitle(tr("Profile Local GPUs"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("Measures this machine's GPUs (matrix products, convolutions, memory bandwidth, "
                              "launch overhead, transfers between each pair) and makes a cluster file with a "
                              "calibration table from them. The GPUs should be otherwise idle."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  quick_ = new QCheckBox(tr("&Quick (fewer sizes and repetitions, about 10 s per GPU)"), this);
  quick_->setObjectName(QStringLiteral("quickBox"));
  quick_->setChecked(true);
  layout->addWidget(quick_);
  const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  log_ = new QPlainTextEdit(this);
  log_->setObjectName(QStringLiteral("profileLog"));
  log_->setReadOnly(true);
  log_->setFont(fixed);
  log_->setPlaceholderText(tr("Progress appears here, one line per step."));
  layout->addWidget(log_, 2);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("profileStatus"));
  layout->addWidget(status_);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("profileError"));
  error_->setTextFormat(Qt::PlainText);
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet(QStringLiteral("QLabel { color: #8a1c13; }"));
  error_->hide();
  layout->addWidget(error_);
  summary_ = new QPlainTextEdit(this);
  summary_->setObjectName(QStringLiteral("profileSummary"));
  summary_->setReadOnly(true);
  summary_->setFont(fixed);
  summary_->hide();
  layout->addWidget(summary_, 3);

  auto* buttons = new QDialogButtonBox(this);
  startButton_ = buttons->addButton(tr("&Start"), QDialogButtonBox::ActionRole);
  startButton_->setObjectName(QStringLiteral("startButton"));
  cancelButton_ = buttons->addButton(tr("&Cancel"), QDialogButtonBox::ActionRole);
  cancelButton_->setObjectName(QStringLiteral("cancelButton"));
  saveButton_ = buttons->addButton(tr("&Save Cluster…"), QDialogButtonBox::ActionRole);
  saveButton_->setObjectName(QStringLiteral("saveButton"));
  saveButton_->setToolTip(tr("Write the cluster file and its calibration table next to it, and use them"));
  closeButton_ = buttons->addButton(QDialogButtonBox::Close);
  layout->addWidget(buttons);
  connect(startButton_, &QPushButton::clicked, this, &ProfileDialog::start);
  connect(cancelButton_, &QPushButton::clicked, this, &ProfileDialog::cancel);
  connect(saveButton_, &QPushButton::clicked, this, &ProfileDialog::chooseAndSave);
  connect(closeButton_, &QPushButton::clicked, this, &ProfileDialog::reject);
  logTimer_ = new QTimer(this);
  logTimer_->setInterval(100);
  connect(logTimer_, &QTimer::timeout, this, &ProfileDialog::drainLog);
  resize(720, 520);
  updateButtons();
}

ProfileDialog::~ProfileDialog() {
  if (shared_) shared_->cancel = true;  // the worker finishes on its own, its result unseen
}

void ProfileDialog::setRunner(Runner runner) {
  runner_ = std::move(runner);
  if (!runner_)
    runner_ = [](const ProfileOptions& o, const ProfileProgressFn& progress, const std::atomic<bool>* cancel) {
      return runProfile(o, progress, cancel);
    };
}

QString ProfileDialog::errorText() const {
  return error_->isHidden() ? QString() : error_->text();
}
QString ProfileDialog::summaryText() const {
  return outcome_ ? outcome_->text : QString();
}
QString ProfileDialog::logText() const {
  return log_->toPlainText();
}

QString ProfileDialog::calibrationPathFor(const QString& clusterPath) {
  const QFileInfo f(clusterPath);
  return f.dir().filePath(f.completeBaseName() + QStringLiteral(".calibration.json"));
}

void ProfileDialog::setBlockedReason(const QString& why) {
  if (why == blocked_) return;
  blocked_ = why;
  updateButtons();
}

void ProfileDialog::updateButtons() {
  startButton_->setEnabled(!running_ && blocked_.isEmpty());
  startButton_->setToolTip(blocked_);
  quick_->setEnabled(!running_);
  cancelButton_->setEnabled(running_ && !(shared_ && shared_->cancel));
  saveButton_->setEnabled(!running_ && outcome_ != nullptr);
}

void ProfileDialog::setError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

void ProfileDialog::start() {
  if (running_ || !blocked_.isEmpty()) return;
  auto shared = std::make_shared<Shared>();
  shared_ = shared;
  outcome_.reset();
  running_ = true;
  setError({});
  summary_->hide();
  summary_->clear();
  log_->clear();
  status_->setText(tr("Profiling…"));
  ProfileOptions options;
  options.quick = quick_->isChecked();
  logTimer_->start();
  updateButtons();
  Q_EMIT runStarted();
  startJob(
      this, QThreadPool::globalInstance(),
      [runner = runner_, options, shared]() -> std::shared_ptr<const Outcome> {
        auto out = std::make_shared<Outcome>();
        out->result = runner(
            options, [shared](const std::string& line) { shared->add(line); }, &shared->cancel);
        out->summary = summarizeProfile(out->result);
        out->text = QString::fromStdString(profileSummaryText(out->result, out->summary));
        return out;
      },
      [this, shared](JobResult<std::shared_ptr<const Outcome>> r) {
        if (shared != shared_) return;  // a newer run started meanwhile
        drainLog();
        logTimer_->stop();
        running_ = false;
        if (r.value) {
          outcome_ = *r.value;
          summary_->setPlainText(outcome_->text);
          summary_->show();
          status_->setText(tr("Done in %1 s. Save the cluster to use it.")
                               .arg(QString::number(outcome_->result.wallSeconds, 'f', 1)));
        } else {
          status_->setText(shared->cancel ? tr("Cancelled.") : tr("The profile failed."));
          setError(r.error);
        }
        updateButtons();
        Q_EMIT runFinished(r.value.has_value());
      });
}

void ProfileDialog::cancel() {
  if (!running_ || !shared_) return;
  shared_->cancel = true;
  status_->setText(tr("Cancelling…"));
  updateButtons();
}

void ProfileDialog::reject() {
  cancel();
  QDialog::reject();
}

void ProfileDialog::drainLog() {
  if (!shared_) return;
  for (const QString& line : shared_->take()) log_->appendPlainText(line);
}

void ProfileDialog::chooseAndSave() {
  if (!outcome_) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Cluster"), QStringLiteral("local-gpus.json"),
                                                    tr("Cluster files (*.json)"));
  if (!path.isEmpty()) saveTo(path);
}

QString ProfileDialog::saveTo(const QString& clusterPath) {
  if (!outcome_) return tr("Nothing to save: run the profile first.");
  const QString calPath = calibrationPathFor(clusterPath);
  QString written;
  try {
    const std::string path = clusterPath.toStdString();
    std::string name = QFileInfo(clusterPath).completeBaseName().toStdString();
    if (name.empty()) name = "profiled";
    const std::string text = profileClusterJson(outcome_->result, outcome_->summary, name);
    (void)parseClusterJson(text, path);  // what is written must load
    const CalibrationTable table = profileCalibration(outcome_->result, outcome_->summary);
    writeTextFileAtomically(path, text);
    if (!table.empty()) {
      writeTextFileAtomically(calPath.toStdString(), profileCalibrationJson(outcome_->result, table));
      written = calPath;
    }
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    setError(message);
    return message;
  }
  setError({});
  status_->setText(written.isEmpty() ? tr("Saved %1.").arg(clusterPath)
                                     : tr("Saved %1 and %2.").arg(clusterPath, written));
  Q_EMIT profileSaved(clusterPath, written);
  return {};
}

}  // namespace gp
