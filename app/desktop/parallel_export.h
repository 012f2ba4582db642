// The Parallel Plan window's files, read as a plan or written atomically (QSaveFile, exporter.h): the plan file
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
// `format`: one of launchExportFormats() (core/launch/launch_formats.h), torchtitan-py with its
// schedule CSV beside the file; `inexact` gets what the framework cannot express exactly.
QString exportParallelLaunch(const ParallelSession& s, const QString& path, const std::string& format, QStringList* inexact);
// A framework's launch configuration (importLaunchConfig) shown as the plan, one undo step;
// `approximated` gets the settings read approximately.
QString importParallelLaunch(ParallelSession& s, const QString& path, QStringList* approximated);

}  // namespace gp
