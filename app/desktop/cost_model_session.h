// CostModelSession: the model object of the Cost Model window — the open model's kernels
// measured on this machine's CPU (makeCostDatasets over the LibTorch plugin's CPU source,
// kernels only, bounded by a kernel limit and repeats) in the background, then predicted by the
// learned kernel model (predictCostsWith) and by the fitted roofline (AnalyticCostModel), scored
// per kernel over its configurations (scoreRanking), and read back per op of the graph
// (opPredictionErrors: the learned model's |ln(predicted / measured)| at the canonical
// configuration).
//
// The model files are the shipped ones (resources/costmodels: cpu_kernel.pt and
// cpu_roofline.json) unless the user chose others. A missing file is refused before anything
// runs; every other problem (no plugin, an unreadable model, a model with no kernel to measure)
// ends the run with failed(one line). stop() cancels the measurement within one timed run
// (stopped()). A new workspace stops a run and drops its result; destroying the session waits
// for the worker.
//
//   CostModelSession s;
//   s.setWorkspace(document.workspace());
//   s.start({40, 3});   // async -> finished() (result()), failed(line) or stopped()
#pragma once
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <memory>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/cost_eval.h"
#include "workspace.h"

namespace gp {

struct JobControl;

struct CostModelResult {
  std::shared_ptr<const Graph> graph;  // what was measured
  QString deviceKind;                  // "cpu:<model name> (N threads)"
  QString learnedPath, rooflinePath;   // the files that predicted
  CostDataset kernels;                 // the measured kernel graphs
  std::vector<std::vector<double>> learned, roofline;  // [graph][configuration] seconds
  RankingScores learnedScores, rooflineScores;
  std::vector<double> opErrors;  // per op of graph: the learned model's |ln(pred / measured)|, NaN: not measured
  int64_t samples() const;       // (kernel, configuration) pairs
};

class CostModelSession : public QObject {
  Q_OBJECT
 public:
  struct Options {
    int maxKernels = 40;  // distinct kernels measured (evenly spaced over the model)
    int repeats = 3;      // timed runs per configuration (the median is kept)
  };
  static constexpr const char* kShippedKernelModel = "cpu_kernel.pt";
  static constexpr const char* kShippedRoofline = "cpu_roofline.json";

  explicit CostModelSession(QObject* parent = nullptr);
  ~CostModelSession() override;

  // Measures this workspace's graph from now on; a run stops and the result goes unless the
  // graph is the same one (another cluster or calibration table).
  void setWorkspace(const std::shared_ptr<const Workspace>& ws);
  bool hasWorkspace() const { return ws_ != nullptr; }
  QString modelSpec() const { return ws_ ? ws_->modelSpec : QString(); }

  // The model files; empty: the shipped one.
  void setLearnedModel(const QString& path) { learned_ = path; }
  void setRoofline(const QString& path) { roofline_ = path; }
  QString chosenLearnedModel() const { return learned_; }
  QString chosenRoofline() const { return roofline_; }
  // The file a run would use: the chosen one, else the shipped one ("" when it is missing).
  QString learnedModelPath() const;
  QString rooflinePath() const;

  // Starts measuring; returns "" when started, else the one-line reason (also failed()).
  QString start(const Options& options);
  void stop();
  bool isRunning() const { return control_ != nullptr; }
  const CostModelResult* result() const { return result_.get(); }
  QString lastError() const { return error_; }

 Q_SIGNALS:
  void started();
  void progress(int done, int total);  // kernels measured so far (while running)
  void finished();                     // result() is new
  void failed(const QString& line);
  void stopped();
  void cleared();  // a new graph: no result
  void busyChanged(bool running);

 private:
  QString fail(const QString& line);
  void poll();

  std::shared_ptr<const Workspace> ws_;
  QString learned_, roofline_;
  std::shared_ptr<JobControl> control_;  // of the run in progress
  std::unique_ptr<CostModelResult> result_;
  QString error_;
  int64_t generation_ = 0;  // a new one with every run and every new graph: older results are dropped
  QTimer poll_;
  QThreadPool pool_;
};

}  // namespace gp
