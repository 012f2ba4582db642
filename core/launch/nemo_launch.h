// NeMo configurations for a parallel plan: the Megatron-LM settings of megatron_launch.h (the same
// rules, refusals and inexact parts: NeMo trains with Megatron-Core) under NeMo's names, as NeMo
// 2.0 recipe overrides (Python) and as a NeMo 1.x YAML fragment. Names are NeMo v2.4.0's
// (2381f42f6979449b5b99538f8f80135831009b51): nemo/collections/llm/recipes/llama3_8b.py and
// nemo/lightning/pytorch/strategies/megatron_strategy.py for 2.0,
// examples/nlp/language_modeling/conf/megatron_gpt_config.yaml for 1.x.
#pragma once

#include "launch/launch_config.h"

namespace gp {

// NeMo 2.0: `recipe.trainer.strategy.tensor_model_parallel_size = 2`, ... for a recipe from
// nemo.collections.llm. Throws gp::Error("nemo", reason) for plans Megatron-Core rejects.
LaunchFile exportNemo(const ParallelPlan& p, const LaunchContext& ctx);
// A plan from NeMo 2.0 recipe overrides (the `recipe.<field> = value` lines exportNemo writes, and
// the MegatronCommOverlapCallback it appends): read as the Megatron-LM arguments they stand for,
// with Megatron-LM's checks (importMegatron); gp::Error(source, ...) naming NeMo's field for values
// that are not literals.
LaunchImport importNemo(const std::string& text, const std::string& source, const LayerStack& stack, int devices);
// A plan from a NeMo 1.x YAML configuration (megatron_gpt_config.yaml's `trainer:` and `model:`
// keys, as exportNemo1 writes them), read as the Megatron-LM arguments they stand for;
// gp::Error(source, "line N: ...") for YAML that does not parse.
LaunchImport importNemo1(const std::string& text, const std::string& source, const LayerStack& stack, int devices);
// Whether `text` is a NeMo 1.x YAML configuration (a top-level `model:` with parallel sizes).
bool isNemo1Yaml(const std::string& text);
// Whether `text` sets fields of a NeMo recipe (lines starting "recipe.").
bool isNemoRecipe(const std::string& text);
// recipe.data.seq_length of NeMo 2.0 overrides / model.encoder_seq_length of a NeMo 1.x YAML,
// 0 when absent.
int64_t nemoSeqLength(const std::string& text);
int64_t nemo1SeqLength(const std::string& text);
// NeMo 1.x: the `trainer:` and `model:` keys of megatron_gpt_config.yaml. Throws
// gp::Error("nemo1", reason).
LaunchFile exportNemo1(const ParallelPlan& p, const LaunchContext& ctx);

}  // namespace gp
