#!/usr/bin/env python3
"""Write sparse GGUF files with the real tensor layout of current models.

Every tensor's data is a file hole (the file is truncated to its full length
after the header), so a 70B model costs no disk.  The shapes follow each
architecture's `load_arch_tensors` in llama.cpp's `src/models/<arch>.cpp`
(the llama.cpp vendored in llama-cpp-python 0.3.36) and the hyper-parameters
of the model's published `config.json`; the metadata keys are those
`convert_hf_to_gguf.py` (`conversion/<arch>.py`) writes.

Usage:
    make_gguf.py MODEL OUT.gguf [--types TYPES.json]

Without --types, weights are written as the released checkpoint's dtype
(F16/BF16 matrices, F32 norms, biases and router weights, MXFP4 experts for
gpt-oss).  With --types (a JSON object tensor name -> ggml type name, as
parsed from `llama-quantize --dry-run` by run.sh), each tensor gets the type
llama.cpp's quantiser chose for it.

The vocabulary is a synthetic SentencePiece-style list of the model's real
size (control tokens, the 256 byte tokens, filler), enough for llama.cpp to
load the file; n_vocab is what the sizes depend on.
"""
import json
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T

MODELS = {
    # meta-llama/Llama-3.1-8B-Instruct config.json
    "llama31-8b": dict(arch="llama", n_layer=32, n_embd=4096, n_head=32, n_head_kv=8,
                       head_dim=128, n_ff=14336, n_vocab=128256, n_ctx_train=131072,
                       rope_base=500000.0, tied=False, dtype=T.BF16),
    # meta-llama/Llama-3.1-70B-Instruct config.json
    "llama31-70b": dict(arch="llama", n_layer=80, n_embd=8192, n_head=64, n_head_kv=8,
                        head_dim=128, n_ff=28672, n_vocab=128256, n_ctx_train=131072,
                        rope_base=500000.0, tied=False, dtype=T.BF16),
    # Qwen/Qwen3-8B config.json
    "qwen3-8b": dict(arch="qwen3", n_layer=36, n_embd=4096, n_head=32, n_head_kv=8,
                     head_dim=128, n_ff=12288, n_vocab=151936, n_ctx_train=40960,
                     rope_base=1000000.0, tied=False, qk_norm=True, dtype=T.BF16),
    # google/gemma-3-27b-it config.json (text_config); sliding window 1024, 5 local : 1 global
    "gemma3-27b": dict(arch="gemma3", n_layer=62, n_embd=5376, n_head=32, n_head_kv=16,
                       head_dim=128, n_ff=21504, n_vocab=262208, n_ctx_train=131072,
                       rope_base=1000000.0, tied=True, qk_norm=True, post_norms=True,
                       sliding_window=1024, dtype=T.BF16),
    # Qwen/Qwen3-30B-A3B config.json
    "qwen3-30b-a3b": dict(arch="qwen3moe", n_layer=48, n_embd=2048, n_head=32, n_head_kv=4,
                          head_dim=128, n_ff=6144, n_vocab=151936, n_ctx_train=40960,
                          rope_base=1000000.0, tied=False, qk_norm=True, n_expert=128,
                          n_expert_used=8, n_ff_exp=768, dtype=T.BF16),
    # deepseek-ai/DeepSeek-V2-Lite-Chat config.json (MLA, kv_lora_rank 512, no q LoRA)
    "deepseek-v2-lite": dict(arch="deepseek2", n_layer=27, n_embd=2048, n_head=16, n_head_kv=1,
                             n_ff=10944, n_vocab=102400, n_ctx_train=163840, rope_base=10000.0,
                             tied=False, n_expert=64, n_expert_used=6, n_ff_exp=1408,
                             n_expert_shared=2, n_dense_lead=1, kv_lora_rank=512,
                             qk_nope=128, qk_rope=64, v_head=128, dtype=T.BF16),
    # openai/gpt-oss-20b config.json; experts released in MXFP4, the rest BF16
    "gpt-oss-20b": dict(arch="gpt-oss", n_layer=24, n_embd=2880, n_head=64, n_head_kv=8,
                        head_dim=64, n_ff=2880, n_vocab=201088, n_ctx_train=131072,
                        rope_base=150000.0, tied=False, n_expert=32, n_expert_used=4,
                        n_ff_exp=2880, sliding_window=128, dtype=T.BF16, exp_dtype=T.MXFP4),
}


