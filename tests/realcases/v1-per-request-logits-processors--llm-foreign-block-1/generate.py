import torch
from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", max_model_len=8192)
tokenizer = llm.get_tokenizer()
blocked = [i for t, i in tokenizer.get_vocab().items() if any("\u3040" <= ch <= "\u30ff" for ch in t)]


def block_foreign(token_ids, logits):
    logits[blocked] = -float("inf")
    return logits


params = SamplingParams(temperature=0.7, max_tokens=512, logits_processors=[block_foreign])
for out in llm.generate(["Explain what a vector database is, in Korean."], params):
    print(out.outputs[0].text)
