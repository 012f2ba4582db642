# torchtitan configuration from graphplace: zoo:gpt_1_3b on 2x8xH100-IB, global batch 32,
# dp 2 x cp 1 x tp 2 x pp 4 (16 GPUs); simulated step 0.500 s, peak 12.2 GiB per GPU.
# Names as in torchtitan b5bcd76 (torchtitan/config/configs.py, trainer.py); call it on a
# recipe in your config_registry, e.g. return graphplace_plan(llama3_8b()), and run with NGPU=8
# The recipe's model must be this one: 8 layers, hidden 1024, 8 heads, 8 key / value heads.
import os

from torchtitan.distributed.activation_checkpoint import FullAC, SelectiveAC
from torchtitan.models.llama3 import model_registry
from torchtitan.trainer import Trainer


def graphplace_plan(config: Trainer.Config) -> Trainer.Config:
    config.model_spec = model_registry(config.model_spec.flavor, attn_backend="sdpa")
    config.training.num_tokens_per_microbatch_per_dp_rank = 512
    config.training.num_tokens_per_train_step = 8192
    config.training.max_context_length = 256
    config.parallelism.data_parallel_replicate_degree = 1
    config.parallelism.data_parallel_shard_degree = 2
    config.parallelism.tensor_parallel_degree = 2
    config.parallelism.enable_sequence_parallel = True
    config.parallelism.context_parallel_degree = 1
    config.parallelism.expert_parallel_degree = 1
    config.parallelism.pipeline_parallel_degree = 4
    config.parallelism.pipeline_parallel_schedule = "1F1B"
    config.parallelism.num_pp_microbatches = 8
    config.parallelism.module_fqns_per_model_part = [["tok_embeddings", "layers.0", "layers.1"], ["layers.2", "layers.3"], ["layers.4", "layers.5"], ["layers.6", "layers.7", "norm", "lm_head"]]
    config.parallelism.pipeline_parallel_schedule_csv = os.path.splitext(__file__)[0] + "_schedule.csv"
    config.activation_checkpoint = FullAC.Config()
    config.training.mixed_precision_reduce = "float32"
    config.compile.enable = False
    config.compile.enable_async_tensor_parallel = False
    return config
