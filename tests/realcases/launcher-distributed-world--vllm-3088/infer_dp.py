import os

from accelerate import PartialState

state = PartialState()
os.environ["CUDA_VISIBLE_DEVICES"] = str(state.process_index)

from vllm import LLM, SamplingParams  # noqa: E402

prompts = [f"Question {i}: what is {i} + {i}?" for i in range(64)]
llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2")
with state.split_between_processes(prompts) as part:
    outputs = llm.generate(part, SamplingParams(max_tokens=64))
