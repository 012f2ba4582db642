// Must not compile: the planner (parallel) does not depend on the session layer above it.
#include "session/parallel_methods.h"
