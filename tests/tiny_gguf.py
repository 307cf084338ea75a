"""A tiny random-weight GGUF model that proves a model server's serving path, not a model.

``build(path)`` writes a llama-architecture model of about 0.5 MB: 2 layers, 64 wide, random
weights, and a byte-level BPE vocabulary (the 256 bytes, a few merges, ChatML's control
tokens) with a Qwen2.5-style chat template, so an engine reads its tool-call syntax
(``<tool_call>{"name": ..., "arguments": ...}</tool_call>``) from the template as it does for
a real model's. Its replies are nonsense; they only have to end:

- every token's embedding carries a constant first component, and the output matrix's first
  column turns it into a fixed preference: end of turn first, then ``"``, ``}``, ``]``, ``0``.
- so free text ends at once (an empty reply), and where a grammar holds the reply to a tool
  call's JSON the shortest values win (``""``, ``0``), and the call ends within a few dozen
  tokens rather than running to ``max_tokens``.

Built with the ``gguf`` package (``pip install -e ".[local-model]"``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np

N_EMBD = 64
N_LAYER = 2
N_HEAD = 4
N_FF = 128
CONTEXT = 65536
SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>")
MERGES = ((" ", "t"), (" ", "a"), ("h", "e"), ("i", "n"))
PREFERRED = (("<|im_end|>", 10.0), ('"', 9.0), ("}", 8.0), ("]", 7.0), ("0", 6.0))

# Qwen2.5's chat template, with tools (the system prompt's default shortened).
TEMPLATE = """\
{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n\
You are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and \
arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \
\\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or \
(message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
"""


def byte_symbols() -> dict[int, str]:
    """GPT-2's byte-level BPE alphabet: each byte as the printable character vocabularies use."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    keep += range(ord("®"), ord("ÿ") + 1)
    symbols = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in symbols:
            symbols[b] = chr(256 + extra)
            extra += 1
    return symbols


def vocabulary() -> tuple[list[str], list[int], list[str]]:
    """The tokens, their GGUF token types and the BPE merges."""
    gguf: Any = importlib.import_module("gguf")
    symbols = byte_symbols()
    tokens = [symbols[b] for b in range(256)]
    types = [int(gguf.TokenType.NORMAL)] * 256
    merges = []
    for left, right in MERGES:
        a = "".join(symbols[b] for b in left.encode())
        b = "".join(symbols[b] for b in right.encode())
        merges.append(f"{a} {b}")
        tokens.append(a + b)
        types.append(int(gguf.TokenType.NORMAL))
    for special in SPECIALS:
        tokens.append(special)
        control = special.startswith("<|")
        types.append(int(gguf.TokenType.CONTROL if control else gguf.TokenType.USER_DEFINED))
    return tokens, types, merges


def build(path: Path, seed: int = 0) -> Path:
    """Write the tiny model to ``path``; the same seed writes the same bytes."""
    gguf: Any = importlib.import_module("gguf")
    rng = np.random.default_rng(seed)
    tokens, types, merges = vocabulary()
    n_vocab = len(tokens)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("proctor-tiny-random")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(N_EMBD // N_HEAD)
    writer.add_rope_freq_base(10000.0)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(tokens.index("<|endoftext|>"))
    writer.add_eos_token_id(tokens.index("<|im_end|>"))
    writer.add_pad_token_id(tokens.index("<|endoftext|>"))
    writer.add_add_bos_token(False)
    writer.add_chat_template(TEMPLATE)

    def random(*shape: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    def ones() -> np.ndarray[Any, np.dtype[np.float32]]:
        return np.ones(N_EMBD, dtype=np.float32)

    embedding = random(n_vocab, N_EMBD)
    embedding[:, 0] = 1.0
    output = random(n_vocab, N_EMBD)
    preference = rng.standard_normal(n_vocab) * 0.5
    for token, logit in PREFERRED:
        preference[tokens.index(token)] = logit
    # After the final RMS norm the first component is about sqrt(N_EMBD): this column is a bias.
    output[:, 0] = (preference / np.sqrt(N_EMBD)).astype(np.float32)
    writer.add_tensor("token_embd.weight", embedding)
    writer.add_tensor("output_norm.weight", ones())
    writer.add_tensor("output.weight", output)
    for i in range(N_LAYER):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", ones())
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", ones())
        for part in ("q", "k", "v", "output"):
            writer.add_tensor(f"blk.{i}.attn_{part}.weight", random(N_EMBD, N_EMBD))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", random(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", random(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", random(N_EMBD, N_FF))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
