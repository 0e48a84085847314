from setuptools import setup, find_packages

setup(name="rllm", version="0.0.0", packages=find_packages(include=["rllm"]), install_requires=["torch==2.4.0", "wandb"])
