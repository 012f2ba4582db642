# Source: NVIDIA/NeMo nemo/collections/llm/recipes/llama31_405b.py, pretrain_recipe() and trainer()
# defaults at v2.4.0 (commit 2381f42f6979449b5b99538f8f80135831009b51): tp 8, pp 8 (bf16 pipeline
# dtype), vp 2, cp 4, sequence parallelism, the embedding and the loss counted as pipeline layers
# (126 + 2 = 128 over pp 8), seq 8192, micro-batch 1, global batch 512, bf16_mixed().
# pretrain_recipe's num_nodes default (1) and its docstring's example (4) cannot hold
# tp 8 x pp 8 x cp 4 = 256 GPUs; trainer()'s own default, num_nodes=64, is taken here.
recipe.trainer.num_nodes = 64
recipe.trainer.devices = 8
recipe.trainer.strategy.tensor_model_parallel_size = 8
recipe.trainer.strategy.pipeline_model_parallel_size = 8
recipe.trainer.strategy.virtual_pipeline_model_parallel_size = 2
recipe.trainer.strategy.context_parallel_size = 4
recipe.trainer.strategy.sequence_parallel = True
recipe.trainer.strategy.account_for_embedding_in_pipeline_split = True
recipe.trainer.strategy.account_for_loss_in_pipeline_split = True
recipe.trainer.strategy.ddp.overlap_grad_reduce = True
recipe.trainer.strategy.ddp.overlap_param_gather = True
recipe.optim.config.use_distributed_optimizer = True
recipe.data.seq_length = 8192
recipe.data.micro_batch_size = 1
recipe.data.global_batch_size = 512
recipe.trainer.plugins = bf16_mixed()
