// Must not compile: the ONNX room sits below io, which loads models through it (core/CMakeLists.txt).
#include "io/model_loader.h"
