#include "document.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QThread>
#include <algorithm>
#include <chrono>

#include "fusion/fuser.h"
#include "base/error.h"
#include "placement/placer.h"
#include "plan_commands.h"
#include "plan_edits.h"
#include "session/cluster_spec.h"
#include "sim/simulator.h"

namespace gp {

namespace {

struct OpenResult {
  std::shared_ptr<const Workspace> ws;
};

struct BaselineOutcome {
  QString method, note;
  Plan plan;
  Measurement measurement;
  double seconds = 0;
  QString error;
};

Measurement simulate(const Workspace& ws, const Plan& plan) {
  Simulator sim(*ws.cost);
  return sim.run(plan, true);
}

}  // namespace

Document::Document(QObject* parent) : QObject(parent) {
  // Its own threads: a long baseline never waits behind (or blocks) the views' layout jobs.
  pool_.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
  progressTimer_.setInterval(100);
  connect(&progressTimer_, &QTimer::timeout, this, &Document::pollProgress);
  // A real measurement shows one plan: any edit (undo, redo, optimizer) makes it stale.
  connect(this, &Document::planChanged, this, [this] {
    if (gpu_.hasResult() && gpu_.plan() != plan_) clearGpuMeasurement();
  });
}

Document::~Document() {
  if (baselineJob_) baselineJob_->cancel = true;
  optimizer_.cancel();
  gpu_.cancel();
}

QStringList Document::deviceNames() const {
  QStringList names;
  if (const Cluster* c = cluster())
    for (int d = 0; d < c->numDevices(); ++d) names << QString::fromStdString(c->device(d).name);
  return names;
}

std::vector<int> Document::opsPerDevice() const {
  std::vector<int> counts(cluster() ? static_cast<size_t>(cluster()->numDevices()) : 0, 0);
  for (int32_t d : plan_.device)
    if (d >= 0 && static_cast<size_t>(d) < counts.size()) ++counts[static_cast<size_t>(d)];
  return counts;
}

// ---------------------------------------------------------------- background bookkeeping

int Document::beginTask(const QString& text) {
  const int id = tasks_.begin(text);
  if (tasks_.size() == 1) {
    progressTimer_.start();
    Q_EMIT busyChanged(true);
  }
  Q_EMIT progress(-1, text);
  return id;
}

void Document::endTask(int id) {
  tasks_.end(id);
  if (!tasks_.empty()) {  // the newest task still running names what the app is doing
    Q_EMIT progress(-1, tasks_.newestText());
    return;
  }
  progressTimer_.stop();
  Q_EMIT busyChanged(false);
  Q_EMIT idle();
}

void Document::failOpen(const QString& message) {
  Q_EMIT failed(message);
  Q_EMIT openFailed(message);
}

void Document::pollProgress() {
  if (optimizer_.running()) pollOptimizer(false);
  if (gpu_.running() && !baselineJob_ && !optimizer_.running())
    if (const QString line = gpu_.job()->currentText(); !line.isEmpty()) Q_EMIT progress(-1, line);
  if (!baselineJob_) return;
  int total = baselineJob_->total.load();
  if (total <= 0) return;
  Q_EMIT progress(100 * baselineJob_->done.load() / total, baselineJob_->currentText());
}

bool Document::waitUntilIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (isBusy() && !deadline.hasExpired()) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  return !isBusy();
}

// ---------------------------------------------------------------- opening

