#include "parallel_export.h"

#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <stdexcept>

#include "base/error.h"
#include "base/file_text.h"
#include "exporter.h"
#include "launch/launch_precision.h"
#include "parallel/parallel_search.h"
#include "parallel/parallel_trace.h"
#include "parallel_session.h"
#include "session/launch_files.h"

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

// The precision a launch file trains in, where this view simulates another (the view keeps the
// precision it opened in; `parallelize --config` simulates the file's own): one line, or empty.
std::string precisionDifference(const ParallelTask& t, const std::string& text, const std::string& file) {
  const std::optional<LaunchPrecision> lp = launchConfigPrecision(text, file);
  if (!lp) return {};
  auto activations = [](Precision p) {
    return p == Precision::FP16 ? DType::F16 : p == Precision::BF16 || p == Precision::FP8 ? DType::BF16 : DType::F32;
  };
  const DType shown = t.stack.activationType;
  if (activations(lp->precision) == shown) return {};
  const char* simulated = shown == DType::F16 ? "fp16" : shown == DType::BF16 ? "bf16" : "fp32";
  return QObject::tr("the file trains in %1 (%2), this view simulates %3; graphplace-cli parallelize --config simulates "
                     "it in the file's")
      .arg(QString::fromUtf8(precisionName(lp->precision).data(), static_cast<qsizetype>(precisionName(lp->precision).size())),
           QString::fromStdString(lp->said), QString::fromLatin1(simulated))
      .toStdString();
}

}  // namespace

QString exportParallelPlan(const ParallelSession& s, const QString& path) {
  return exportWith(s, path, [&s](const ParallelTask& t) {
    return parallelPlanJson({s.modelSpec().toStdString(), t.c.name(), s.state().batch, s.state().plan}, t.c);
  });
}

QString exportParallelLaunch(const ParallelSession& s, const QString& path, const std::string& format, QStringList* inexact) {
  if (!s.hasTask()) return QStringLiteral("%1: %2").arg(path, QObject::tr("no parallel plan is shown"));
  try {
    const LaunchContext ctx = launchContextFor(*s.task(), s.modelSpec().toStdString(), s.state().batch, s.measurement());
    const std::vector<std::string> notes = writeLaunchExport(format, path.toStdString(), s.state().plan, ctx);
    if (inexact)
      for (const std::string& n : notes) inexact->push_back(QString::fromStdString(n));
    return {};
  } catch (const Error& e) {
    return QString::fromStdString(e.what());  // names the file
  } catch (const std::exception& e) {
    return QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
  }
}

QString importParallelLaunch(ParallelSession& s, const QString& path, QStringList* approximated) {
  if (!s.hasTask()) return QStringLiteral("%1: %2").arg(path, QObject::tr("no parallel plan is shown"));
  try {
    const ParallelTask& t = *s.task();
    const std::string file = path.toStdString();
    const LaunchImport r = readLaunchConfigFile(file, t);
    const std::string precision = precisionDifference(t, readFileText(file, "launch configuration"), file);
    const QString refused = s.edit({r.globalBatch, r.plan}, QObject::tr("Import %1").arg(QFileInfo(path).fileName()));
    if (!refused.isEmpty()) return QStringLiteral("%1: %2").arg(path, refused);
    if (approximated) {
      for (const std::string& a : r.approximated) approximated->push_back(QString::fromStdString(a));
      if (!precision.empty()) approximated->push_back(QString::fromStdString(precision));
    }
    return {};
  } catch (const Error& e) {
    return QString::fromStdString(e.what());  // names the file
  } catch (const std::exception& e) {
    return QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
  }
}

QString exportParallelTrace(const ParallelSession& s, const QString& path) {
  return exportWith(s, path, [&s](const ParallelTask& t) {
    return parallelTraceJson(s.measurement(), s.state().plan, t.c, s.modelSpec().toStdString());
  });
}

}  // namespace gp
