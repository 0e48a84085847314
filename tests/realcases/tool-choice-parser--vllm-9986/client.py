from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="token")
tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]
resp = client.chat.completions.create(model="THUDM/glm-4-9b-chat", messages=[{"role": "user", "content": "weather?"}],
                                      tools=tools)
print(resp.choices[0].message)
