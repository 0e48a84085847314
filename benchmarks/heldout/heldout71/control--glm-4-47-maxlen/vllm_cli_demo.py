import asyncio
import time

from transformers import AutoTokenizer
from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

MODEL_PATH = "THUDM/glm-4-9b-chat"


def load():
    args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        max_model_len=16384,
        disable_log_requests=True,
    )
    tok = AutoTokenizer.from_pretrained(MODEL_PATH, trust_remote_code=True)
    return AsyncLLMEngine.from_engine_args(args), tok


async def chat(engine, tok):
    while True:
        text = input("You: ")
        if text in ("exit", "quit"):
            break
        prompt = tok.apply_chat_template([{"role": "user", "content": text}],
                                         add_generation_prompt=True, tokenize=False)
        params = SamplingParams(temperature=0.6, top_p=0.8, max_tokens=8192)
        async for out in engine.generate(prompt, params, request_id=str(time.time())):
            final = out
        print(final.outputs[0].text)


if __name__ == "__main__":
    engine, tok = load()
    asyncio.run(chat(engine, tok))
