#!/usr/bin/env bash
# Megatron-LM launch arguments from graphplace: zoo:gpt_1_3b on 2x8xH100-IB, global batch 32,
# dp 2 x cp 1 x tp 2 x pp 4 (16 GPUs); simulated step 0.500 s, peak 12.2 GiB per GPU.
# Flag names as in Megatron-LM core_r0.11.0 (megatron/training/arguments.py).
# Add your data, tokenizer and optimizer arguments, and the model's own (ffn size, normalisation,
# activation, position embedding, vocabulary), after the script or as this file's arguments.
GRAPHPLACE_ARGS=(
  --num-layers 8
  --hidden-size 1024
  --num-attention-heads 8
  --seq-length 256
  --max-position-embeddings 256
  --tensor-model-parallel-size 2
  --pipeline-model-parallel-size 4
  --sequence-parallel
  --micro-batch-size 2
  --global-batch-size 32
  --recompute-granularity full
  --recompute-method uniform
  --recompute-num-layers 1
  --use-distributed-optimizer
  --overlap-grad-reduce
  --overlap-param-gather
  --bf16
  --attention-backend flash
)
torchrun --nproc-per-node 8 --nnodes 2 pretrain_gpt.py "${GRAPHPLACE_ARGS[@]}" "$@"
