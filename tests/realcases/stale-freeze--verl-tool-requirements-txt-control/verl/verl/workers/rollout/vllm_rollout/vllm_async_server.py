from vllm.utils import FlexibleArgumentParser, get_tcp_uri
from vllm.v1.engine.async_llm import AsyncLLM


def server_address(host: str, port: int) -> str:
    return get_tcp_uri(host, port)


def parser() -> FlexibleArgumentParser:
    return FlexibleArgumentParser()


ENGINE = AsyncLLM
