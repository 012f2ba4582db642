#include "parallel_export.h"

#include <QObject>
#include <algorithm>

#include "exporter.h"
#include "parallel/deepspeed_launch.h"
#include "parallel/megatron_launch.h"
#include "parallel/nemo_launch.h"
#include "parallel/parallel_search.h"
#include "parallel/parallel_trace.h"
#include "parallel/torchtitan_launch.h"
#include "parallel_session.h"

namespace gp {

namespace {

template <class Fn>
QString exportWith(const ParallelSession& s, const QString& path, Fn makeText) {
  if (!s.hasTask()) return QStringLiteral("%1: %2").arg(path, QObject::tr("no parallel plan is shown"));
  try {
    return writeFileAtomically(path, QByteArray::fromStdString(makeText(*s.task())));
  } catch (const std::exception& e) {
    return QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
  }
}

}  // namespace

QString exportParallelPlan(const ParallelSession& s, const QString& path) {
  return exportWith(s, path, [&s](const ParallelTask& t) {
    return parallelPlanJson({s.modelSpec().toStdString(), t.c.name(), s.state().batch, s.state().plan}, t.c);
  });
}

QString exportParallelLaunch(const ParallelSession& s, const QString& path, const std::string& format, QStringList* inexact) {
  return exportWith(s, path, [&](const ParallelTask& t) {
    LaunchContext ctx;
    ctx.stack = &t.stack;
    ctx.globalBatch = s.state().batch;
    ctx.devicesPerServer = devicesPerServer(t.c);
    ctx.model = s.modelSpec().toStdString();
    ctx.cluster = t.c.name();
    const ParallelMeasurement& m = s.measurement();
    if (m.feasible && m.stepTime > 0) {
      ctx.stepSeconds = m.stepTime;
      for (int64_t bytes : m.peakMemory) ctx.peakGiB = std::max(ctx.peakGiB, static_cast<double>(bytes) / (1u << 30));
    }
    const ParallelPlan& p = s.state().plan;
    const LaunchFile f = format == "nemo"         ? exportNemo(p, ctx)
                         : format == "nemo1"      ? exportNemo1(p, ctx)
                         : format == "torchtitan" ? exportTorchtitan(p, ctx)
                         : format == "deepspeed"  ? exportDeepSpeed(p, ctx)
                                                  : exportMegatron(p, ctx);
    if (inexact)
      for (const std::string& n : f.inexact) inexact->push_back(QString::fromStdString(n));
    return f.text;
  });
}

QString exportParallelTrace(const ParallelSession& s, const QString& path) {
  return exportWith(s, path, [&s](const ParallelTask& t) {
    return parallelTraceJson(s.measurement(), s.state().plan, t.c, s.modelSpec().toStdString());
  });
}

}  // namespace gp
