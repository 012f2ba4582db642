// Where graphplace's data folders (clusters, policies, published) are found at run time, first
// existing folder wins:
//   1. $GP_RESOURCE_DIR/NAME                    (an override)
//   2. <exe>/../share/graphplace/NAME           (an installed tree: <prefix>/bin, <prefix>/share)
//   3. SOURCE_PATH in a folder above the executable (a build tree inside a source tree)
//   4. SOURCE_PATH in the source tree this build was configured from (GP_SOURCE_DIR: a build
//      tree anywhere else)
//
//   std::string dir = findResourceDir("clusters", "resources/clusters");   // "" if none exists
#pragma once
#include <string>

namespace gp {

std::string findResourceDir(const std::string& name, const std::string& sourcePath);
// A file of the data folder `name` (found as above, source path resources/NAME); "" if absent.
std::string findResourceFile(const std::string& name, const std::string& file);

}  // namespace gp
