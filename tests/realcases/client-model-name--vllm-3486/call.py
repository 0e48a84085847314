import requests

# the reporter's request body: the model by its folder name, not the path the server was given
body = {
    "messages": [{"role": "user", "content": "hello"}],
    "model": "Qwen1.5-14B-Chat-GPTQ-Int8",
    "temperature": 0,
}
print(requests.post("http://localhost:8000/v1/chat/completions", json=body).json())
