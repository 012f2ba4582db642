# Source: NVIDIA/NeMo nemo/collections/llm/recipes/llama3_70b.py, pretrain_recipe() and trainer()
# defaults at v2.4.0 (commit 2381f42f6979449b5b99538f8f80135831009b51): tp 4, pp 4 (bf16 pipeline
# dtype), vp 5, cp 2, sequence parallelism, seq 8192, micro-batch 1, global batch 512, bf16_mixed().
# pretrain_recipe's own num_nodes default (1) cannot hold tp 4 x pp 4 x cp 2 = 32 GPUs; its
# docstring's example uses num_nodes=4, taken here.
recipe.trainer.num_nodes = 4
recipe.trainer.devices = 8
recipe.trainer.strategy.tensor_model_parallel_size = 4
recipe.trainer.strategy.pipeline_model_parallel_size = 4
recipe.trainer.strategy.virtual_pipeline_model_parallel_size = 5
recipe.trainer.strategy.context_parallel_size = 2
recipe.trainer.strategy.sequence_parallel = True
recipe.trainer.strategy.ddp.overlap_grad_reduce = True
recipe.trainer.strategy.ddp.overlap_param_gather = True
recipe.optim.config.use_distributed_optimizer = True
recipe.data.seq_length = 8192
recipe.data.micro_batch_size = 1
recipe.data.global_batch_size = 512
recipe.trainer.plugins = bf16_mixed()
