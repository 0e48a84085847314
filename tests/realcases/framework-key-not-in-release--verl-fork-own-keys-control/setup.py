# A fork of verl that keeps the package name and the 0.1 version file, with rollout keys of its own.
import os
from setuptools import setup, find_packages

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "verl/version/version")) as f:
    __version__ = f.read().strip()

setup(
    name="verl",
    version=__version__,
    packages=find_packages(where="."),
    install_requires=["vllm<=0.6.3", "ray", "hydra-core"],
    package_data={"verl": ["trainer/config/*.yaml"]},
)
