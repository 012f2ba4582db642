# Source: pytorch/torchtitan torchtitan/models/llama3/config_registry.py, llama3_8b(), at commit
# b5bcd76c66d0acb1a08b176d9639425bc55e0b2a: the training tokens and activation checkpointing it
# sets (the shard degree written as its default, -1), written as config assignments for graphplace.
config.parallelism.data_parallel_shard_degree = -1
config.training.num_tokens_per_microbatch_per_dp_rank = 8192
config.training.max_context_length = 8192
config.activation_checkpoint = SelectiveAC.Config()
