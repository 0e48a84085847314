import time


async def log_timing_middleware(request, call_next):
    # logs how long each HTTP request took
    start = time.perf_counter()
    response = await call_next(request)
    print(f"{request.url.path} {time.perf_counter() - start:.3f}s")
    return response
