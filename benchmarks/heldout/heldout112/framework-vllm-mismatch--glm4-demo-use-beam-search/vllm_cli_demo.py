import asyncio
from transformers import AutoTokenizer
from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

MODEL_PATH = "THUDM/glm-4-9b-chat"


def load_engine():
    args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        max_model_len=8192,
    )
    return AsyncLLMEngine.from_engine_args(args)


async def chat(engine, tokenizer, prompt):
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True)
    params = {
        "n": 1,
        "best_of": 1,
        "presence_penalty": 1.0,
        "frequency_penalty": 0.0,
        "temperature": 0.6,
        "top_p": 0.8,
        "top_k": -1,
        "use_beam_search": False,
        "length_penalty": 1,
        "early_stopping": False,
        "ignore_eos": False,
        "max_tokens": 1024,
        "skip_special_tokens": True,
    }
    sampling = SamplingParams(**params)
    async for out in engine.generate(text, sampling_params=sampling, request_id="0"):
        print(out.outputs[0].text)


if __name__ == "__main__":
    tok = AutoTokenizer.from_pretrained(MODEL_PATH, trust_remote_code=True)
    eng = load_engine()
    asyncio.run(chat(eng, tok, "你好"))
