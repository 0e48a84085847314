from vllm import LLM

llm = LLM(model="meta-llama/Meta-Llama-3-70B-Instruct", quantization="bitsandbytes",
          load_format="bitsandbytes", enforce_eager=True)
print(llm.llm_engine.model_executor.driver_worker.model_runner.model.state_dict().keys())
