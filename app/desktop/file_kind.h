// What a file the user opens or drops is: a model, a placement file or a cluster, decided by
// extension and, for .json, by the "format" field near the start of the file.
#pragma once
#include <QString>

namespace gp {

enum class FileKind { Model, Placement, Cluster };

FileKind fileKindOf(const QString& path);

}  // namespace gp