void Document::open(const OpenRequest& request) {
  std::shared_ptr<const Cluster> cluster;
  QString clusterLabel;
  const QString& pending = chosenCluster_.pending();
  const QString clusterSpec = !request.cluster.isEmpty() ? request.cluster
                              : ws_                      ? ws_->clusterLabel
                              : !pending.isEmpty()       ? pending
                                                         : QString::fromLatin1(kDefaultCluster);
  if (ws_ && request.cluster.isEmpty()) {
    cluster = ws_->cluster;
    clusterLabel = ws_->clusterLabel;
  } else {
    try {
      cluster = std::make_shared<const Cluster>(loadClusterSpec(clusterSpec.toStdString()));
      clusterLabel = clusterSpec;
    } catch (const std::exception& e) {
      failOpen(QString::fromStdString(e.what()));
      return;
    }
  }
  LoadOptions options;
  options.mode = request.mode;
  options.import.dims = request.dims;
  options.precision = request.precision;
  const int task = beginTask(tr("Opening %1…").arg(request.model));
  Q_EMIT openStarted(request.model, options, cluster);
  const int64_t open = opens_.start();
  const int64_t clusterChoice = chosenCluster_.token();
  startJob(
      this, &pool_,
      [model = request.model, options, cluster, clusterLabel, cal = calibration_.table(),
       calLabel = calibration_.label()] {
        return OpenResult{loadWorkspace(model, options, cluster, clusterLabel, cal, calLabel)};
      },
      [this, open, clusterChoice, request, task](JobResult<OpenResult> r) {
        if (!opens_.isCurrent(open)) {  // a newer open superseded this one
          endTask(task);
          return;
        }
        if (!r.value) {
          failOpen(r.error);
          endTask(task);
          return;
        }
        // A cluster or calibration table chosen while it opened applies to it (the last choice wins).
        std::shared_ptr<const Workspace> ws = r.value->ws;
        try {
          if (chosenCluster_.chosenSince(clusterChoice)) {
            Workspace base = *ws;
            base.calibration = calibration_.table();
            base.calibrationLabel = calibration_.label();
            ws = withCluster(base, chosenCluster_.cluster(), chosenCluster_.label());
          } else if (ws->calibration != calibration_.table()) {
            ws = withCalibration(*ws, calibration_.table(), calibration_.label());
          }
        } catch (const std::exception& e) {
          failOpen(QString::fromStdString(e.what()));
          endTask(task);
          return;
        }
        chosenCluster_.opened();
        const int32_t numOps = ws->graph->numOps();
        resetWorkspace(std::move(ws), Plan::singleDevice(numOps), UndoSteps::Clear);
        Q_EMIT opened();
        Q_EMIT planChanged();
        finishOpen(request);
        endTask(task);
      });
}

void Document::finishOpen(const OpenRequest& request) {
  if (!request.placement.isEmpty()) {
    if (loadPlacement(request.placement, request.allowHashMismatch)) return;
    Q_EMIT openFailed(tr("%1: the placement file could not be applied").arg(request.placement));
  }
  if (!request.initialBaseline.isEmpty()) {
    runBaselines({request.initialBaseline});
    return;
  }
  // An LLM opens in the Parallel Plan view; all of it on one device is no plan to show first.
  if (ws_->parallelFirst) return;
  measure(tr("Single device (as opened)"), HistoryKind::Initial);
}

// The one reset after a new workspace (open, cluster switch, calibration table, a placement
// file with its own cluster): `plan` becomes the current plan, unmeasured; every job of the
// previous workspace stops and its result is dropped (the optimizer's plans index the old
// workspace); the GPU result goes (measured with another graph, cluster or cost model); the
// history restarts (step times of two workspaces do not compare); the undo stack goes unless
// `undo` keeps it; the selection goes with another graph. The caller says what changed
// (opened, clusterChanged, calibrationChanged, planChanged) and measures the plan.
void Document::resetWorkspace(std::shared_ptr<const Workspace> ws, Plan plan, UndoSteps undo) {
  const std::shared_ptr<const Workspace> previous = std::move(ws_);
  ws_ = std::move(ws);
  workspaces_.start();
  plan_ = std::move(plan);
  measured_.clear();
  clearGpuMeasurement();
  gpu_.cancel();
  if (baselineJob_) baselineJob_->cancel = true;
  optimizer_.cancel();
  optimizer_.end();
  // Said once per combination of table and cluster (not again for another model on them).
  if (!previous || previous->cluster != ws_->cluster || previous->calibration != ws_->calibration)
    warnIfCalibratesNothing();
  history_.clear();
  if (undo == UndoSteps::Clear) undo_.clear();
  if (!previous || previous->graph != ws_->graph) selection_.clear();
}

bool Document::setCluster(const QString& presetOrPath) {
  std::shared_ptr<const Cluster> c;
  try {
    c = std::make_shared<const Cluster>(loadClusterSpec(presetOrPath.toStdString()));
  } catch (const std::exception& e) {
    Q_EMIT failed(QString::fromStdString(e.what()));
    return false;
  }
  chosenCluster_.choose(c, presetOrPath, hasModel());  // an open still running uses it too
  if (!ws_) return true;
  switchCluster(std::move(c), presetOrPath);
  return true;
}

void Document::switchCluster(std::shared_ptr<const Cluster> c, const QString& presetOrPath) {
  // Keep each op on the device of the same name where the new cluster has one, else wrap around.
  const Cluster& old = *ws_->cluster;
  std::vector<int32_t> remap(static_cast<size_t>(old.numDevices()));
  for (int d = 0; d < old.numDevices(); ++d) {
    int nd = c->findDevice(old.device(d).name);
    remap[static_cast<size_t>(d)] = nd >= 0 ? nd : d % c->numDevices();
  }
  Plan plan = plan_;
  for (int32_t& d : plan.device)
    if (d >= 0 && static_cast<size_t>(d) < remap.size()) d = remap[static_cast<size_t>(d)];
  Workspace base = *ws_;  // the document's calibration table (useProfiledCluster may bring a new one)
  base.calibration = calibration_.table();
  base.calibrationLabel = calibration_.label();
  // Plans and step times of the old cluster do not compare with the new one's.
  resetWorkspace(withCluster(base, std::move(c), presetOrPath), std::move(plan), UndoSteps::Clear);
  Q_EMIT clusterChanged();
  Q_EMIT planChanged();
  measure(tr("Previous plan, on %1").arg(presetOrPath), HistoryKind::Initial);
}

