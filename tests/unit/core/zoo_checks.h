// What every zoo graph must be, whatever its size: a validated graph named after the model,
// ops in scopes below the model's, finite non-negative FLOPs, known shapes, every activation
// consumed except the outputs, every input and parameter consumed.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "graph/graph.h"

namespace gptest {

inline void expectWellFormedZooGraph(const gp::Graph& g, const std::string& name) {
  using namespace gp;
  EXPECT_EQ(g.name(), name);
  EXPECT_GT(g.totalFlops(), 0);
  EXPECT_GE(g.maxScopeDepth(), 3);
  std::set<std::string> names;
  int sinks = 0;
  for (OpId op = 0; op < g.numOps(); ++op) {
    const std::string& n = g.opName(op);
    EXPECT_TRUE(names.insert(n).second) << "duplicate op name " << n;
    EXPECT_EQ(n.rfind(name + "/", 0), 0u) << n;
    EXPECT_GE(g.scopeDepth(g.opScope(op)), 2) << n;
    EXPECT_TRUE(std::isfinite(g.flops(op)) && g.flops(op) >= 0) << n;
    sinks += g.fanOut(op).empty();
  }
  EXPECT_EQ(sinks, name == "bert_base" ? 2 : 1);  // the logits (BERT: masked-LM and next-sentence)
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    const std::string& n = g.tensorName(t);
    ASSERT_TRUE(g.hasShape(t)) << n;
    EXPECT_GT(g.tensorBytes(t), 0) << n;
    if (g.tensorKind(t) == TensorKind::Activation) {
      EXPECT_EQ(g.dtype(t), DType::F32) << n;
      // every activation feeds something, except the model outputs
      if (g.consumers(t).empty()) {
        EXPECT_TRUE(g.fanOut(g.producer(t)).empty()) << n;
      }
    } else {
      EXPECT_FALSE(g.consumers(t).empty()) << "unused " << n;
      EXPECT_TRUE(g.dtype(t) == DType::F32 || g.dtype(t) == DType::I32) << n;
    }
  }
}

}  // namespace gptest
