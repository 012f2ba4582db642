// The Parallel Plan window's files, written atomically (QSaveFile, exporter.h): the plan file
// (parallelPlanJson: `graphplace-cli parallelize --plan` reads it), the Chrome trace of the
// simulated step (parallelTraceJson) and the plan as a framework's launch configuration
// (core/parallel/*_launch.h). Each returns "" on success, else one line naming the file.
#pragma once
#include <QString>
#include <QStringList>
#include <string>

namespace gp {

class ParallelSession;

QString exportParallelPlan(const ParallelSession& s, const QString& path);
QString exportParallelTrace(const ParallelSession& s, const QString& path);
// `format`: "megatron", "nemo", "nemo1", "torchtitan", "deepspeed"; `inexact` gets what the
// framework cannot express exactly.
QString exportParallelLaunch(const ParallelSession& s, const QString& path, const std::string& format, QStringList* inexact);

}  // namespace gp
