// Must not compile: the cluster library does not depend on io (core/CMakeLists.txt).
#include "io/model_loader.h"
