from langchain_community.llms import VLLM

# max_model_len here is not a field of the langchain class: it does not reach vLLM
llm = VLLM(
    model="meta-llama/Meta-Llama-3.1-8B-Instruct",
    max_model_len=4096,
    max_new_tokens=256,
    temperature=0.2,
)
print(llm.invoke("What is the capital of France?"))
