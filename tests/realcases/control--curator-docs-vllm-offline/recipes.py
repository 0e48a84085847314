from typing import List

from datasets import Dataset
from pydantic import BaseModel, Field

from bespokelabs import curator


class Recipe(BaseModel):
    title: str = Field(description="Title of the recipe")
    ingredients: List[str] = Field(description="Ingredients")
    instructions: List[str] = Field(description="Steps")


class RecipeGenerator(curator.LLM):
    response_format = Recipe

    def prompt(self, input: dict) -> str:
        return f"Write a {input['cuisine']} recipe."

    def parse(self, input: dict, response: Recipe) -> dict:
        return {"title": response.title, "cuisine": input["cuisine"]}


cuisines = Dataset.from_list([{"cuisine": c} for c in ["Thai", "Greek", "Peruvian"]])
generator = RecipeGenerator(
    model_name="Qwen/Qwen2.5-3B-Instruct",
    backend="vllm",
    backend_params={"tensor_parallel_size": 1, "gpu_memory_utilization": 0.7},
)
print(generator(cuisines).to_pandas())
