// The model importers, each through loadModel as the CLI and the app open a file: ONNX (with
// the training step derived, so shapes, FLOPs and the backward pass all see the input), DOT and
// graphplace's JSON graphs.
#include "fuzz_target.h"
#include "io/model_loader.h"

namespace {

void load(const uint8_t* data, size_t size, const char* extension, gp::GraphMode mode) {
  gp::LoadOptions options;
  options.mode = mode;
  gp::loadModel(gp::fuzz::inputFile(data, size, extension), options);
}

}  // namespace

GP_FUZZ_TARGET(onnx_model) { load(data, size, ".onnx", gp::GraphMode::Training); }
GP_FUZZ_TARGET(dot_graph) { load(data, size, ".dot", gp::GraphMode::Training); }
GP_FUZZ_TARGET(json_graph) { load(data, size, ".json", gp::GraphMode::Default); }
