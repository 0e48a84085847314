import json
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "2"

from vllm import LLM, SamplingParams

MODEL = "./models/qwen1.5-7b-chat-gptq-sft"
DATA = "./data/test.json"

llm = LLM(
    model=MODEL,
    enforce_eager=True,
    trust_remote_code=True,
    gpu_memory_utilization=0.95,
    dtype="auto",
    quantization="gptq",
    max_model_len=9000,
)
params = SamplingParams(temperature=0.8)

with open(DATA, encoding="utf-8") as f:
    rows = json.load(f)
prompts = [r["system"] + "\n\n" + r["instruction"] + "\n" + r["input"] for r in rows]

# Every prompt shares the system + instruction text: cache it as a prefix.
shared = rows[0]["system"] + "\n\n" + rows[0]["instruction"] + "\n"
prefix_pos = len(llm.llm_engine.tokenizer.encode(shared)) - 1

# First call computes and stores the prefix, later calls reuse it.
llm.generate(prompts[0], params, prefix_pos=[prefix_pos])
outputs = llm.generate(prompts, params, prefix_pos=[prefix_pos] * len(prompts))
for out in outputs:
    print(out.outputs[0].text)
