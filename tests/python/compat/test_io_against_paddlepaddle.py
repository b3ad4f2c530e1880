"""paddle.io against real PaddlePaddle (run when PADDLE_REFERENCE_PYTHON names an interpreter
that has it): the same script runs in both and reports the public signatures, the index
sequences of the samplers whose randomness both share (DistributedBatchSampler's
RandomState(epoch), random_split's and SubsetRandomSampler's paddle.randperm) and the structure
of DataLoader batches (types, dtypes, shapes), which must agree."""
import json
import os
import subprocess
import sys

import pytest

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")
pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

SCRIPT = r'''
import inspect, json, warnings
import numpy as np
import paddle
from paddle import io

warnings.simplefilter("ignore")
report = {}
report["signatures"] = {
    name: [(p.name, repr(p.default)) for p in inspect.signature(getattr(io, name)).parameters.values()]
    for name in sorted(io.__all__)}

data = list(range(13))
report["distributed"] = [
    [list(io.DistributedBatchSampler(data, b, num_replicas=n, rank=r, shuffle=s, drop_last=d))
     for r in range(n)]
    for n in (1, 2, 4) for b in (1, 3) for s in (False, True) for d in (False, True)]
paddle.seed(21)
report["random_split"] = [list(x.indices) for x in io.random_split(list(range(9)), [0.2, 0.3, 0.5])]
report["random_split_ints"] = [list(x.indices) for x in io.random_split(list(range(9)), [4, 5])]
paddle.seed(21)
report["subset_random"] = list(io.SubsetRandomSampler(list(range(100, 109))))


def describe(batch):
    if isinstance(batch, paddle.Tensor):
        return ["Tensor", str(batch.dtype).split(".")[-1].lower(), list(batch.shape)]
    if isinstance(batch, dict):
        return {k: describe(v) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return [type(batch).__name__, [describe(v) for v in batch]]
    return [type(batch).__name__, repr(batch)]


class Rows(io.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full([2, 3], i, "float32"), "y": np.int64(i), "n": i, "f": i / 2,
                "s": f"r{i}", "pair": (np.array([i], "int32"), [i, i]), "b": True,
                "t": paddle.to_tensor([float(i)])}


class Stream(io.IterableDataset):
    def __iter__(self):
        for i in range(5):
            yield np.array([i], "float64"), i


report["batches"] = [describe(b) for b in io.DataLoader(Rows(), batch_size=2)]
report["unbatched"] = [describe(b) for b in io.DataLoader(Rows(), batch_size=None)][:2]
report["stream"] = [describe(b) for b in io.DataLoader(Stream(), batch_size=2)]
report["collate_tuple"] = [describe(b) for b in io.DataLoader(
    list(range(4)), batch_size=2, collate_fn=lambda b: (np.array(b), "tag", 3))]
report["lengths"] = [len(io.DataLoader(Rows(), batch_size=2)),
                     len(io.DataLoader(Rows(), batch_size=2, drop_last=True)),
                     len(io.DataLoader(Rows(), batch_size=None)),
                     len(io.BatchSampler(Rows(), batch_size=4)),
                     len(io.DistributedBatchSampler(Rows(), 2, num_replicas=3, rank=0))]
print("REPORT" + json.dumps(report))
'''


def run(python):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    out = subprocess.run([python, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd="/",
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    line = [x for x in out.stdout.splitlines() if x.startswith("REPORT")][-1]
    return json.loads(line[len("REPORT"):])


@pytest.fixture(scope="module")
def reports():
    return run(sys.executable), run(REFERENCE)


@pytest.mark.parametrize("key", ["signatures", "distributed", "random_split", "random_split_ints",
                                 "subset_random", "batches", "unbatched", "stream",
                                 "collate_tuple", "lengths"])
def test_io_agrees_with_paddlepaddle(reports, key):
    ours, theirs = reports
    assert ours[key] == theirs[key]
