from setuptools import find_packages, setup

setup(name="verl", packages=find_packages(), install_requires=["transformers"],
      extras_require={"vllm": ["vllm>=0.8.5,<=0.11.0"]})
