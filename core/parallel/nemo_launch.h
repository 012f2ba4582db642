// NeMo configurations for a parallel plan: the Megatron-LM settings of megatron_launch.h (the same
// rules, refusals and inexact parts: NeMo trains with Megatron-Core) under NeMo's names, as NeMo
// 2.0 recipe overrides (Python) and as a NeMo 1.x YAML fragment. Names are NeMo v2.4.0's
// (2381f42f6979449b5b99538f8f80135831009b51): nemo/collections/llm/recipes/llama3_8b.py and
// nemo/lightning/pytorch/strategies/megatron_strategy.py for 2.0,
// examples/nlp/language_modeling/conf/megatron_gpt_config.yaml for 1.x.
#pragma once

#include "parallel/launch_config.h"

namespace gp {

// NeMo 2.0: `recipe.trainer.strategy.tensor_model_parallel_size = 2`, ... for a recipe from
// nemo.collections.llm. Throws gp::Error("nemo", reason) for plans Megatron-Core rejects.
LaunchFile exportNemo(const ParallelPlan& p, const LaunchContext& ctx);
// NeMo 1.x: the `trainer:` and `model:` keys of megatron_gpt_config.yaml. Throws
// gp::Error("nemo1", reason).
LaunchFile exportNemo1(const ParallelPlan& p, const LaunchContext& ctx);

}  // namespace gp
