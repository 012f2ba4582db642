#include "file_kind.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace gp {

FileKind fileKindOf(const QString& path) {
  if (QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) != 0) return FileKind::Model;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return FileKind::Model;  // the loader reports the problem
  const QString head = QString::fromUtf8(f.read(64 * 1024));
  static const QRegularExpression format(QStringLiteral("\"format\"\\s*:\\s*\"([^\"]*)\""));
  // A placement file embeds a cluster (with its own "format"): any placement marker wins.
  bool cluster = false, any = false;
  for (auto it = format.globalMatch(head); it.hasNext();) {
    const QString name = it.next().captured(1);
    any = true;
    if (name == QLatin1String("graphplace-placement")) return FileKind::Placement;
    if (name == QLatin1String("graphplace-graph")) return FileKind::Model;
    cluster = cluster || name == QLatin1String("graphplace-cluster");
  }
  if (cluster) return FileKind::Cluster;
  if (!any && head.contains(QLatin1String("\"links\"")) && head.contains(QLatin1String("\"devices\"")))
    return FileKind::Cluster;
  return FileKind::Model;
}

}  // namespace gp
