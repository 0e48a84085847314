# two environments: one for generation with vLLM, one for DPO training
conda env create -f serve-env.yaml
eval "$(conda shell.bash hook)"

conda create -n trainer python=3.10 --yes
conda activate trainer
pip install torch==2.1.2 torchvision
pip install trl==0.11.1 deepspeed==0.15.4
