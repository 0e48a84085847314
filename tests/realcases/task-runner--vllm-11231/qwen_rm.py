from vllm import LLM

# a Qwen2 reward model (Qwen2ForRewardModel) scored offline
model_path = "./ckpt/qwen-rm"
llm = LLM(model=model_path, task="reward")
outputs = llm.encode(["Question: 1+1? Answer: 2"])
