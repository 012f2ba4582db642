// File ▸ Export: every file the app writes, written atomically (QSaveFile: a failed or
// cancelled write leaves the old file as it was). Each function returns an empty string on
// success, else one line naming the file and the problem.
#pragma once
#include <QRectF>
#include <QString>
#include <functional>

class QPainter;

namespace gp {

class Document;

QString writeFileAtomically(const QString& path, const QByteArray& bytes);

// The annotated placement file (docs/formats.md, "Placement file") of the current plan.
QString exportPlacement(const Document& doc, const QString& path);
// A copy of the input ONNX model with each node's device, priority and fusion group.
QString exportAnnotatedOnnx(const Document& doc, const QString& path);
// Graphviz DOT of the graph, nodes filled with their device's colour.
QString exportDot(const Document& doc, const QString& path);
// Chrome Trace Event JSON of the current plan's timeline (Perfetto, chrome://tracing).
QString exportChromeTrace(const Document& doc, const QString& path);
// A picture of a view: .svg (vector, QSvgGenerator) or any raster format Qt writes (.png).
// `render` paints the whole view into the given rectangle.
QString exportImage(const std::function<void(QPainter*, const QRectF&)>& render, const QSizeF& size,
                    const QString& path);

}  // namespace gp
