from setuptools import find_packages, setup

setup(
    name="openrlhf",
    version="0.5.4",
    packages=find_packages(),
    install_requires=["ray[default]==2.12.0", "transformers"],
    extras_require={
        "vllm": ["vllm==0.6.5"],
        "vllm_latest": ["vllm>0.6.5"],
    },
)