// ---------------------------------------------------------------- selection and edits

void Document::setSelection(std::vector<OpId> ops) {
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  const int32_t n = graph() ? graph()->numOps() : 0;
  std::erase_if(ops, [n](OpId op) { return op < 0 || op >= n; });
  if (ops == selection_) return;
  selection_ = std::move(ops);
  Q_EMIT selectionChanged(selection_);
}

void Document::assignDevices(const std::vector<OpId>& ops, int device) {
  if (!ws_ || device < 0 || device >= ws_->cluster->numDevices() || refuses(JobKind::EditPlan)) return;
  // An op moves with its colocation group; ops leave fusion groups that do not move whole.
  const Graph& g = *ws_->graph;
  planedit::AssignResult r = planedit::assigned(g, plan_, ops, device);
  if (r.moved.empty()) return;
  const QString deviceName = QString::fromStdString(ws_->cluster->device(device).name);
  if (!r.leftFusion.empty()) {
    undo_.push(new ReplacePlanCommand(this, plan_, r.plan, AssignDevicesCommand::describe(g, r.moved, deviceName)));
    Q_EMIT warning(tr("%n moved op(s) left their fusion groups: ops on different devices never fuse.", nullptr,
                      static_cast<int>(r.leftFusion.size())));
    return;
  }
  undo_.push(new AssignDevicesCommand(this, std::move(r.moved), device, deviceName));
}

void Document::applyPlan(const Plan& plan, const QString& text) {
  if (!ws_ || plan.device.size() != plan_.device.size() || refuses(JobKind::EditPlan)) return;
  undo_.push(new ReplacePlanCommand(this, plan_, plan, text));
}

void Document::setPlanDevices(const std::vector<OpId>& ops, const std::vector<int32_t>& devices) {
  for (size_t i = 0; i < ops.size(); ++i) plan_.device[static_cast<size_t>(ops[i])] = devices[i];
  Q_EMIT planChanged();
}

void Document::replacePlan(const Plan& plan) {
  plan_ = plan;
  Q_EMIT planChanged();
}

bool Document::loadPlacement(const QString& path, bool allowHashMismatch) {
  if (!ws_ || refuses(JobKind::EditPlan)) return false;
  try {
    LoadedPlacement lp = readPlacement(path.toStdString(), *ws_->graph, ws_->identity, allowHashMismatch);
    if (std::string why = fusionProblem(*ws_->graph, lp.plan); !why.empty()) throw Error(path.toStdString(), why);
    if (lp.cluster.numDevices() != ws_->cluster->numDevices() || lp.cluster.name() != ws_->cluster->name()) {
      // The file's devices index its own (embedded) cluster: measure on that one.
      resetWorkspace(withCluster(*ws_, std::make_shared<const Cluster>(std::move(lp.cluster)), path), lp.plan,
                     UndoSteps::Clear);
      Q_EMIT clusterChanged();
      Q_EMIT planChanged();
    } else {
      applyPlan(lp.plan, tr("Open placement %1").arg(QFileInfo(path).fileName()));
    }
    for (const std::string& w : lp.warnings) Q_EMIT warning(QString::fromStdString(w));
    measure(tr("Placement file %1").arg(QFileInfo(path).fileName()), HistoryKind::File);
    return true;
  } catch (const std::exception& e) {
    Q_EMIT failed(QString::fromStdString(e.what()));
    return false;
  }
}

void Document::restoreHistoryEntry(int row) {
  if (row < 0 || row >= history_.count() || refuses(JobKind::EditPlan)) return;
  const HistoryEntry& e = history_.entry(row);
  applyPlan(e.plan, tr("Restore “%1”").arg(e.label));
  startMeasure(PendingHistory{});
}

// ---------------------------------------------------------------- measuring

void Document::measure(const QString& label, HistoryKind kind) {
  if (!ws_) return;
  QString text = label;
  if (text.isEmpty()) text = undo_.canUndo() ? undo_.undoText() : tr("Current plan");
  // The same plan as the newest history entry is not listed twice.
  const bool duplicate = history_.count() > 0 && history_.entry(history_.count() - 1).plan.device == plan_.device &&
                         history_.entry(history_.count() - 1).plan.priority == plan_.priority &&
                         history_.entry(history_.count() - 1).plan.fusionGroup == plan_.fusionGroup;
  startMeasure(PendingHistory{!duplicate, text, kind});
}

