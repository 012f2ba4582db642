#!/usr/bin/env bash
# Source: NVIDIA/Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh at core_r0.11.0
# (commit 59055868f09f856e054882ac23b96280207d752a): the parallelism, batch, precision and model
# shape settings only, written for graphplace. The script itself says "Change for multinode
# config" (NUM_NODES=1); README.md, "GPT-3 Example", runs it on 1024 GPUs (tp 8 x pp 16 x dp 8),
# so --nnodes is 128 here. --rampup-batch-size (16 16 5859375) is left out: the figure is at the
# full global batch of 1536.
GPT_MODEL_ARGS=(
  --num-layers 96
  --hidden-size 12288
  --num-attention-heads 96
  --seq-length 2048
  --max-position-embeddings 2048
  --attention-backend auto
)
TRAINING_ARGS=(
  --micro-batch-size 1
  --global-batch-size 1536
  --fp16
)
MODEL_PARALLEL_ARGS=(
  --tensor-model-parallel-size 8
  --pipeline-model-parallel-size 16
)
torchrun --nproc_per_node 8 --nnodes 128 pretrain_gpt.py \
  ${GPT_MODEL_ARGS[@]} \
  ${TRAINING_ARGS[@]} \
  ${MODEL_PARALLEL_ARGS[@]}
