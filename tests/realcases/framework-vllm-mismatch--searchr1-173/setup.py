from setuptools import find_packages, setup

setup(name="search-r1", version="0.1.0", packages=find_packages(),
      install_requires=["verl==0.1", "vllm<=0.6.3", "ray", "transformers"])
