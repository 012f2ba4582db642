#!/usr/bin/env bash
# Source: NVIDIA/Megatron-LM examples/academic_paper_scripts/sc21/run_table_1.sh (MODEL_SIZE=18B)
# and CONFIG.sh (MEGATRON_PARAMS) at core_r0.11.0, commit 59055868f09f856e054882ac23b96280207d752a:
# the case's TP/PP/MBS/GBS/NLS/HS/NAH/DDP/NNODES and MEGATRON_EXTRA_PARAMS with CONFIG.sh's
# sequence and precision settings, written for graphplace (data, tokenizer, optimizer left out).
# The flags are those the script passes, including the 2021 names it still uses
# (--DDP-impl, --activations-checkpoint-method).
ARGS=(
  --tensor-model-parallel-size 8
  --pipeline-model-parallel-size 1
  --micro-batch-size 8
  --global-batch-size 1024
  --num-layers 40
  --hidden-size 6144
  --num-attention-heads 48
  --DDP-impl torch
  --seq-length 2048
  --max-position-embeddings 2048
  --fp16
  --loss-scale 8192
  --activations-checkpoint-method uniform
)
torchrun --nproc_per_node 8 --nnodes 32 pretrain_gpt.py "${ARGS[@]}"
