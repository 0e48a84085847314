from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")


def ask_tool(messages, tools, tool_choice="auto"):
    return client.chat.completions.create(
        model="qwq-32b",
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        temperature=0.0,
    )
