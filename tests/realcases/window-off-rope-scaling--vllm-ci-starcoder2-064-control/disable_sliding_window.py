from vllm import LLM

# a model whose every layer has a 4096-token window, run with the window off: the context is capped at it
llm = LLM("./models/starcoder2-3b", disable_sliding_window=True)
llm.generate("Hi my name is")
