// Placement files for a known model: the JSON placement file and the annotated ONNX model, both
// read against tests/data/onnx/mlp.onnx as the app reads a placement for the open model (hash
// mismatches allowed, so the checks behind the hash are reached too).
#include "fuzz_target.h"
#include "io/model_loader.h"
#include "onnxio/onnx_export.h"
#include "io/placement_file.h"

namespace {

const gp::Graph& mlp() {
  static const gp::Graph g = gp::loadModel(GP_TEST_DATA_DIR "/onnx/mlp.onnx");
  return g;
}

}  // namespace

GP_FUZZ_TARGET(placement_json) {
  gp::ModelIdentity identity{GP_TEST_DATA_DIR "/onnx/mlp.onnx", "0", mlp().numOps()};
  gp::parsePlacement(gp::fuzz::text(data, size), "placement.json", mlp(), identity, /*allowHashMismatch=*/true);
}

GP_FUZZ_TARGET(onnx_placement) { gp::readOnnxPlacement(gp::fuzz::text(data, size), mlp(), "placement.onnx"); }
