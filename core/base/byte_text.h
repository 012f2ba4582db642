// Bytes as people read GPU memory: GiB, as GPU memory is sold and shown everywhere ("16 GB" P100
// = 16 GiB), with the decimals asked for: gibText(1.5 * 2^30, 2) == "1.50 GiB".
#pragma once
#include <cstdio>
#include <string>

namespace gp {

inline std::string gibText(double bytes, int decimals = 2) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*f GiB", decimals, bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace gp
