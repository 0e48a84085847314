import argparse
