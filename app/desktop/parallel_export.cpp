#include "parallel_export.h"

#include <QObject>

#include "exporter.h"
#include "parallel/parallel_trace.h"
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

QString exportParallelTrace(const ParallelSession& s, const QString& path) {
  return exportWith(s, path, [&s](const ParallelTask& t) {
    return parallelTraceJson(s.measurement(), s.state().plan, t.c, s.modelSpec().toStdString());
  });
}

}  // namespace gp
