import asyncio

from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI


@function_tool
def get_weather(city: str) -> str:
    return f"Sunny in {city}."


async def main():
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url="http://localhost:8090/v1", api_key="EMPTY")
    model = OpenAIChatCompletionsModel(model="models/Qwen3-4B-AWQ", openai_client=client)
    agent = Agent(name="weather", model=model, instructions="Answer briefly.", tools=[get_weather])
    print((await Runner.run(agent, input="Weather in Tokyo?")).final_output)


asyncio.run(main())
