# NeMo 2.0 recipe overrides from graphplace: zoo:gpt_1_3b on 2x8xH100-IB, global batch 32,
# dp 2 x cp 1 x tp 2 x pp 4 (16 GPUs); simulated step 0.500 s, peak 12.2 GiB per GPU.
# Names as in NeMo v2.4.0 (nemo/collections/llm/recipes, MegatronStrategy).
# Apply to a recipe of nemo.collections.llm, e.g. recipe = llm.llama3_8b.pretrain_recipe(...):
#   recipe = apply_graphplace_plan(recipe)
import nemo_run as run
from megatron.core.transformer.enums import AttnBackend
from nemo.collections.llm.recipes.precision.mixed_precision import (bf16_mixed, bf16_with_fp8_mixed, fp16_mixed,
                                                              fp16_with_fp8_mixed)
from nemo.lightning.pytorch.callbacks.megatron_comm_overlap import MegatronCommOverlapCallback


def apply_graphplace_plan(recipe):
    recipe.trainer.devices = 8
    recipe.trainer.num_nodes = 2
    recipe.model.config.num_layers = 8
    recipe.model.config.hidden_size = 1024
    recipe.model.config.num_attention_heads = 8
    recipe.data.seq_length = 256
    recipe.model.config.seq_length = 256
    recipe.data.micro_batch_size = 2
    recipe.data.global_batch_size = 32
    recipe.trainer.strategy.tensor_model_parallel_size = 2
    recipe.trainer.strategy.pipeline_model_parallel_size = 4
    recipe.trainer.strategy.virtual_pipeline_model_parallel_size = None
    recipe.trainer.strategy.context_parallel_size = 1
    recipe.trainer.strategy.sequence_parallel = True
    recipe.model.config.recompute_granularity = "full"
    recipe.model.config.recompute_method = "uniform"
    recipe.model.config.recompute_num_layers = 1
    recipe.optim.config.use_distributed_optimizer = True
    recipe.trainer.strategy.ddp.overlap_grad_reduce = True
    recipe.trainer.strategy.ddp.overlap_param_gather = True
    recipe.trainer.plugins = bf16_mixed()
    recipe.model.config.attention_backend = AttnBackend.flash
    return recipe
