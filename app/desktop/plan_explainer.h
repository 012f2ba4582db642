// PlanExplainer: why the current plan's step takes as long as it does, kept up to date in the
// background. Each measurement handed to explain() is analysed first (the critical path and
// slack, sim/critical_path.h: analysisReady), then the moves that would shorten it are looked
// for (sim/suggestions.h: suggestionsReady); a newer explain() or clear() cancels what runs and
// drops its results.
#pragma once
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <memory>
#include <vector>

#include "sim/critical_path.h"
#include "sim/plan.h"
#include "sim/suggestions.h"
#include "workspace.h"

namespace gp {

class PlanExplainer : public QObject {
  Q_OBJECT
 public:
  explicit PlanExplainer(QObject* parent = nullptr);
  ~PlanExplainer() override;  // cancels and waits for the jobs

  void explain(std::shared_ptr<const Workspace> ws, const Plan& plan, const Measurement& m);
  void clear();

  bool hasAnalysis() const { return hasAnalysis_; }
  const StepAnalysis& analysis() const { return analysis_; }
  const Plan& plan() const { return plan_; }  // the plan explained
  const Measurement& measurement() const { return measurement_; }
  bool searching() const { return searching_; }
  const std::vector<Suggestion>& suggestions() const { return suggestions_; }
  int tried() const { return tried_; }  // plans simulated for the suggestions

 Q_SIGNALS:
  void analysisReady();
  void suggestionsReady();
  void failed(const QString& message);

 private:
  QThreadPool pool_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  int request_ = 0;
  bool hasAnalysis_ = false, searching_ = false;
  StepAnalysis analysis_;
  Plan plan_;
  Measurement measurement_;
  std::vector<Suggestion> suggestions_;
  int tried_ = 0;
};

}  // namespace gp
