"""Mounts vLLM's OpenAI serving classes on a BentoML service (written against vLLM 0.4.0)."""
from fastapi import FastAPI, Request


def openai_endpoints(served_model: str, response_role: str = "assistant"):
    def wrapper(svc):
        inner = svc.inner
        app = FastAPI()

        class WithOpenAI(inner):
            def __init__(self):
                super().__init__()
                from vllm.entrypoints.openai.serving_chat import OpenAIServingChat
                from vllm.entrypoints.openai.serving_completion import OpenAIServingCompletion

                self.openai_serving_completion = OpenAIServingCompletion(engine=self.engine, served_model=served_model)
                self.openai_serving_chat = OpenAIServingChat(engine=self.engine, served_model=served_model,
                                                             response_role=response_role)

                @app.post("/completions")
                async def create_completion(request: Request):
                    return await self.openai_serving_completion.create_completion(await request.json(), request)

        svc.inner = WithOpenAI
        svc.mount_asgi_app(app, path="/v1/")
        return svc

    return wrapper
