# LangChain's VLLM wrapper around a Korean fine-tune of gemma-2-9b-it cloned from the hub.
from langchain_community.llms import VLLM

llm = VLLM(
    model="./models/ko-gemma-2-9b-it",
    trust_remote_code=True,
    max_new_tokens=4096,
    top_k=3,
    top_p=0.9,
    temperature=0.7,
)

print(llm.invoke("안녕하세요, 자기소개를 해 주세요."))
