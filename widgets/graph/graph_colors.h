// Colours of the graph view's modes: fusion groups hashed to hues, and the gradient used for
// start time and op cost (perceptually ordered, dark blue -> yellow).
#pragma once
#include <QColor>
#include <cstdint>

namespace gp {

// A stable colour per fusion group; grey for -1 (not fused).
QRgb fusionGroupColor(int32_t group);
// t in [0, 1] along the gradient.
QRgb gradientColor(double t);
// Neutral fill of an op without a value in the current mode.
inline constexpr QRgb kNoValueColor = 0xffc9ced6;
// `c` mixed with white: amount 0 -> c, 1 -> white.
QRgb lighten(QRgb c, double amount);
QRgb darken(QRgb c, double amount);

}  // namespace gp
