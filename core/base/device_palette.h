// The colour of each device, shared by every view and export (graph view, legend, timeline,
// DOT export): Tableau's 10-colour palette, then golden-angle hues for devices 10 and up.
#pragma once
#include <cstdint>
#include <string>

namespace gp {

// "#rrggbb" for device `d` (d >= 0); the same device always gets the same colour.
std::string deviceColorHex(int d);
// 0xRRGGBB of the same colour.
uint32_t deviceColorRgb(int d);

}  // namespace gp
