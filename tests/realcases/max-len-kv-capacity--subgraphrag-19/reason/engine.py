from functools import partial

from vllm import LLM, SamplingParams


def make_llm(model_name, tensor_parallel_size=1, max_seq_len_to_capture=8192):
    llm = LLM(model=model_name, tensor_parallel_size=tensor_parallel_size,
              max_seq_len_to_capture=max_seq_len_to_capture)
    return partial(llm.chat, sampling_params=SamplingParams(temperature=0, max_tokens=4000))
