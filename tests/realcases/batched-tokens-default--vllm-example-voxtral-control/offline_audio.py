from dataclasses import asdict

from vllm import LLM, EngineArgs, SamplingParams


def engine_args(audio_count: int) -> EngineArgs:
    return EngineArgs(
        model="mistralai/Voxtral-Mini-3B-2507",
        max_model_len=8192,
        max_num_seqs=2,
        limit_mm_per_prompt={"audio": audio_count},
        enforce_eager=True,
        enable_chunked_prefill=False,
    )


llm = LLM(**(asdict(engine_args(1)) | {"seed": 0}))
print(llm.generate("hello", SamplingParams(max_tokens=8)))
