// ProfileDialog (Cluster ▸ Profile Local GPUs…): measures this machine's GPUs with the CUDA
// plugin (runProfile) on a worker thread — Quick or full, one log line per step of the
// profiler, Cancel — then shows the key figures (profileSummaryText) and offers Save Cluster…:
// the cluster file (named after the file) and its calibration table next to it
// ("NAME.json" + "NAME.calibration.json"). Once both are written, profileSaved(cluster,
// calibration) lets the window switch the document to them. A failed or cancelled run ends
// with its one-line error in the dialog; the dialog never touches the open document. While the
// window says the GPUs are busy (setBlockedReason: the plan runs on them, and the process has one
// CUPTI collector) Start is disabled with that reason as its tooltip, and start() does nothing.
//
//   ProfileDialog d(window);           // or ProfileDialog(window, runner) in tests
//   d.start();                         // as the Start button; progress in logText()
//   QString err = d.saveTo(path);      // as Save Cluster… once a run succeeded
#pragma once
#include <QDialog>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "profile/profile_result.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace gp {

class ProfileDialog : public QDialog {
  Q_OBJECT
 public:
  // What measures the GPUs: runProfile by default (tests hand in a synthetic profile).
  using Runner =
      std::function<ProfileResult(const ProfileOptions&, const ProfileProgressFn&, const std::atomic<bool>*)>;
  explicit ProfileDialog(QWidget* parent = nullptr, Runner runner = {});
  ~ProfileDialog() override;
  void setRunner(Runner runner);  // for the next start(); empty: runProfile

  void start();   // the Start button: a new run (Quick as the check box says); not while blocked
  // Non-empty: why no profile can start now (Start's tooltip); empty: Start is available again.
  void setBlockedReason(const QString& why);
  QString blockedReason() const { return blocked_; }
  void cancel();  // the Cancel button: the run stops at the profiler's next check
  bool isRunning() const { return running_; }
  bool hasProfile() const { return outcome_ != nullptr; }
  QString errorText() const;    // the last run's error in one line ("" when none)
  QString summaryText() const;  // the key figures of a successful run
  QString logText() const;      // the progress lines so far

  // Writes the cluster file at `clusterPath` (cluster name: the file's stem) and the calibration
  // table at calibrationPathFor(clusterPath) (none when the profile calibrated nothing), then
  // emits profileSaved. Returns the error ("" on success), which the dialog also shows.
  QString saveTo(const QString& clusterPath);
  static QString calibrationPathFor(const QString& clusterPath);  // a/b.json -> a/b.calibration.json

  QCheckBox* quickBox() const { return quick_; }
  QPushButton* startButton() const { return startButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QPushButton* saveButton() const { return saveButton_; }

 Q_SIGNALS:
  void profileSaved(const QString& clusterPath, const QString& calibrationPath);
  void runStarted();
  void runFinished(bool ok);  // a run ended (ok: a profile to save)

 protected:
  void reject() override;  // Close / Escape: a running profile is cancelled

 private:
  struct Shared;   // what the worker and the dialog share (progress lines, cancel flag)
  struct Outcome;  // a successful run: the result and its summary
  void chooseAndSave();
  void drainLog();
  void setError(const QString& message);
  void updateButtons();

  Runner runner_;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<const Outcome> outcome_;
  bool running_ = false;
  QString blocked_;
  QCheckBox* quick_;
  QPlainTextEdit* log_;
  QLabel* error_;
  QLabel* status_;
  QPlainTextEdit* summary_;
  QPushButton *startButton_, *cancelButton_, *saveButton_, *closeButton_;
  QTimer* logTimer_;
};

}  // namespace gp
