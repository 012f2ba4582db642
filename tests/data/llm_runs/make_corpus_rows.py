#!/usr/bin/env python3
"""Turns the research notes of llm_training_runs.json into the corpus file
tests/data/published/llm_training.json and the model configs it names (models/*.json).

Only runs whose plan can be stated in full go in. Where a source leaves a knob unstated the
choice made here is in the row's note; runs beyond the largest cluster the simulator builds
(2,048 GPUs) and runs whose knobs the simulator does not have (torch.compile, async TP,
every-other-layer checkpointing) stay out (README.md lists them).

  python3 tests/data/llm_runs/make_corpus_rows.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'published')
runs = json.load(open(os.path.join(HERE, 'llm_training_runs.json')))['rows']

# Runs that chose the defaults (the rest only check them): one or two per source and machine.
# 53 (torchtitan's Llama 3.1 8B at 32k on 8 power-limited H100s) chose the product efficiency of
# that machine's cluster file only.
SET = {2, 23, 24, 37, 40, 53, 60, 61, 87}


def gpt_config(name, layers, hidden, heads, vocab, positions, ffn=None):
    """A Megatron-LM GPT (pre-LayerNorm, learned positions, GELU MLP, tied output) as a GPT-2 config."""
    cfg = {'model_type': 'gpt2', 'n_layer': layers, 'n_embd': hidden, 'n_head': heads,
           'n_inner': ffn or 4 * hidden, 'vocab_size': vocab, 'n_positions': positions}
    write_model(name, cfg)
    return 'hf:models/%s.json' % name


def llama_config(name, layers, hidden, heads, kv, ffn, vocab, positions=4096):
    cfg = {'model_type': 'llama', 'num_hidden_layers': layers, 'hidden_size': hidden, 'num_attention_heads': heads,
           'num_key_value_heads': kv, 'intermediate_size': ffn, 'vocab_size': vocab, 'max_position_embeddings': positions,
           'tie_word_embeddings': False}
    write_model(name, cfg)
    return 'hf:models/%s.json' % name


def write_model(name, cfg):
    os.makedirs(os.path.join(OUT, 'models'), exist_ok=True)
    with open(os.path.join(OUT, 'models', name + '.json'), 'w') as f:
        json.dump(cfg, f, indent=1)
        f.write('\n')


rows = []


def add(i, name, model, cluster, plan, unit, published, note, seq=None, gb=None, mb=1, precision='bf16', flops=None,
        memory=None):
    r = runs[i]
    c = r['config']
    # The framework that ran it: Megatron-LM's papers and benchmarks, DeepSpeed's ZeRO-3 beside them,
    # torchtitan's tables; Meta's own stack (Llama 3) keeps the generic accounting.
    if name.startswith('narayanan2021-t2-zero3'):
        plan['framework'] = 'deepspeed'
    elif name.startswith(('narayanan2021', 'korthikanti2022', 'megatron-core')):
        plan['framework'] = 'megatron'
    elif name.startswith('torchtitan'):
        plan['framework'] = 'torchtitan'
    row = {
        'name': name,
        'source': r['source'],
        'split': 'set' if i in SET else 'check',
        'hardware': '%d x %s' % (r['hardware']['gpus_total'], r['hardware']['gpu']),
        'cluster': cluster,
        'framework': 'pytorch-eager',
        'precision': precision,
        'workload': {'model': model, 'seq_len': seq or r['model']['seq_len'],
                     'global_batch': gb or c['global_batch_sequences'], 'micro_batch': mb, 'plan': plan},
        'unit': unit,
        'published': published,
    }
    if flops:
        row['flops'] = flops
    if memory:
        row['published_peak_memory_GiB'] = memory
    row['note'] = note
    rows.append(row)


def servers(gpus):
    assert gpus % 8 == 0
    return gpus // 8


# --- Narayanan et al. 2021, Table 1 (weak scaling, A100 80GB, full recomputation) and Table 2 (PTD-P 530B).
GPT_A100 = {0: ('gpt-1.7b', 24, 2304, 24), 1: ('gpt-3.6b', 30, 3072, 32), 2: ('gpt-7.5b', 36, 4096, 32),
            3: ('gpt-18.4b', 40, 6144, 48), 4: ('gpt-39.1b', 48, 8192, 64), 5: ('gpt-76.1b', 60, 10240, 80),
            6: ('gpt-145.6b', 80, 12288, 96), 7: ('gpt-310.1b', 96, 16384, 128), 8: ('gpt-530b', 105, 20480, 128),
            9: ('gpt-1t', 128, 25600, 160)}
for i, (name, layers, hidden, heads) in GPT_A100.items():
    c = runs[i]['config']
    model = gpt_config(name, layers, hidden, heads, 51200, 2048)
    plan = {'dp': c['dp'], 'tp': c['tp'], 'pp': c['pp'], 'recompute': 'full', 'attention': 'unfused'}
    note = ('Micro-batch not stated: 1 taken. Unfused attention (2021). ')
    if c['pp'] > 1:
        per_stage = layers // c['pp']
        v = 2 if per_stage % 2 == 0 else 3 if per_stage % 3 == 0 else per_stage
        plan['virtual_stages'] = v
        note += 'Interleaved schedule used, chunks per stage not stated: %d taken. ' % v
    add(i, 'narayanan2021-t1-%s-%dxa100' % (name, runs[i]['hardware']['gpus_total']), model,
        '%dx8xA100-IB' % servers(runs[i]['hardware']['gpus_total']), plan, 'TFLOP/s/GPU', runs[i]['published']['value'],
        note + 'FLOPs by the paper\'s eq. 3 (recomputation counted).', precision='fp16', flops='megatron-2021')

gpt530 = gpt_config('gpt-530b', 105, 20480, 128, 51200, 2048)
for i in (13, 14):
    c = runs[i]['config']
    gpus = runs[i]['hardware']['gpus_total']
    add(i, 'narayanan2021-t2-gpt-530b-%dxa100' % gpus, gpt530, '%dx8xA100-IB' % servers(gpus),
        {'dp': c['dp'], 'tp': 8, 'pp': 35, 'recompute': 'full', 'attention': 'unfused'}, 'TFLOP/s/GPU',
        runs[i]['published']['value'], 'tp 8 x pp 35 as Table 1 runs this model (Table 2 gives model-parallel size 280); '
        'plain 1F1B taken (3 layers per stage). FLOPs by eq. 3.', precision='fp16', flops='megatron-2021')

# --- Narayanan et al. 2021, Table 2: ZeRO-3 without model parallelism.
gpt175 = gpt_config('gpt-175b', 96, 12288, 96, 51200, 2048)
for i in (16, 17, 19, 20):
    c = runs[i]['config']
    gpus = runs[i]['hardware']['gpus_total']
    model, size = (gpt175, '175b') if runs[i]['model']['hidden'] == 12288 else (gpt530, '530b')
    add(i, 'narayanan2021-t2-zero3-gpt-%s-%dxa100' % (size, gpus), model, '%dx8xA100-IB' % servers(gpus),
        {'dp': c['dp'], 'tp': 1, 'pp': 1, 'zero': 3, 'recompute': 'full', 'attention': 'unfused'}, 'TFLOP/s/GPU',
        runs[i]['published']['value'], 'DeepSpeed ZeRO-3 in the Megatron code base; recomputation not stated, full '
        'taken (eq. 3 counts it). FLOPs by eq. 3.', mb=c['micro_batch'], precision='fp16', flops='megatron-2021')

# --- Korthikanti et al. 2022: Table 5 (selective recomputation + sequence parallelism, MFU) and Table 3
#     baselines (full recomputation, no SP, iteration time). 175B and 530B interleave 3 chunks per stage.
KORTHI = {22: ('gpt-22b', 48, 6144, 64, 1), 24: ('gpt-175b', 96, 12288, 96, 3), 26: ('gpt-530b', 105, 20480, 128, 3),
          28: ('gpt-1t', 128, 25600, 160, 1), 30: ('gpt-530b', 105, 20480, 128, 3)}
for i, (name, layers, hidden, heads, v) in KORTHI.items():
    model = gpt_config(name, layers, hidden, heads, 51200, 2048)
    for j, selective in ((i, True),) if i == 30 else ((i, True), (i + 1, False)):
        r = runs[j]
        c = r['config']
        gpus = r['hardware']['gpus_total']
        plan = {'dp': c['dp'], 'tp': c['tp'], 'pp': c['pp'], 'attention': 'unfused',
                'recompute': 'selective' if selective else 'full', 'sequence_parallel': selective}
        if v > 1:
            plan['virtual_stages'] = v
        tag = 'selective-sp' if selective else 'full'
        cluster = '%dx8xA100-IB' % servers(gpus)
        if selective:
            mfu = r['published']['value']
            add(j, 'korthikanti2022-%s-%s-%dxa100' % (name, tag, gpus), model, cluster, plan, 'TFLOP/s/GPU',
                round(mfu * 312 / 100, 2), 'Published as %.1f %% MFU of 312 TFLOP/s (model FLOPs, eq. 7).' % mfu,
                mb=c['micro_batch'], flops='megatron-core')
        else:
            add(j, 'korthikanti2022-%s-%s-%dxa100' % (name, tag, gpus), model, cluster, plan, 's',
                r['published']['value'], 'Iteration time of the full-recomputation baseline.', mb=c['micro_batch'])

# --- Megatron-LM README (2024): Megatron-Core r0.8.0 weak scaling on H100, sequence 4096.
MCORE = {36: ('mcore-gpt-1.7b', 24, 2048), 37: ('mcore-gpt-7.1b', 30, 4096), 38: ('mcore-gpt-16b', 32, 6144),
         39: ('mcore-gpt-32b', 48, 7168), 40: ('mcore-gpt-70b', 84, 8192), 41: ('mcore-gpt-119b', 92, 10240),
         42: ('mcore-gpt-177b', 96, 12288), 43: ('mcore-gpt-314b', 96, 16384), 44: ('mcore-gpt-462b', 112, 18432)}
for i, (name, layers, hidden) in MCORE.items():
    r = runs[i]
    c = r['config']
    gpus = r['hardware']['gpus_total']
    model = gpt_config(name, layers, hidden, r['model']['heads'], 131072, 4096)
    plan = {'dp': c['dp'], 'tp': c['tp'], 'pp': c['pp'], 'zero': 1, 'overlap_param_gather': True,
            'sequence_parallel': c['tp'] > 1, 'overlap_tp_comm': c['tp'] > 1, 'recompute': 'none',
            'grad_accumulation': '16bit'}
    add(i, 'megatron-core-2024-%s-%dxh100' % (name[6:], gpus), model, '%dx8xH100-IB' % servers(gpus), plan,
        'TFLOP/s/GPU', r['published']['value'],
        'Stated: --tp-comm-overlap, --overlap-param-gather (the distributed optimizer). Not stated, taken: '
        'micro-batch 1, no recomputation, flash attention, sequence parallelism with tp (the TP overlap needs it), '
        'MLP 4h, plain 1F1B, gradients reduced in bf16 (--grad-reduce-in-bf16, as NVIDIA\'s performance recipes run: '
        'NeMo\'s pretrain_performance_optimizations set grad_reduce_in_fp32 = False). '
        'FLOPs by Megatron-Core\'s formula.', flops='megatron-core')

# --- Llama 3 paper, Table 4: 405B pre-training at sequence 8192 on 8,192 and 16,384 H100s (tp 8, pp 16).
llama405 = llama_config('llama-3.1-405b', 126, 16384, 128, 8, 53248, 128256, 131072)
for i in (47, 48):
    r = runs[i]
    c = r['config']
    gpus = r['hardware']['gpus_total']
    add(i, 'llama3-405b-%dxh100' % gpus, llama405, '%dx8xH100-IB' % servers(gpus),
        {'dp': c['dp'], 'tp': 8, 'pp': 16, 'zero': 1, 'overlap_param_gather': True, 'sequence_parallel': True,
         'overlap_tp_comm': True, 'recompute': 'none'}, 'TFLOP/s/GPU', r['published']['value'],
        'BF16; no activation checkpointing (section 3.3.2). Not stated, taken: micro-batch 1, plain 1F1B (the paper '
        'tunes an interleaved schedule), the distributed optimizer (the paper shards with FSDP), sequence parallelism '
        'and TP overlap. FLOPs by Megatron-Core\'s count (the paper\'s: PaLM-style model FLOPs).',
        flops='megatron-core')

# --- torchtitan (older docs/performance.md, A100 80GB): FSDP2 = ZeRO-3 over all GPUs. The Dec 2024 H100
#     rows and the A100 rows with op-level selective checkpointing (torchtitan's "selective op": the
#     outputs of most products kept, everything else recomputed) are left out: that policy is not
#     one of the simulator's (its "selective" recomputes the attention core only).
llama2_13b = llama_config('llama-2-13b', 40, 5120, 40, 40, 13824, 32000)
llama2_70b = llama_config('llama-2-70b', 80, 8192, 64, 8, 28672, 32000)
TT_A100 = {87: ('llama3-70b', 'zoo:llama3_70b', 'full'), 88: ('llama2-13b', llama2_13b, 'none'),
           92: ('llama2-70b', llama2_70b, 'full')}
for i, (name, model, recompute) in TT_A100.items():
    r = runs[i]
    c = r['config']
    gpus = r['hardware']['gpus_total']
    add(i, 'torchtitan-a100-%s-fsdp-%s-b%d' % (name, recompute, c['local_batch']), model,
        '%dx8xA100-IB' % servers(gpus), {'dp': gpus, 'tp': 1, 'pp': 1, 'zero': 3, 'recompute': recompute,
                                         'attention': 'flash2', 'overlap_param_gather': True},
        'tokens/s/GPU', r['published']['value'],
        'FSDP2 over %d A100 80GB, local batch %d; the interconnect is not stated (DGX A100-like taken). '
        'Attention: PyTorch\'s scaled_dot_product_attention, FlashAttention-2 on A100.' %
        (gpus, c['local_batch']), seq=r['model']['seq_len'], mb=c['local_batch'])

# --- torchtitan, Dec 2024 benchmark (Llama 3.1 on H100s with 96 GB of HBM2e at a 500 W limit, RDMA at
#     400 Gb/s per GPU): the runs with full activation checkpointing, which publish peak memory. The
#     cluster is the 2x8xH100-IB preset's servers with that part's memory (96 GiB, 2.4 TB/s). The
#     power limit is not modelled as such: the source says the part's peak lies between the SXM's and
#     the NVL's without stating it, so the products' efficiency of this machine is fitted on one of
#     its runs (Llama 3.1 8B at 32k, row 53: 0.54 of the SXM peak, where Megatron-Core's rows on 700 W
#     SXM parts gave 0.62) and checked on the other nine. torch.compile, torchao's Float8 products
#     and async TP ran; the simulator has FP8 products and TP overlap, not compile's fusions.
def grand_teton_cluster():
    d = json.load(open(os.path.join(HERE, '..', '..', '..', 'resources', 'clusters', '2x8xH100-IB.json')))
    kind = 'H100-SXM5-96GB-HBM2e-500W'
    (old, spec), = d['device_kinds'].items()
    spec = dict(spec, memory_GiB=96, memory_bandwidth_GBps=2400, efficiency={'MatMul': 0.54})
    d['device_kinds'] = {kind: spec}
    for dev in d['devices']:
        if dev.get('kind') == old:
            dev['kind'] = kind
    d['name'] = 'grand-teton-h100-96gb'
    d['description'] = ('Two servers of 8 H100 SXM5 96 GB HBM2e (2.4 TB/s) run at a 500 W limit, as torchtitan\'s '
                        'Dec 2024 benchmark states; otherwise the 2x8xH100-IB preset (NVSwitch inside, one 400 Gb/s '
                        'NIC per GPU). The power limit is in the products\' efficiency, fitted on one of the runs. Made by '
                        'tests/data/llm_runs/make_corpus_rows.py.')
    d['sources'] = ['pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md: "H100 GPUs with 96GB HBM2e, '
                    '2.4 TB/s, 500W TDP", RDMA 400 Gb/s per GPU; "the actual peak TFLOPs number is between SXM and NVL"',
                    'Matrix-product efficiency 0.54 of the SXM peak: fitted on torchtitan\'s Llama 3.1 8B at sequence 32768 '
                    '(the set row torchtitan-h100-llama3.1-8b-8gpu-tp1-pp1-cp1-seq32k of tests/data/published/'
                    'llm_training.json), checked on its nine other rows (docs/simulator-fidelity.md)'] + [
                        s for s in d['sources'] if not s.startswith('Matrix-product efficiency')]
    os.makedirs(os.path.join(OUT, 'clusters'), exist_ok=True)
    with open(os.path.join(OUT, 'clusters', 'grand-teton-h100-96gb.json'), 'w') as f:
        json.dump(d, f, indent=1)
        f.write('\n')
    return 'clusters/grand-teton-h100-96gb.json'


teton = grand_teton_cluster()
llama31_8b = llama_config('llama-3.1-8b', 32, 4096, 32, 8, 14336, 128256, 131072)
llama31_70b = llama_config('llama-3.1-70b', 80, 8192, 64, 8, 28672, 128256, 131072)
# (row, model name, model, name suffix): the Dec 2024 tables, then the other tables of the same
# machine that run with full checkpointing: Table 4's async-TP row, the Jun 2025 async-TP
# benchmark's 70B runs in bf16 and with tensorwise Float8 (its rowwise-Float8 runs are left out:
# a scaling recipe the simulator's FP8 products do not model), and docs/performance.md's 405B on
# 128 GPUs of Aug 2024.
TT_H100 = {53: ('llama3.1-8b', llama31_8b, ''), 54: ('llama3.1-8b', llama31_8b, ''), 55: ('llama3.1-8b', llama31_8b, ''),
           56: ('llama3.1-8b', llama31_8b, ''), 60: ('llama3.1-70b', llama31_70b, ''),
           61: ('llama3.1-70b', llama31_70b, '-asynctp'), 62: ('llama3.1-405b', llama405, ''),
           64: ('llama3.1-405b', llama405, ''), 65: ('llama3.1-405b', llama405, ''), 66: ('llama3.1-405b', llama405, ''),
           67: ('llama3.1-405b', llama405, ''), 68: ('llama3-70b', llama31_70b, '-bf16-2025'),
           69: ('llama3-70b', llama31_70b, '-bf16-asynctp-2025'), 70: ('llama3-70b', llama31_70b, '-fp8-2025'),
           71: ('llama3-70b', llama31_70b, '-fp8-asynctp-2025'), 82: ('llama3.1-405b', llama405, '-bf16-2024'),
           83: ('llama3.1-405b', llama405, '-fp8-2024'), 84: ('llama3.1-405b', llama405, '-fp8-asynctp-2024')}
for i, (name, model, suffix) in TT_H100.items():
    r = runs[i]
    c = r['config']
    gpus = r['hardware']['gpus_total']
    dp, tp, pp, cp = c['fsdp'], c['tp'], c['pp'], c['cp']
    assert dp * tp * pp * cp == gpus
    seq = r['model']['seq_len']
    fp8 = 'float8' in (c['precision'] + r['name']).lower()
    # With a pipeline torchtitan does not reshard parameters after forward (torchtitan/distributed/
    # fsdp.py, policy "default": `not pp_enabled`) and syncs gradients on the last micro-batch only:
    # parameters and gradients whole, the optimizer sharded, i.e. ZeRO-1.
    # Attention: F.scaled_dot_product_attention (torchtitan/models/llama/model.py at 9dec370), which
    # on H100 dispatched to FlashAttention-2, not cuDNN, in the PyTorch of Dec 2024 (the PyTorch 2.5
    # maintainers made the cuDNN backend opt-in, and torchtitan's own reports of early 2025 still
    # see SDPA pick the flash backend on H100); under
    # context parallelism torchtitan allows only the flash and efficient backends (torchtitan/utils.py
    # at 9dec370, get_train_context).
    # FSDP2 prefetches the next layer's all-gather during the current layer's compute (ZeRO-3 with
    # overlap_param_gather; torchtitan/parallelisms/parallelize_llama.py at 9dec370, apply_fsdp).
    plan = {'dp': dp, 'tp': tp, 'pp': pp, 'cp': cp, 'zero': 1 if pp > 1 else 3, 'recompute': 'full', 'fp8': fp8,
            'attention': 'flash2', 'overlap_param_gather': pp == 1}
    if tp > 1:
        # torchtitan's TP plan runs the norms sequence-parallel. Its async TP (symmetric-memory
        # all-gather / reduce-scatter fused with the products under torch.compile) gains 4-16 % in
        # the same sources' tables (70B: 829 -> 876, 597 -> 652, 810 -> 942; 405B: 177 -> 185):
        # `overlap_tp_comm` under the torchtitan framework, which hides the share of the TP
        # collectives fitted on the Dec 2024 70B pair (both rows in the set).
        plan['sequence_parallel'] = True
        plan['overlap_tp_comm'] = bool(c.get('async_tp'))
    # The local batch is per data-parallel replica; a pipeline splits it into as many micro-batches
    # as it has stages (torchtitan/config_manager.py at the benchmark commit 9dec370,
    # --experimental.pipeline_parallel_microbatches: "The default value will be the number of
    # pipeline stages").
    mb = c['local_batch'] // pp
    memory = r['published'].get('also', {}).get('peak_memory_GiB')
    add(i, 'torchtitan-h100-%s-%dgpu-tp%d-pp%d-cp%d-seq%dk%s' % (name, gpus, tp, pp, cp, seq // 1024, suffix), model,
        '%dx%s' % (servers(gpus), teton), plan, 'tokens/s/GPU', r['published']['value'],
        'torchtitan (FSDP2 over dp x cp: ZeRO-3, or ZeRO-1 with a pipeline, which keeps parameters gathered '
        'between micro-batches; full activation checkpointing; torch.compile%s%s; attention by PyTorch\'s '
        'FlashAttention-2, which its SDPA chose on H100). Local batch %d per replica, global %d%s.%s Sequence %d%s.%s' %
        (', torchao Float8 products' if fp8 else ', bf16 products',
         ', async TP' if c.get('async_tp') else '',
         c['local_batch'], dp * c['local_batch'],
         ', %d micro-batches of %d (torchtitan\'s default: one per stage)' % (pp, mb) if pp > 1 else '',
         ' Peak memory as torchtitan logs it (the caching allocator\'s peak).' if memory else '', seq,
         ' (the train configs\' value; the table does not state it)' if seq == 8192 else '',
         (' ' + r['note'] + '.') if r.get('confidence') == 'medium' else ''),
        seq=seq, gb=dp * c['local_batch'], mb=mb, memory=memory)

# Layout sweeps among these rows (one model on one GPU set, several layouts, each run): a table
# each, ranked by `fidelity`. make_sweep_rows.py adds the sweeps' other layouts
# (tests/data/published/llm_sweeps.json), the same table names.
TABLES = {
    'torchtitan-llama3.1-405b-128xh100': ['torchtitan-h100-llama3.1-405b-128gpu-tp8-pp1-cp1-seq8k-%s-2024' % v
                                          for v in ('bf16', 'fp8', 'fp8-asynctp')],
    'torchtitan-llama3-70b-256xh100-2025': ['torchtitan-h100-llama3-70b-256gpu-tp8-pp1-cp1-seq8k-%s-2025' % v
                                            for v in ('bf16', 'bf16-asynctp', 'fp8', 'fp8-asynctp')],
    'torchtitan-llama3.1-70b-256xh100-2024': ['torchtitan-h100-llama3.1-70b-256gpu-tp8-pp1-cp1-seq8k%s' % v
                                              for v in ('', '-asynctp')],
    'korthikanti2022-gpt-530b-280xa100': ['korthikanti2022-gpt-530b-%s-280xa100' % v for v in ('selective-sp', 'full')],
    'korthikanti2022-gpt-1t-512xa100': ['korthikanti2022-gpt-1t-%s-512xa100' % v for v in ('selective-sp', 'full')],
}
by_name = {r['name']: r for r in rows}
for table, names in TABLES.items():
    for n in names:
        by_name[n]['table'] = table
# torchtitan logs the caching allocator's reserved peak, the largest of any GPU.
for r in rows:
    if r['name'].startswith('torchtitan-h100') and 'published_peak_memory_GiB' in r:
        r['published_peak_memory'] = 'reserved'
    if 'table' in r:  # the fields in the corpus's order
        note = r.pop('note')
        unit, published = r.pop('unit'), r.pop('published')
        extra = {k: r.pop(k) for k in ('flops', 'published_peak_memory_GiB', 'published_peak_memory') if k in r}
        r.update(unit=unit, published=published, **extra, note=note)

corpus = {
    'format': 'graphplace-published', 'version': 1,
    'description': 'LLM training runs with their parallel layout stated, from the papers and tables named in each '
                   'row (research notes: tests/data/llm_runs). Each row is one step of the plan it ran, simulated '
                   'with parallelize\'s simulator; chunks are even. Made by tests/data/llm_runs/make_corpus_rows.py.',
    'rows': rows,
}
with open(os.path.join(OUT, 'llm_training.json'), 'w') as f:
    json.dump(corpus, f, indent=1)
    f.write('\n')
print(len(rows), 'rows,', sum(r['split'] == 'set' for r in rows), 'set')


# --- The same runs as the published recipes `parallelize` maps onto a user's model and GPUs
#     (resources/recipes/published_llm_plans.json): the plan in full, and the shape that decides
#     which recipe is closest (parameters, GPUs, GPU generation, sequence).
ZOO_SHAPES = {'zoo:llama3_70b': {'model_type': 'llama', 'num_hidden_layers': 80, 'hidden_size': 8192,
                                 'num_attention_heads': 64, 'num_key_value_heads': 8, 'intermediate_size': 28672,
                                 'vocab_size': 128256, 'tie_word_embeddings': False}}


def model_shape(model):
    if model in ZOO_SHAPES:
        cfg = ZOO_SHAPES[model]
    else:
        cfg = json.load(open(os.path.join(OUT, model[len('hf:'):])))
    if cfg['model_type'] == 'gpt2':
        L, h, V, P = cfg['n_layer'], cfg['n_embd'], cfg['vocab_size'], cfg['n_positions']
        f = cfg.get('n_inner') or 4 * h
        return L, h, L * (4 * h * h + 2 * h * f + 9 * h + f) + V * h + P * h
    L, h, f, V = cfg['num_hidden_layers'], cfg['hidden_size'], cfg['intermediate_size'], cfg['vocab_size']
    kv = cfg['num_key_value_heads'] * (h // cfg['num_attention_heads'])
    tied = cfg.get('tie_word_embeddings', False)
    return L, h, L * (2 * h * h + 2 * h * kv + 3 * h * f + 2 * h) + V * h * (1 if tied else 2) + h


recipes = []
for r in rows:
    w = r['workload']
    plan = dict(w['plan'])
    for k in ('framework', 'grad_accumulation'):  # the recipe's degrees and knobs; the user's framework is their own
        plan.pop(k, None)
    plan.setdefault('schedule', '1f1b')
    plan.setdefault('zero', 0)
    plan['microbatches'] = w['global_batch'] // (plan['dp'] * w['micro_batch'])
    L, h, params = model_shape(w['model'])
    gpus = plan['dp'] * plan.get('tp', 1) * plan.get('pp', 1) * plan.get('cp', 1)
    recipes.append({'name': r['name'], 'source': r['source'].split(';')[0].split(' (')[0],
                    'gpu': 'H100' if 'H100' in r['hardware'] else 'A100', 'gpus': gpus, 'parameters': params,
                    'layers': L, 'hidden': h, 'seq_len': w['seq_len'], 'global_batch': w['global_batch'],
                    'micro_batch': w['micro_batch'], 'plan': plan})
RECIPES = os.path.join(HERE, '..', '..', '..', 'resources', 'recipes')
os.makedirs(RECIPES, exist_ok=True)
with open(os.path.join(RECIPES, 'published_llm_plans.json'), 'w') as f:
    json.dump({'format': 'graphplace-recipes', 'version': 1,
               'description': 'Parallel plans of published LLM training runs (the runs of '
                              'tests/data/published/llm_training.json, whose rows cite each source), for '
                              'parallelize\'s "recipe" method. Made by tests/data/llm_runs/make_corpus_rows.py.',
               'recipes': recipes}, f, indent=1)
    f.write('\n')
print(len(recipes), 'recipes')
