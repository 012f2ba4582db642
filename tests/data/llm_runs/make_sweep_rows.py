#!/usr/bin/env python3
"""Turns the published layout sweeps of layout_sweeps.json (several layouts of one model on one GPU
set, each run) into the corpus file tests/data/published/llm_sweeps.json and the model configs and
cluster it names. Each sweep is a 'table' of the corpus: `fidelity` ranks its layouts (Kendall's
tau, the simulator's pick and its regret) and checks its out-of-memory calls.

Sweeps whose rows are already in llm_training.json (torchtitan's, Korthikanti et al.'s) are tagged
there by make_corpus_rows.py; this file adds the layouts that are not: Megatron-LM's functional
tests (golden values of one commit: iteration times of CI runs, kept for their order only, and the
peak memory the last rank logged), the out-of-memory layout of torchtitan's Llama 3.1 405B on 128
H100s, and DeepSpeed's ZeRO tutorial (which layout fits in a V100's 32 GB).

Layouts the simulator cannot state are left out and named below: an uneven pipeline split
(decoder_first/last_pipeline_num_layers), torchtitan's every-other-layer and per-op activation
checkpointing, torch.compile and async TP as such.

  python3 tests/data/llm_runs/make_sweep_rows.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'published')
sweeps = {s['sweep']: s for s in json.load(open(os.path.join(HERE, 'layout_sweeps.json')))}
rows = []


def write(sub, name, doc):
    os.makedirs(os.path.join(OUT, sub), exist_ok=True)
    with open(os.path.join(OUT, sub, name + '.json'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    return '%s/%s.json' % (sub, name)


# Megatron-LM's test GPT (tests/functional_tests/test_cases/gpt/*/model_config.yaml): 12 layers of
# 512, 8 heads, GELU MLP of 2048, learned positions, the GPT-2 vocabulary (50257, padded by Megatron
# to a multiple of 128: 50304), sequence 1024; one case unties the output layer.
tiny = write('models', 'megatron-test-gpt', {'model_type': 'gpt2', 'n_layer': 12, 'n_embd': 512, 'n_head': 8,
                                             'n_inner': 2048, 'vocab_size': 50304, 'n_positions': 1024})
tiny_untied = write('models', 'megatron-test-gpt-untied',
                    {'model_type': 'gpt2', 'n_layer': 12, 'n_embd': 512, 'n_head': 8, 'n_inner': 2048,
                     'vocab_size': 50304, 'n_positions': 1024, 'tie_word_embeddings': False})
# Its 7B memory-and-speed case: 32 layers of 4096, 32 heads in 8 groups, GELU MLP of 16384 (no
# --swiglu, no --ffn-hidden-size), biases (Megatron's default add_bias_linear), untied output,
# vocabulary 131072 (the golden run pads to 131073 -> its tp multiple). StarCoder2's config is the
# Hugging Face type with that shape; its rotary positions stand for Megatron's learned ones (8192 x
# 4096 parameters, 0.5 % of the model).
gpt7b = write('models', 'megatron-test-gpt-7b',
              {'model_type': 'starcoder2', 'hidden_size': 4096, 'num_hidden_layers': 32, 'num_attention_heads': 32,
               'num_key_value_heads': 8, 'intermediate_size': 16384, 'vocab_size': 131072,
               'max_position_embeddings': 8192, 'use_bias': True, 'tie_word_embeddings': False})

MEGATRON_HW = {'h100': ('1x8xH100-IB', '8 x H100 SXM 80GB (DGX H100)'),
               'a100': ('1x8xA100-IB', '8 x A100 SXM 80GB (DGX A100)')}


def megatron_plan(p, attention):
    plan = {'dp': p['dp'], 'tp': p['tp'], 'pp': p['pp'], 'cp': p.get('cp') or 1, 'attention': attention,
            'sequence_parallel': bool(p.get('sequence_parallel')), 'framework': 'megatron'}
    zero = p.get('zero_stage') or ''
    if 'dist-optimizer' in zero:
        plan['zero'] = 1
        plan['overlap_param_gather'] = bool(p.get('overlap_param_gather'))
        if '2 instances' in zero:
            plan['shard_group'] = p['dp'] // 2
    recompute = p.get('recompute') or ''
    plan['recompute'] = 'full' if recompute.startswith('full') else 'none'
    if p.get('virtual_stages'):
        plan['virtual_stages'] = p['virtual_stages']
    return plan


def megatron_sweep(key, table, model_for, attention, value_rows, split='check'):
    s = sweeps[key]
    gpu = 'h100' if 'h100' in key else 'a100'
    cluster, hardware = MEGATRON_HW[gpu]
    for layout in s['layouts']:
        p = layout['plan']
        if p.get('decoder_first_pipeline_num_layers'):
            continue  # an uneven pipeline split: the corpus's chunks are even
        case = layout['note'].split(';')[0].replace('test case ', '')
        row = {
            'name': 'megatron-golden-%s-%s' % (gpu, case.replace('_', '-')),
            'source': s['source'].replace('<case>', case),
            'split': split,
            'hardware': hardware,
            'cluster': cluster,
            'framework': 'pytorch-eager',
            'precision': 'bf16',
            'workload': {'model': model_for(layout), 'seq_len': s['seq_len'], 'global_batch': s['global_batch'],
                         'micro_batch': layout['micro_batch'], 'plan': megatron_plan(p, attention)},
            'table': table,
            'unit': 's',
            'published': layout['published'],
            'published_peak_memory_GiB': layout['peak_memory_GiB'],
            'published_peak_memory': 'allocated last rank',
        }
        if not value_rows:
            row['compare'] = 'order'
        row['note'] = ('Megatron-LM functional test %s: iteration time (s, the median logged) and mem-max-allocated-'
                       'bytes (the largest over the run) of the last global rank, which writes the logs. %s' %
                       (case, layout['note'].split(';', 1)[1].strip() if ';' in layout['note'] else ''))
        if not value_rows:
            row['note'] += (' CI runs of a 38M-parameter model, most in deterministic mode with logging on: their times '
                            'are for the order of the layouts, not for their values.')
        rows.append(row)


def tiny_model(layout):
    return 'hf:' + (tiny_untied if 'untie' in layout['note'] else tiny)


megatron_sweep('megatron_golden_tinygpt_dev_dgx_h100', 'megatron-golden-test-gpt-h100', tiny_model, 'flash', False)
megatron_sweep('megatron_golden_tinygpt_lts_dgx_a100', 'megatron-golden-test-gpt-a100', tiny_model, 'flash', False,
               split='set')
megatron_sweep('megatron_golden_tinygpt_unfused_attention_dev_dgx_h100', 'megatron-golden-test-gpt-unfused-h100',
               tiny_model, 'unfused', False)
megatron_sweep('megatron_golden_gpt7b_memory_speed_dev_dgx_h100', 'megatron-golden-gpt-7b-h100',
               lambda layout: 'hf:' + gpt7b, 'flash', True)
megatron_sweep('megatron_golden_gpt7b_memory_speed_dev_dgx_a100', 'megatron-golden-gpt-7b-a100',
               lambda layout: 'hf:' + gpt7b, 'flash', True)

# torchtitan's Llama 3.1 405B on 128 H100s (docs/performance.md, Dec 2024): "We do see OOM for 1D
# parallelism (FSDP2)"; the batch and checkpointing of that attempt are not stated, so the row
# takes the layout most likely to fit: full checkpointing, one sequence per GPU. Its other three
# layouts (tp 8 x FSDP 16) are rows of llm_training.json in the same table.
s = sweeps['torchtitan_dec2024doc_llama31_405b_128xH100']
rows.append({
    'name': 'torchtitan-h100-llama3.1-405b-128gpu-fsdp128-oom-2024',
    'source': s['source'],
    'split': 'check',
    'hardware': '128 x H100 SXM 95GB HBM2e (500 W)',
    'cluster': '16xclusters/grand-teton-h100-96gb.json',
    'framework': 'pytorch-eager',
    'precision': 'bf16',
    'workload': {'model': 'hf:models/llama-3.1-405b.json', 'seq_len': 8192, 'global_batch': 128, 'micro_batch': 1,
                 'plan': {'dp': 128, 'tp': 1, 'pp': 1, 'zero': 3, 'recompute': 'full', 'attention': 'flash2',
                          'overlap_param_gather': True, 'framework': 'torchtitan'}},
    'table': 'torchtitan-llama3.1-405b-128xh100',
    'unit': 'tokens/s/GPU',
    'published': 'OOM',
    'note': 'FSDP2 over all 128 GPUs ran out of memory (the text of the source); its batch and checkpointing are not '
            'stated: one sequence per GPU with full checkpointing taken, the least memory that layout can run in.',
})

# DeepSpeed's ZeRO tutorial: GPT-2 1.5B (Megatron-LM v1.1.5, 48 layers of 1600, 16 heads, sequence
# 1024, batch 1 per GPU, fp16) on 8 V100 32GB: plain data parallelism runs out of memory, ZeRO-1
# trains. No times are printed. The GPUs are DGX-2's (NVSwitch); the cluster here is the DGX-1 preset
# with 32 GB parts, which changes no memory.
v100 = json.load(open(os.path.join(HERE, '..', '..', '..', 'resources', 'clusters', '8xV100-DGX1.json')))
(old, spec), = v100['device_kinds'].items()
v100['device_kinds'] = {'V100-SXM3-32GB': dict(spec, memory_GiB=32)}
for dev in v100['devices']:
    if dev.get('kind') == old:
        dev['kind'] = 'V100-SXM3-32GB'
v100['name'] = '8xV100-32GB'
v100['description'] = ('Eight V100 32GB on the DGX-1 preset\'s hybrid cube mesh (DeepSpeed\'s tutorial ran on DGX-2 '
                       'V100-SXM3 32GB, NVSwitch): only its memory is checked. Made by tests/data/llm_runs/'
                       'make_sweep_rows.py.')
v100_cluster = write('clusters', '8xV100-32GB', v100)
gpt2_15b = write('models', 'megatron-gpt2-1.5b', {'model_type': 'gpt2', 'n_layer': 48, 'n_embd': 1600, 'n_head': 16,
                                                 'vocab_size': 50304, 'n_positions': 1024})
s = sweeps['deepspeed_zero_tutorial_gpt2_1p5b_8xV100']
for name, plan, published, note in [
        ('deepspeed-zero-tutorial-gpt2-1.5b-dp8', {'dp': 8, 'tp': 1, 'pp': 1, 'zero': 0}, 'OOM',
         'Plain data parallelism ran out of memory (the tutorial\'s log oom_dp8_1.5B_log.png).'),
        ('deepspeed-zero-tutorial-gpt2-1.5b-zero1', {'dp': 8, 'tp': 1, 'pp': 1, 'zero': 1}, 'fits',
         'ZeRO-1 (reduce_bucket_size 5e8) trains; no time is printed.')]:
    plan.update(recompute='full', attention='unfused', framework='deepspeed')
    rows.append({
        'name': name, 'source': s['source'], 'split': 'check', 'hardware': '8 x V100 SXM3 32GB (DGX-2)',
        'cluster': v100_cluster, 'framework': 'pytorch-eager', 'precision': 'fp16',
        'workload': {'model': 'hf:' + gpt2_15b, 'seq_len': 1024, 'global_batch': 8, 'micro_batch': 1, 'plan': plan},
        'table': 'deepspeed-zero-tutorial-gpt2-1.5b', 'unit': 's', 'published': published,
        'note': note + ' Megatron-LM v1.1.5 (2020): attention unfused; activation checkpointing taken as on, as '
                'DeepSpeedExamples\' GPT-2 scripts run it (the tutorial does not say).'})

with open(os.path.join(OUT, 'llm_sweeps.json'), 'w') as f:
    json.dump({'format': 'graphplace-published', 'version': 1,
               'description': 'Published layout sweeps: several layouts of one model on one GPU set, each run, '
                              'as tables of the corpus (research notes: tests/data/llm_runs/layout_sweeps.md). '
                              'Made by tests/data/llm_runs/make_sweep_rows.py.',
               'rows': rows}, f, indent=1)
    f.write('\n')
print(len(rows), 'rows in', len({r['table'] for r in rows}), 'sweeps')