def tensors(m):
    """(name, ne (ggml order), released type) for every tensor of model m."""
    E, V, L = m["n_embd"], m["n_vocab"], m["n_layer"]
    big, f32 = m["dtype"], T.F32
    out = [("token_embd.weight", [E, V], big), ("output_norm.weight", [E], f32)]
    if not m["tied"]:
        out.append(("output.weight", [E, V], big))
    for i in range(L):
        p = f"blk.{i}."
        out.append((p + "attn_norm.weight", [E], f32))
        if m["arch"] == "deepseek2":
            H, r, nope, rope, vh = m["n_head"], m["kv_lora_rank"], m["qk_nope"], m["qk_rope"], m["v_head"]
            out += [(p + "attn_q.weight", [E, H * (nope + rope)], big),
                    (p + "attn_kv_a_mqa.weight", [E, r + rope], big),
                    (p + "attn_kv_a_norm.weight", [r], f32),
                    (p + "attn_k_b.weight", [nope, r, H], big),
                    (p + "attn_v_b.weight", [r, vh, H], big),
                    (p + "attn_output.weight", [H * vh, E], big)]
        else:
            q, kv = m["n_head"] * m["head_dim"], m["n_head_kv"] * m["head_dim"]
            out += [(p + "attn_q.weight", [E, q], big), (p + "attn_k.weight", [E, kv], big),
                    (p + "attn_v.weight", [E, kv], big), (p + "attn_output.weight", [q, E], big)]
            if m.get("qk_norm"):
                out += [(p + "attn_q_norm.weight", [m["head_dim"]], f32),
                        (p + "attn_k_norm.weight", [m["head_dim"]], f32)]
            if m["arch"] == "gpt-oss":
                out += [(p + "attn_q.bias", [q], f32), (p + "attn_k.bias", [kv], f32),
                        (p + "attn_v.bias", [kv], f32), (p + "attn_output.bias", [E], f32),
                        (p + "attn_sinks.weight", [m["n_head"]], f32),
                        (p + "post_attention_norm.weight", [E], f32)]
        if m.get("post_norms"):
            out.append((p + "post_attention_norm.weight", [E], f32))
        if m["arch"] != "gpt-oss":
            out.append((p + "ffn_norm.weight", [E], f32))
        moe = "n_expert" in m and i >= m.get("n_dense_lead", 0)
        if moe:
            X, F = m["n_expert"], m["n_ff_exp"]
            xt = m.get("exp_dtype", big)
            out += [(p + "ffn_gate_inp.weight", [E, X], f32),
                    (p + "ffn_gate_exps.weight", [E, F, X], xt),
                    (p + "ffn_up_exps.weight", [E, F, X], xt),
                    (p + "ffn_down_exps.weight", [F, E, X], xt)]
            if m["arch"] == "gpt-oss":
                out += [(p + "ffn_gate_inp.bias", [X], f32), (p + "ffn_gate_exps.bias", [F, X], f32),
                        (p + "ffn_up_exps.bias", [F, X], f32), (p + "ffn_down_exps.bias", [E, X], f32)]
            if m.get("n_expert_shared"):
                S = F * m["n_expert_shared"]
                out += [(p + "ffn_gate_shexp.weight", [E, S], big),
                        (p + "ffn_up_shexp.weight", [E, S], big),
                        (p + "ffn_down_shexp.weight", [S, E], big)]
        else:
            F = m["n_ff"]
            out += [(p + "ffn_gate.weight", [E, F], big), (p + "ffn_up.weight", [E, F], big),
                    (p + "ffn_down.weight", [F, E], big)]
        if m.get("post_norms"):
            out.append((p + "post_ffw_norm.weight", [E], f32))
    return out


def nbytes(ne, t):
    block, size = gguf.GGML_QUANT_SIZES[t]
    n = 1
    for d in ne:
        n *= d
    assert ne[0] % block == 0, (ne, t)
    return n // block * size


def metadata(w, m):
    w.add_context_length(m["n_ctx_train"])
    w.add_embedding_length(m["n_embd"])
    w.add_block_count(m["n_layer"])
    w.add_feed_forward_length(m["n_ff"])
    w.add_head_count(m["n_head"])
    w.add_head_count_kv(m["n_head_kv"])
    w.add_rope_freq_base(m["rope_base"])
    w.add_layer_norm_rms_eps(1e-6)
    w.add_vocab_size(m["n_vocab"])
    if m["arch"] == "deepseek2":
        r = m["kv_lora_rank"]
        w.add_kv_lora_rank(r)
        w.add_key_length(r + m["qk_rope"])
        w.add_value_length(r)
        w.add_key_length_mla(m["qk_nope"] + m["qk_rope"])
        w.add_value_length_mla(m["v_head"])
        w.add_rope_dimension_count(m["qk_rope"])
        w.add_leading_dense_block_count(m["n_dense_lead"])
        w.add_expert_shared_count(m["n_expert_shared"])
        w.add_expert_weights_scale(1.0)
    else:
        w.add_key_length(m["head_dim"])
        w.add_value_length(m["head_dim"])
        w.add_rope_dimension_count(m["head_dim"])
    if "n_expert" in m:
        w.add_expert_count(m["n_expert"])
        w.add_expert_used_count(m["n_expert_used"])
        w.add_expert_feed_forward_length(m["n_ff_exp"])
    if "sliding_window" in m:
        w.add_sliding_window(m["sliding_window"])


def vocab(w, n_vocab):
    toks = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [2, 3, 3] + [6] * 256
    toks += [f"t{i}" for i in range(len(toks), n_vocab)]
    types += [1] * (n_vocab - len(types))
    w.add_tokenizer_model("llama")
    w.add_token_list(toks)
    w.add_token_scores([0.0] * n_vocab)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)


def write(model, path, types=None):
    m = MODELS[model]
    w = gguf.GGUFWriter(path, m["arch"])
    metadata(w, m)
    vocab(w, m["n_vocab"])
    total = 0
    for name, ne, t in tensors(m):
        if types and name in types:
            t = T[types[name].upper()]
        n = nbytes(ne, t)
        w.add_tensor_info(name, list(reversed(ne)), np.float32, n, raw_dtype=t)
        total = gguf.GGUFWriter.ggml_pad(total, w.data_alignment) + n
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    f = w.fout[0]
    f.flush()
    start = gguf.GGUFWriter.ggml_pad(f.tell(), w.data_alignment)
    f.truncate(start + total)
    w.close()


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} MODEL OUT.gguf [--types TYPES.json]; models: {', '.join(MODELS)}")
    types = None
    if len(sys.argv) == 5 and sys.argv[3] == "--types":
        with open(sys.argv[4]) as fh:
            types = json.load(fh)
    write(sys.argv[1], sys.argv[2], types)
    print(sys.argv[2], os.path.getsize(sys.argv[2]))
