#include "cost_model_session.h"

#include <QFileInfo>

#include "background_job.h"
#include "base/error.h"
#include "base/file_text.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/dataset_maker.h"
#include "costmodel/op_predictions.h"
#include "optimize/cost_plugin.h"

namespace gp {

namespace {

// The model's name in kernel names, as `dataset make` gives it: a zoo name, or the file name.
std::string datasetName(const std::string& spec) {
  std::string name = spec.rfind("zoo:", 0) == 0 ? spec.substr(4) : spec;
  if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
  return name;
}

struct RunInput {
  std::shared_ptr<const Workspace> ws;
  std::string learned, roofline;
  CostModelSession::Options options;
};

CostModelResult measureAndPredict(const RunInput& in, JobControl& control) {
  const AnalyticCostModel fitted =
      AnalyticCostModel::parse(readFileText(in.roofline, "a fitted roofline"), in.roofline);
  auto source = cpuMeasurementSource(&control.cancel);
  DatasetMakeOptions o;
  o.kernels = true;
  o.plans = false;
  o.repeats = in.options.repeats;
  o.maxKernelsPerModel = in.options.maxKernels;
  const std::string spec = in.ws->modelSpec.toStdString();
  const DatasetModel model{datasetName(spec), modelFamily(spec), in.ws->graph.get()};
  MadeDatasets made = makeCostDatasets({model}, *source, o, [&control](const DatasetMakeReport& r) {
    control.total = static_cast<int>(r.total);
    control.done = static_cast<int>(r.done);
  });
  if (made.kernels.graphs.empty()) throw Error("costmodel", "the model has no kernel to measure");
  CostModelResult r;
  r.graph = in.ws->graph;
  r.deviceKind = QString::fromStdString(source->deviceKind());
  r.learnedPath = QString::fromStdString(in.learned);
  r.rooflinePath = QString::fromStdString(in.roofline);
  r.kernels = std::move(made.kernels);
  r.learned = predictCostsWith(in.learned, r.kernels);
  for (const CostGraph& g : r.kernels.graphs) r.roofline.push_back(fitted.predict(g, r.kernels.task, r.kernels.configWidth));
  r.learnedScores = scoreRanking(r.kernels, r.learned);
  r.rooflineScores = scoreRanking(r.kernels, r.roofline);
  r.opErrors = opPredictionErrors(*in.ws->cost, r.kernels, r.learned);
  return r;
}

}  // namespace

int64_t CostModelResult::samples() const {
  int64_t n = 0;
  for (const CostGraph& g : kernels.graphs) n += g.numConfigs();
  return n;
}

CostModelSession::CostModelSession(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(1);
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &CostModelSession::poll);
}

CostModelSession::~CostModelSession() {
  if (control_) control_->cancel = true;
  pool_.waitForDone();  // the source throws at its next timed run
}

void CostModelSession::setWorkspace(const std::shared_ptr<const Workspace>& ws) {
  const bool sameGraph = ws && ws_ && ws->graph == ws_->graph;
  ws_ = ws;
  if (sameGraph) return;
  stop();
  ++generation_;  // a running measurement's result is dropped
  result_.reset();
  error_.clear();
  Q_EMIT cleared();
}

QString CostModelSession::learnedModelPath() const {
  return learned_.isEmpty() ? QString::fromStdString(shippedCostModel(kShippedKernelModel)) : learned_;
}

QString CostModelSession::rooflinePath() const {
  return roofline_.isEmpty() ? QString::fromStdString(shippedCostModel(kShippedRoofline)) : roofline_;
}

QString CostModelSession::fail(const QString& line) {
  error_ = line;
  Q_EMIT failed(line);
  return line;
}

QString CostModelSession::start(const Options& options) {
  if (control_) return fail(tr("A measurement is already running"));
  if (!ws_) return fail(tr("No model is open"));
  const QString learned = learnedModelPath(), roofline = rooflinePath();
  if (learned.isEmpty())
    return fail(tr("The shipped learned model %1 is missing (resources/costmodels): choose one with Learned Model…")
                    .arg(QString::fromLatin1(kShippedKernelModel)));
  if (roofline.isEmpty())
    return fail(tr("The shipped roofline %1 is missing (resources/costmodels): choose one with Roofline…")
                    .arg(QString::fromLatin1(kShippedRoofline)));
  for (const QString& f : {learned, roofline})
    if (!QFileInfo(f).isFile()) return fail(tr("%1: no such file").arg(f));
  error_.clear();
  auto control = std::make_shared<JobControl>();
  control_ = control;
  const int64_t generation = ++generation_;
  RunInput in{ws_, learned.toStdString(), roofline.toStdString(), options};
  startJob(this, &pool_, [in, control] { return measureAndPredict(in, *control); },
           [this, generation, control](JobResult<CostModelResult> r) {
             if (control_ == control) control_.reset();
             poll_.stop();
             Q_EMIT busyChanged(false);
             if (generation != generation_) return;  // another graph since
             if (control->cancel) {
               Q_EMIT stopped();
               return;
             }
             if (!r.value) {
               fail(r.error);
               return;
             }
             result_ = std::make_unique<CostModelResult>(std::move(*r.value));
             Q_EMIT finished();
           });
  poll_.start();
  Q_EMIT started();
  Q_EMIT busyChanged(true);
  return {};
}

void CostModelSession::stop() {
  if (control_) control_->cancel = true;
}

void CostModelSession::poll() {
  if (control_) Q_EMIT progress(control_->done, control_->total);
}

}  // namespace gp
