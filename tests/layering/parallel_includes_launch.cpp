// Must not compile: the planner (parallel) does not see the launch formats built on it (core/CMakeLists.txt).
#include "launch/launch_formats.h"
