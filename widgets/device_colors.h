// Device colours for Qt views (core/base/device_palette.h) and the drag-and-drop format that
// carries op ids between views (graph view -> device legend).
#pragma once
#include <QColor>
#include <QMimeData>
#include <cstring>
#include <cstdint>
#include <vector>

#include "base/device_palette.h"

namespace gp {

inline QColor deviceColor(int d) { return QColor::fromRgb(deviceColorRgb(d)); }

// Black or white, whichever reads better on `c`.
inline QColor textColorOn(const QColor& c) {
  const double luma = 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF();
  return luma > 0.6 ? QColor(20, 20, 20) : QColor(Qt::white);
}

// Mime type of a drag holding op ids (little-endian int32 array).
inline constexpr const char* kOpsMimeType = "application/x-graphplace-ops";

inline QMimeData* opsToMime(const std::vector<int32_t>& ops) {
  auto* mime = new QMimeData;
  mime->setData(kOpsMimeType, QByteArray(reinterpret_cast<const char*>(ops.data()),
                                          static_cast<qsizetype>(ops.size() * sizeof(int32_t))));
  return mime;
}

inline std::vector<int32_t> opsFromMime(const QMimeData* mime) {
  std::vector<int32_t> ops;
  if (!mime || !mime->hasFormat(kOpsMimeType)) return ops;
  QByteArray data = mime->data(kOpsMimeType);
  ops.resize(static_cast<size_t>(data.size()) / sizeof(int32_t));
  std::memcpy(ops.data(), data.constData(), ops.size() * sizeof(int32_t));
  return ops;
}

}  // namespace gp
