from setuptools import setup

setup(name="verl", version=get_version())
