import os
from vllm import LLM, SamplingParams

cache_dir = r"J:\LM\cache_dir"
finetuned_model_name = "WizardMath-7B-V1.0"
tensor_parallel_size = 1

if __name__ == "__main__":
    print(os.path.join(cache_dir, finetuned_model_name))
    llm = LLM(model=os.path.join(cache_dir, finetuned_model_name),
              tensor_parallel_size=tensor_parallel_size)
    params = SamplingParams(temperature=0.0, max_tokens=256)
    print(llm.generate(["What is 12 * 7?"], params)[0].outputs[0].text)
