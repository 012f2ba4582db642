// The zoo's generators (internal to core/zoo; use zoo/zoo.h). Arguments are validated by
// makeZooModel before these run.
#pragma once
#include "graph/graph.h"

namespace gp::zoo {

Graph resnet50(int batch);
Graph inceptionV3(int batch);
Graph amoebanet(int batch);
Graph rnnlm(int batch, int steps);
Graph nmt(int batch, int steps);
Graph gnmt(int batch, int steps);
Graph bertBase(int batch, int seqLen);
Graph transformerXl(int batch, int seqLen);
Graph wavenet(int batch, int samples);

}  // namespace gp::zoo
