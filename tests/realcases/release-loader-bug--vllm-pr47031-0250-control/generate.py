from vllm import LLM, SamplingParams

# IBM's research MoE with shared experts (GraniteMoeSharedForCausalLM), split over two GPUs
llm = LLM(model="ibm-research/moe-7b-1b-active-shared-experts", tensor_parallel_size=2)
out = llm.generate(["Hello!"], SamplingParams(max_tokens=20))
print(out[0].outputs[0].text)
