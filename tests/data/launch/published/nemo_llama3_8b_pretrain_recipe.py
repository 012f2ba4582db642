# Source: NVIDIA/NeMo nemo/collections/llm/recipes/llama3_8b.py, pretrain_recipe() and trainer()
# defaults at v2.4.0 (commit 2381f42f6979449b5b99538f8f80135831009b51): 1 node x 8 GPUs,
# tp 1, pp 1, cp 2, no sequence parallelism, seq 8192, micro-batch 1, global batch 512,
# distributed optimizer, overlapped grad reduce / param gather, bf16_mixed(); written as
# NeMo 2.0 recipe overrides for graphplace (recipe = llm.llama3_8b.pretrain_recipe()).
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
recipe.data.global_batch_size = 512
recipe.trainer.plugins = bf16_mixed()
