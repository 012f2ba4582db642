// Names the app registers with Qt (QSettings paths, window titles).
#pragma once

namespace gp {
inline constexpr const char* kOrganization = "graphplace";
inline constexpr const char* kApplication = "graphplace";
}  // namespace gp
