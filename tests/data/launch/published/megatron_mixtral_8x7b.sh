#!/usr/bin/env bash
# Source: NVIDIA/Megatron-LM examples/mixtral/train_mixtral_8x7b_distributed.sh at core_r0.11.0
# (commit 59055868f09f856e054882ac23b96280207d752a): model shape, MoE, parallelism, batch and
# precision settings, written for graphplace (data, tokenizer, optimizer, logging left out).
# The script's NNODES defaults to ${SLURM_NNODES:-1}; pp 4 x ep 8 needs 32 GPUs, so 4 nodes here.
MODEL_ARGS=(
  --disable-bias-linear
  --seq-length 4096
  --max-position-embeddings 32768
  --num-layers 32
  --hidden-size 4096
  --ffn-hidden-size 14336
  --num-attention-heads 32
  --normalization RMSNorm
  --position-embedding-type rope
  --swiglu
  --untie-embeddings-and-output-weights
  --group-query-attention
  --num-query-groups 8
)
MOE_ARGS=(
  --num-experts 8
  --moe-router-topk 2
  --moe-grouped-gemm
  --moe-token-dispatcher-type alltoall
  --overlap-param-gather
  --overlap-grad-reduce
)
TRAINING_ARGS=(
  --micro-batch-size 1
  --global-batch-size 256
  --bf16
)
MODEL_PARALLEL_ARGS=(
  --tensor-model-parallel-size 1
  --pipeline-model-parallel-size 4
  --expert-model-parallel-size 8
  --use-distributed-optimizer
  --sequence-parallel
)
torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py \
  ${MODEL_ARGS[@]} ${MOE_ARGS[@]} ${TRAINING_ARGS[@]} ${MODEL_PARALLEL_ARGS[@]}
