// Must not compile: the session library sits below fidelity, which uses it (core/CMakeLists.txt).
#include "fidelity/fidelity.h"