void Document::startMeasure(const PendingHistory& pending, bool quiet) {
  const int task = quiet ? -1 : beginTask(tr("Measuring…"));
  const int64_t workspace = workspaces_.current(), request = measured_.request();
  startJob(
      this, &pool_, [ws = ws_, plan = plan_] { return std::make_pair(plan, simulate(*ws, plan)); },
      [this, workspace, request, pending, task](JobResult<std::pair<Plan, Measurement>> r) {
        if (workspaces_.isCurrent(workspace) && measured_.isNewest(request)) {
          if (!r.value) {
            if (task >= 0) Q_EMIT failed(tr("Measuring failed: %1").arg(r.error));
          } else {
            measured_.set(std::move(r.value->first), std::move(r.value->second));
            if (pending.add) addHistory(pending.label, pending.kind, measured_.plan(), measured_.measurement(), 0);
            Q_EMIT measured();
          }
        }
        if (task >= 0) endTask(task);
      });
}

void Document::addHistory(const QString& label, HistoryKind kind, const Plan& plan, const Measurement& m,
                          double seconds) {
  HistoryEntry e;
  e.label = label;
  e.kind = kind;
  e.plan = plan;
  e.stepTime = m.stepTime;
  e.lowerBound = m.lowerBound;
  e.feasible = m.feasible;
  e.problem = QString::fromStdString(m.problem);
  e.seconds = seconds;
  e.when = QDateTime::currentDateTime();
  history_.add(std::move(e));
}

// ---------------------------------------------------------------- baselines

void Document::runBaselines(const QStringList& methods) {
  if (!ws_ || methods.isEmpty() || refuses(JobKind::Baselines)) return;
  if (baselineJob_) baselineJob_->cancel = true;
  auto job = std::make_shared<JobControl>();
  job->total = static_cast<int>(methods.size());
  baselineJob_ = job;
  const int task =
      beginTask(methods.size() == 1 ? tr("Running baseline %1…").arg(methods[0])
                                    : tr("Running %n baselines…", nullptr, static_cast<int>(methods.size())));
  const int64_t workspace = workspaces_.current();
  startJob(
      this, &pool_,
      [ws = ws_, methods, job] {
        std::vector<BaselineOutcome> out;
        Simulator sim(*ws->cost);
        for (const QString& method : methods) {
          if (job->cancel) break;
          job->setCurrent(tr("Baseline %1").arg(method));
          BaselineOutcome o;
          o.method = method;
          try {
            PlacementResult r = runPlacement(method.toStdString(), *ws->cost, sim);
            o.plan = std::move(r.plan);
            o.measurement = std::move(r.measurement);
            o.seconds = r.seconds;
            o.note = QString::fromStdString(r.note);
          } catch (const std::exception& e) {
            o.error = QString::fromStdString(e.what());
          }
          out.push_back(std::move(o));
          ++job->done;
        }
        return out;
      },
      [this, workspace, job, task](JobResult<std::vector<BaselineOutcome>> r) {
        // A run superseded by a newer one still lists its results, but does not apply them.
        const bool newest = baselineJob_ == job;
        if (newest) baselineJob_.reset();
        if (!workspaces_.isCurrent(workspace)) {
          endTask(task);
          return;
        }
        if (!r.value) {
          Q_EMIT failed(tr("Baselines failed: %1").arg(r.error));
          endTask(task);
          return;
        }
        const BaselineOutcome* best = nullptr;
        for (const BaselineOutcome& o : *r.value) {
          if (!o.error.isEmpty()) {
            Q_EMIT failed(o.error);
            continue;
          }
          addHistory(o.method, HistoryKind::Baseline, o.plan, o.measurement, o.seconds);
          if (!o.note.isEmpty()) Q_EMIT warning(QStringLiteral("%1: %2").arg(o.method, o.note));
          if (o.measurement.feasible && (!best || o.measurement.stepTime < best->measurement.stepTime)) best = &o;
        }
        // The best feasible result becomes the current plan (one undo step), already measured.
        if (best && newest) {
          applyPlan(best->plan, tr("Apply baseline %1").arg(best->method));
          measured_.supersede(best->plan, best->measurement);  // a measurement of an older plan is stale now
          Q_EMIT measured();
        } else if (newest && !measured_.has()) {  // nothing feasible: still show the plan's numbers
          measure(tr("Current plan"), HistoryKind::Initial);
        }
        if (newest && job->cancel) Q_EMIT warning(tr("Baselines cancelled"));
        endTask(task);
      });
}

void Document::cancel() {
  if (baselineJob_) baselineJob_->cancel = true;
  gpu_.cancel();
  cancelOptimize();
}

}  // namespace gp
