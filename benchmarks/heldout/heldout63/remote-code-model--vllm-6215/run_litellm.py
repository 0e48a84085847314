import litellm

litellm.set_verbose = True

# the "vllm/" prefix makes litellm build a local vLLM engine for the model
response = litellm.completion(
    model="vllm/microsoft/Phi-3-small-8k-instruct",
    messages=[{"role": "user", "content": "who is the PM of India"}],
    temperature=0.2,
    trust_remote_code=True,
    max_tokens=80,
)
print(response)
