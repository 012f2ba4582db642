// Must not compile: the graph library depends on base only (core/CMakeLists.txt).
#include "cost/cost_model.h"
