from setuptools import setup, find_packages

setup(
    name="open-r1",
    version="0.1.0.dev0",
    packages=find_packages("src"),
    package_dir={"": "src"},
    install_requires=[
        "vllm==0.7.1",
        "torch==2.5.1",
        "transformers>=4.48",
        "trl>=0.14",
        "lighteval[math] @ git+https://github.com/huggingface/lighteval.git",
    ],
)
