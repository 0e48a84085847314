from setuptools import find_packages, setup

install_requires = [
    'ray>=2.10',
    'tensordict<0.6',
    'transformers',
    'vllm<=0.6.3',
]

setup(name='verl', version='0.2.0.dev', packages=find_packages(), install_requires=install_requires)
