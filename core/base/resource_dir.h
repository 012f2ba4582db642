// Where graphplace's data folders are found at run time: $GP_RESOURCE_DIR/NAME, else
// <exe>/../share/graphplace/NAME (an installed tree), else SOURCE_PATH in a folder above the
// executable (a build tree inside the source tree: build/release/app, ...).
//
//   std::string dir = findResourceDir("clusters", "resources/clusters");   // "" if none exists
#pragma once
#include <string>

namespace gp {

std::string findResourceDir(const std::string& name, const std::string& sourcePath);

}  // namespace gp
