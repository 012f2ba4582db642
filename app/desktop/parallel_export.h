// The Parallel Plan window's files, written atomically (QSaveFile, exporter.h): the plan file
// (parallelPlanJson: `graphplace-cli parallelize --plan` reads it) and the Chrome trace of the
// simulated step (parallelTraceJson). Each returns "" on success, else one line naming the file.
#pragma once
#include <QString>

namespace gp {

class ParallelSession;

QString exportParallelPlan(const ParallelSession& s, const QString& path);
QString exportParallelTrace(const ParallelSession& s, const QString& path);

}  // namespace gp
