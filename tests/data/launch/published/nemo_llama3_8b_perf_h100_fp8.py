# Source: NVIDIA/NeMo nemo/collections/llm/recipes/llama3_8b.py pretrain_recipe() at v2.4.0
# (commit 2381f42f6979449b5b99538f8f80135831009b51) with the settings of NeMo's published
# performance table (docs/source/performance/performance_summary.md at commit
# 2fca28a010fde08a76a8f4bcce82debeae15545e, "Pretraining", NeMo 24.07, DGX-H100, FP8):
# 8 GPUs, global batch 128, micro-batch 1, seq 8192, tp 1, pp 1, cp 2, vp 1, FP8.
recipe.trainer.num_nodes = 1
recipe.trainer.devices = 8
recipe.trainer.strategy.tensor_model_parallel_size = 1
recipe.trainer.strategy.pipeline_model_parallel_size = 1
recipe.trainer.strategy.virtual_pipeline_model_parallel_size = None
recipe.trainer.strategy.context_parallel_size = 2
recipe.trainer.strategy.sequence_parallel = False
recipe.trainer.strategy.ddp.overlap_grad_reduce = True
recipe.trainer.strategy.ddp.overlap_param_gather = True
recipe.optim.config.use_distributed_optimizer = True
recipe.data.seq_length = 8192
recipe.data.micro_batch_size = 1
recipe.data.global_batch_size = 128
recipe.trainer.plugins = bf16_with_fp8_mixed()
