from setuptools import find_packages, setup

setup(name="verl", version=open("verl/version/version").read().strip(), packages=find_packages(),
      install_requires=["vllm==0.10.1.1", "transformers<4.56"])
