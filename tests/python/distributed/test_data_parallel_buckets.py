"""DataParallel's buckets overlap backward (every bucket but the last is launched before
backward's last gradient), and sparse (SelectedRows) gradients of Embedding(sparse=True) are
gathered and averaged as in Paddle: two ranks on half the batch end where one process on the
whole batch does."""
import os
import sys

import numpy as np

from dist_testing import WORKER, check_ok, run_ranks

sys.path.insert(0, os.path.dirname(WORKER))
import dist_worker  # noqa: E402


def test_buckets_are_launched_before_backward_ends():
    for timeline in check_ok(run_ranks("bucket_timeline", 2)):
        buckets = len(timeline["launched"])
        assert buckets >= 3, timeline
        # event order only (no timing): all but the first layer's bucket started while
        # backward was still computing gradients
        assert timeline["launched_before_last_gradient"] == buckets - 1, timeline
        assert timeline["launched"] == sorted(timeline["launched"]), timeline
        assert all(f >= s for s, f in zip(timeline["launched"], timeline["finished"])), timeline


def test_sparse_gradients_match_one_process():
    want, kinds = dist_worker.train_sparse(dist_worker.SparseModel(),
                                           dist_worker.sparse_batches(3, 8), 0, 1)
    assert all(kinds)
    for value in check_ok(run_ranks("sparse_data_parallel", 2, timeout=90)):
        assert all(value["sparse_grads"]), value["sparse_grads"]
        for got, expected in zip(value["params"], want):
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
