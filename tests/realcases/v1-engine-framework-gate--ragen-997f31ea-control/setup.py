import os
import sys

from setuptools import find_packages, setup

version_folder = os.path.dirname(os.path.join(os.path.abspath(__file__)))
with open(os.path.join(version_folder, "verl/version/version")) as f:
    __version__ = f.read().strip()

with open("requirements.txt") as f:
    install_requires = [line.strip() for line in f if line.strip() and not line.startswith("#")]

if "--core" in sys.argv:
    setup(name="verl-core", version=__version__, packages=find_packages(include=["verl"]),
          install_requires=install_requires, package_data={"": ["version/*"]})
else:
    setup(name="verl-full", packages=find_packages(include=["verl", "ragen"]), install_requires=[])
