#include "exporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "document.h"
#include "io/chrome_trace.h"
#include "io/dot_export.h"
#include "onnxio/onnx_export.h"
#include "io/placement_file.h"
#include "sim/simulator.h"

namespace gp {

namespace {

QString fail(const QString& path, const QString& problem) { return QStringLiteral("%1: %2").arg(path, problem); }

// The measurement of the current plan: the document's if it is current, else simulated now
// (one simulation: milliseconds even for 80k ops).
Measurement currentMeasurement(const Document& doc) {
  if (doc.measurementIsCurrent()) return doc.measurement();
  Simulator sim(*doc.workspace()->cost);
  return sim.run(doc.plan(), true);
}

template <class Fn>
QString exportWith(const Document& doc, const QString& path, Fn makeBytes) {
  if (!doc.hasModel()) return fail(path, QObject::tr("no model is open"));
  try {
    return writeFileAtomically(path, makeBytes());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

QByteArray bytesOf(const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return fail(path, file.errorString());
  if (file.write(bytes) != bytes.size()) {
    file.cancelWriting();
    return fail(path, file.errorString());
  }
  if (!file.commit()) return fail(path, file.errorString());
  return {};
}

QString exportPlacement(const Document& doc, const QString& path) {
  return exportWith(doc, path, [&] {
    const Workspace& ws = *doc.workspace();
    return bytesOf(placementToJson(*ws.graph, ws.identity, *ws.cluster, doc.plan(), currentMeasurement(doc)));
  });
}

QString exportAnnotatedOnnx(const Document& doc, const QString& path) {
  return exportWith(doc, path, [&] {
    const Workspace& ws = *doc.workspace();
    const Measurement m = currentMeasurement(doc);
    return bytesOf(annotatedOnnx(ws.modelSpec.toStdString(), *ws.graph, doc.plan(), *ws.cluster, &m));
  });
}

QString exportDot(const Document& doc, const QString& path) {
  return exportWith(doc, path, [&] {
    const Workspace& ws = *doc.workspace();
    return bytesOf(graphToDot(*ws.graph, doc.plan(), *ws.cluster));
  });
}

QString exportChromeTrace(const Document& doc, const QString& path) {
  return exportWith(doc, path, [&] {
    const Workspace& ws = *doc.workspace();
    return bytesOf(timelineToChromeTrace(*ws.graph, *ws.cluster, currentMeasurement(doc)));
  });
}

QString exportImage(const std::function<void(QPainter*, const QRectF&)>& render, const QSizeF& size,
                    const QString& path) {
  if (size.isEmpty()) return fail(path, QObject::tr("nothing to draw"));
  const QRectF target(QPointF(0, 0), size);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size.toSize());
    svg.setViewBox(target);
    svg.setTitle(QFileInfo(path).completeBaseName());
    QPainter p(&svg);
    render(&p, target);
    p.end();
  } else {
    QImage image(size.toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    render(&p, target);
    p.end();
    const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    if (!image.save(&buffer, format.isEmpty() ? "png" : format.constData()))
      return fail(path, QObject::tr("cannot write images of type “%1”").arg(QString::fromLatin1(format)));
  }
  buffer.close();
  return writeFileAtomically(path, bytes);
}

}  // namespace gp
