"""DataParallel's buckets overlap backward (every bucket but the last is launched before
backward's last gradient), and sparse (SelectedRows) gradients of Embedding(sparse=True) are
gathered and averaged as in Paddle: two ranks on half the batch end where one process on the
whole batch does."""
import numpy as np
import pytest

from dist_testing import check_ok, run_ranks


def test_buckets_are_launched_before_backward_ends():
    for timeline in check_ok(run_ranks("bucket_timeline", 2)):
        buckets = len(timeline["launched"])
        assert buckets >= 3, timeline
        # event order only (no timing): all but the first layer's bucket started while
        # backward was still computing gradients
        assert timeline["launched_before_last_gradient"] == buckets - 1, timeline
        assert timeline["launched"] == sorted(timeline["launched"]), timeline
        assert all(f >= s for s, f in zip(timeline["launched"], timeline["finished"])), timeline


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sparse_gradients_match_one_process(dtype):
    # the reference in its own process too: layers made here would shift the global layer
    # name counters other tests read
    (one,) = check_ok(run_ranks("sparse_data_parallel", 1, dtype))
    want = one["params"]
    assert all(one["sparse_grads"])
    for value in check_ok(run_ranks("sparse_data_parallel", 2, dtype, timeout=90)):
        assert all(value["sparse_grads"]), value["sparse_grads"]
        for got, expected in zip(value["params"], want):
            np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == "float32" else 1e-12,
                                       atol=1e-6 if dtype == "float32" else 1e-12)
