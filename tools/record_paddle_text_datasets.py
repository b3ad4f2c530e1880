"""Records what PaddlePaddle's paddle.text datasets give on the small files of
tests/python/text/dataset_files.py (written into a temporary folder): every item of each case,
its fields' dtypes, and the dictionaries, into tests/python/text/paddle_text_datasets_reference.npz,
which test_text_datasets.py compares this framework with.

Dictionary keys are recorded as their repr (Imdb's and Imikolov's words are bytes). Movielens'
category and title dictionaries and Conll05st's label dictionary are numbered in the iteration
order of a Python set in Paddle, which changes from run to run, so the test compares those ids
through each side's own dictionary.

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_text_datasets.py"""
import json
import os
import shutil
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "text")
sys.path.insert(0, CASES_DIR)

# Paddle's WMT16 writes its dictionaries into its cache and reads them back when their size
# matches: a fresh home keeps the dictionaries of an earlier run out.
HOME = tempfile.mkdtemp()
os.environ["HOME"] = HOME
os.makedirs(os.path.join(HOME, ".cache", "paddle", "dataset", "wmt16"))

import paddle  # noqa: E402
from dataset_files import dataset_cases  # noqa: E402

# The dictionaries each dataset keeps, by attribute.
DICTIONARIES = {"Imdb": ["word_idx"], "Imikolov": ["word_idx"],
                "Movielens": ["categories_dict", "movie_title_dict"],
                "WMT14": ["src_dict", "trg_dict"], "WMT16": ["src_dict", "trg_dict"],
                "Conll05st": ["word_dict", "predicate_dict", "label_dict"], "UCIHousing": []}


def main():
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    with tempfile.TemporaryDirectory() as folder:
        for name, (class_name, kwargs) in dataset_cases(folder).items():
            dataset = getattr(paddle.text, class_name)(**kwargs)
            recorded[f"{name}/len"] = np.asarray(len(dataset))
            for i in range(len(dataset)):
                item = dataset[i]
                recorded[f"{name}/{i}/fields"] = np.asarray(len(item))
                for k, value in enumerate(item):
                    recorded[f"{name}/{i}/{k}"] = value
            for attribute in DICTIONARIES[class_name]:
                words = getattr(dataset, attribute)
                recorded[f"{name}/{attribute}"] = np.asarray(
                    json.dumps(sorted([repr(w), i] for w, i in words.items())))
    shutil.rmtree(HOME)
    path = os.path.join(CASES_DIR, "paddle_text_datasets_reference.npz")
    np.savez_compressed(path, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main()
