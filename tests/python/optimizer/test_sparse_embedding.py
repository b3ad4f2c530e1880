"""Sparse embedding gradients (Embedding(sparse=True) / F.embedding(sparse=True)): the weight's
gradient is a SelectedRows (rows + one value row per looked-up id), autograd sums them (sparse +
sparse merges rows, sparse + dense is dense), and SGD, Momentum, Adam and Adagrad apply them in
dygraph and in the static graph with the results of the dense path (Adam's lazy_mode updates only
the rows present). Other optimizers raise a typed error naming themselves and the parameter."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle.base import libpaddle
from paddle.nn import initializer as I

VOCAB, DIM = 12, 3
RNG = np.random.RandomState(3)
W0 = RNG.randn(VOCAB, DIM)
# Three steps of ids: repeats inside a batch, rows missing in later steps, padding id 0.
STEP_IDS = [np.array([[1, 2, 1], [5, 2, 9]]), np.array([[3, 0, 3]]), np.array([[9, 9, 11, 0]])]


def make_embedding(sparse, padding_idx=None, dtype="float64"):
    paddle.set_default_dtype(dtype)
    try:
        return paddle.nn.Embedding(VOCAB, DIM, padding_idx=padding_idx, sparse=sparse,
                                   weight_attr=paddle.ParamAttr(initializer=I.Assign(W0)))
    finally:
        paddle.set_default_dtype("float32")


def loss_of(out):
    """A loss whose gradient differs per position, so a wrong row shows."""
    coeff = paddle.to_tensor(np.arange(out.size, dtype=np.float64).reshape(out.shape) / 7 - 1,
                             dtype=out.dtype)
    return (out * out * coeff).sum()


def dense_grad(emb, ids):
    """The weight gradient of the dense path, for comparison."""
    dense = make_embedding(False, emb._padding_idx)
    dense.weight.set_value(emb.weight.numpy())
    loss_of(dense(paddle.to_tensor(ids))).backward()
    return dense.weight.grad.numpy()


def to_dense(grad):
    return libpaddle._selected_rows_to_dense(grad).numpy()


# ---------------------------------------------------------------- the gradient
def test_grad_is_selected_rows_with_a_row_per_id():
    emb = make_embedding(True)
    ids = STEP_IDS[0]
    out = emb(paddle.to_tensor(ids))
    out.sum().backward()
    grad = emb.weight.grad
    assert grad.is_selected_rows() and not grad.is_dense()
    assert grad.rows() == ids.reshape(-1).tolist()  # repeats kept until merged, as in Paddle
    assert grad.shape == [ids.size, DIM]  # the value's shape, as in Paddle
    np.testing.assert_array_equal(grad.numpy(), np.ones((ids.size, DIM)))
    assert libpaddle._selected_rows_height(grad) == VOCAB
    assert f"rows={grad.rows()}" in repr(grad)


def test_grad_values_equal_the_dense_gradient():
    emb = make_embedding(True)
    loss_of(emb(paddle.to_tensor(STEP_IDS[0]))).backward()
    np.testing.assert_allclose(to_dense(emb.weight.grad), dense_grad(emb, STEP_IDS[0]), rtol=1e-12)


def test_functional_embedding_sparse():
    weight = paddle.create_parameter([VOCAB, DIM], "float64", default_initializer=I.Assign(W0))
    ids = paddle.to_tensor(np.array([0, 4, 4]))
    loss_of(F.embedding(ids, weight, sparse=True)).backward()
    assert weight.grad.is_selected_rows() and weight.grad.rows() == [0, 4, 4]
    dense = paddle.create_parameter([VOCAB, DIM], "float64", default_initializer=I.Assign(W0))
    loss_of(F.embedding(ids, dense)).backward()
    np.testing.assert_allclose(to_dense(weight.grad), dense.grad.numpy(), rtol=1e-12)


def test_int32_ids():
    emb = make_embedding(True)
    loss_of(emb(paddle.to_tensor(STEP_IDS[0].astype(np.int32)))).backward()
    assert emb.weight.grad.rows() == STEP_IDS[0].reshape(-1).tolist()


def test_padding_row_gets_no_gradient():
    emb = make_embedding(True, padding_idx=2)
    loss_of(emb(paddle.to_tensor(STEP_IDS[0]))).backward()
    assert emb.weight.grad.rows() == [1, 1, 5, 9]
    np.testing.assert_allclose(to_dense(emb.weight.grad), dense_grad(emb, STEP_IDS[0]), rtol=1e-12)


def test_sparse_plus_sparse_merges_rows():
    emb = make_embedding(True)
    a, b = STEP_IDS[0], np.array([3, 1])
    loss = loss_of(emb(paddle.to_tensor(a))) + loss_of(emb(paddle.to_tensor(b)))
    loss.backward()
    grad = emb.weight.grad
    assert grad.is_selected_rows()
    assert grad.rows() == [1, 2, 3, 5, 9]  # sorted, each once, as Paddle merges them
    np.testing.assert_allclose(to_dense(grad), dense_grad(emb, a) + dense_grad(emb, b),
                               rtol=1e-12)


def test_sparse_plus_dense_is_dense():
    emb = make_embedding(True)
    ids = STEP_IDS[0]
    (loss_of(emb(paddle.to_tensor(ids))) + (emb.weight * 2).sum()).backward()
    grad = emb.weight.grad
    assert grad.is_dense()
    np.testing.assert_allclose(grad.numpy(), dense_grad(emb, ids) + 2, rtol=1e-12)


def test_gradients_of_two_backward_passes_merge():
    emb = make_embedding(True)
    loss_of(emb(paddle.to_tensor(STEP_IDS[0]))).backward()
    loss_of(emb(paddle.to_tensor(STEP_IDS[1]))).backward()
    grad = emb.weight.grad
    assert grad.is_selected_rows() and grad.rows() == [0, 1, 2, 3, 5, 9]
    np.testing.assert_allclose(
        to_dense(grad), dense_grad(emb, STEP_IDS[0]) + dense_grad(emb, STEP_IDS[1]), rtol=1e-12)


def test_paddle_grad_returns_the_sparse_gradient():
    emb = make_embedding(True)
    (grad,) = paddle.grad(loss_of(emb(paddle.to_tensor(STEP_IDS[0]))), [emb.weight])
    assert grad.is_selected_rows()
    np.testing.assert_allclose(to_dense(grad), dense_grad(emb, STEP_IDS[0]), rtol=1e-12)


@pytest.mark.parametrize("set_to_zero", [True, False])
def test_clear_grad_drops_a_sparse_gradient(set_to_zero):
    emb = make_embedding(True)
    emb(paddle.to_tensor(STEP_IDS[0])).sum().backward()
    emb.weight.clear_gradient(set_to_zero)
    assert emb.weight.grad is None  # as in Paddle: no zero rows linger
    emb(paddle.to_tensor(STEP_IDS[1])).sum().backward()
    assert emb.weight.grad.rows() == STEP_IDS[1].reshape(-1).tolist()


def test_add_n_sums_sparse_and_dense_into_a_dense_tensor():
    emb = make_embedding(True)
    loss_of(emb(paddle.to_tensor(STEP_IDS[0]))).backward()
    sparse = emb.weight.grad
    dense = paddle.ones([VOCAB, DIM], dtype="float64")
    total = paddle.add_n([sparse, dense, sparse])
    assert total.is_dense()
    np.testing.assert_allclose(total.numpy(), 2 * dense_grad(emb, STEP_IDS[0]) + 1, rtol=1e-12)


def test_an_op_without_a_sparse_kernel_raises_naming_itself():
    emb = make_embedding(True)
    emb(paddle.to_tensor(STEP_IDS[0])).sum().backward()
    with pytest.raises(NotImplementedError, match="exp: input 'x' is a SelectedRows"):
        paddle.exp(emb.weight.grad)


def test_memory_of_a_sparse_gradient_on_a_million_row_table():
    """A 10^6 x 64 float32 table (256 MB): the sparse gradient holds len(ids) x 64 values, and
    backward allocates no table-sized buffer."""
    rows, dim = 10**6, 64
    emb = paddle.nn.Embedding(rows, dim, sparse=True,
                              weight_attr=paddle.ParamAttr(initializer=I.Constant(0.5)))
    ids = paddle.to_tensor(np.random.RandomState(0).randint(0, rows, size=(32, 20)))
    out = emb(ids)
    place = libpaddle.CPUPlace()
    before = libpaddle._memory_allocated(place)
    libpaddle._reset_max_memory_allocated(place)
    out.sum().backward()
    peak = libpaddle._max_memory_allocated(place) - before
    grad = emb.weight.grad
    assert grad.is_selected_rows() and grad.shape == [640, dim]
    value_bytes = 640 * dim * 4
    table_bytes = rows * dim * 4
    assert libpaddle._memory_allocated(place) - before <= 2 * value_bytes
    assert peak <= 4 * value_bytes < table_bytes // 100


# ---------------------------------------------------------------- the optimizers
def train(make_optimizer, sparse, padding_idx=0, steps=STEP_IDS, dtype="float64"):
    emb = make_embedding(sparse, padding_idx, dtype)
    opt = make_optimizer(emb.parameters())
    for ids in steps:
        loss_of(emb(paddle.to_tensor(ids))).backward()
        if sparse:
            assert emb.weight.grad.is_selected_rows()
        opt.step()
        opt.clear_grad()
    return emb.weight.numpy()


OPTIMIZERS = {
    "sgd": lambda p: paddle.optimizer.SGD(0.1, parameters=p),
    "momentum": lambda p: paddle.optimizer.Momentum(0.1, 0.9, parameters=p),
    "momentum_nesterov_l2": lambda p: paddle.optimizer.Momentum(
        0.1, 0.8, parameters=p, use_nesterov=True, weight_decay=0.01),
    "momentum_rescale": lambda p: paddle.optimizer.Momentum(0.1, parameters=p, rescale_grad=0.5),
    "adam": lambda p: paddle.optimizer.Adam(0.1, parameters=p),
    "adam_amsgrad": lambda p: paddle.optimizer.Adam(0.1, parameters=p, amsgrad=True),
    "adagrad": lambda p: paddle.optimizer.Adagrad(0.1, parameters=p),
    "adagrad_initial": lambda p: paddle.optimizer.Adagrad(
        0.2, epsilon=1e-4, parameters=p, initial_accumulator_value=0.1),
    "sgd_l2": lambda p: paddle.optimizer.SGD(0.1, parameters=p, weight_decay=0.05),
    "momentum_l1": lambda p: paddle.optimizer.Momentum(
        0.1, parameters=p, weight_decay=paddle.regularizer.L1Decay(0.05)),
    "sgd_clip_global": lambda p: paddle.optimizer.SGD(
        0.1, parameters=p, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5)),
    "adam_clip_norm": lambda p: paddle.optimizer.Adam(
        0.1, parameters=p, grad_clip=paddle.nn.ClipGradByNorm(0.5)),
    "sgd_clip_value": lambda p: paddle.optimizer.SGD(
        0.1, parameters=p, grad_clip=paddle.nn.ClipGradByValue(0.3)),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_sparse_update_equals_dense_update(name):
    """Every row, touched or not, ends where the dense path puts it (Adam with lazy_mode=False
    updates the missing rows with a zero gradient, as the dense update does)."""
    sparse = train(OPTIMIZERS[name], True)
    dense = train(OPTIMIZERS[name], False)
    np.testing.assert_allclose(sparse, dense, rtol=1e-10, atol=1e-12)
    assert not np.allclose(sparse, W0)


def test_sparse_update_in_float32():
    for name in ("sgd", "momentum", "adam", "adagrad"):
        sparse = train(OPTIMIZERS[name], True, dtype="float32")
        dense = train(OPTIMIZERS[name], False, dtype="float32")
        np.testing.assert_allclose(sparse, dense, rtol=1e-5, atol=1e-6)


def np_lazy_adam(steps, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-8, padding_idx=0):
    """Adam that updates only the rows each step's gradient holds."""
    w, m1, m2 = W0.copy(), np.zeros_like(W0), np.zeros_like(W0)
    w[padding_idx] = 0  # Embedding zeroes the padding row when it is made
    b1p, b2p = beta1, beta2
    for ids in steps:
        emb = make_embedding(False, padding_idx)
        emb.weight.set_value(w)
        g = dense_grad(emb, ids)
        rows = sorted(set(ids.reshape(-1).tolist()) - {padding_idx})
        m1[rows] = beta1 * m1[rows] + (1 - beta1) * g[rows]
        m2[rows] = beta2 * m2[rows] + (1 - beta2) * g[rows] ** 2
        lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
        w[rows] -= lr_t * m1[rows] / (np.sqrt(m2[rows]) + eps * np.sqrt(1 - b2p))
        b1p, b2p = b1p * beta1, b2p * beta2
    return w


def test_lazy_adam_updates_only_the_rows_present():
    lazy = train(lambda p: paddle.optimizer.Adam(0.1, parameters=p, lazy_mode=True), True)
    np.testing.assert_allclose(lazy, np_lazy_adam(STEP_IDS), rtol=1e-10)
    never_seen = [4, 6, 7, 8, 10]
    np.testing.assert_array_equal(lazy[never_seen], W0[never_seen])
    # Row 1 appears only in the first step: later steps leave it alone, unlike the dense update.
    dense = train(OPTIMIZERS["adam"], False)
    assert not np.allclose(lazy[1], dense[1])


def test_lazy_mode_is_ignored_for_dense_gradients():
    lazy = train(lambda p: paddle.optimizer.Adam(0.1, parameters=p, lazy_mode=True), False)
    np.testing.assert_allclose(lazy, train(OPTIMIZERS["adam"], False), rtol=1e-12)


def test_optimizer_state_dict_round_trip_with_sparse_updates():
    emb = make_embedding(True)
    opt = paddle.optimizer.Adagrad(0.1, parameters=emb.parameters())
    loss_of(emb(paddle.to_tensor(STEP_IDS[0]))).backward()
    opt.step()
    state = {k: v.numpy() for k, v in opt.state_dict().items()}
    assert any(k.endswith("_moment_0") for k in state)
    moment = next(v for k, v in state.items() if k.endswith("_moment_0"))
    touched = sorted(set(STEP_IDS[0].reshape(-1).tolist()))
    assert np.all(moment[touched] > 0) and np.all(np.delete(moment, touched, axis=0) == 0)


def test_adam_with_weight_decay_and_a_sparse_gradient_raises_like_paddle():
    emb = make_embedding(True)
    opt = paddle.optimizer.Adam(0.1, parameters=emb.parameters(), weight_decay=0.01)
    emb(paddle.to_tensor(STEP_IDS[0])).sum().backward()
    with pytest.raises(RuntimeError, match="weight_decay with sparse parameters"):
        opt.step()


def test_an_optimizer_without_sparse_support_raises_naming_it_and_the_parameter():
    emb = make_embedding(True)
    opt = paddle.optimizer.AdamW(0.1, parameters=emb.parameters())
    emb(paddle.to_tensor(STEP_IDS[0])).sum().backward()
    before = emb.weight.numpy()
    with pytest.raises(NotImplementedError, match=f"AdamW .*'{emb.weight.name}'"):
        opt.step()
    np.testing.assert_array_equal(emb.weight.numpy(), before)


def test_an_update_op_without_a_sparse_kernel_raises():
    emb = make_embedding(True)
    emb(paddle.to_tensor(STEP_IDS[0])).sum().backward()
    p = emb.weight
    one = paddle.to_tensor([0.1], dtype=p.dtype)
    zeros = paddle.zeros_like(p)
    with pytest.raises(NotImplementedError, match="adamw: input 'grad' is a SelectedRows"):
        paddle._C_ops.adamw_(p.detach(), p.grad, one, zeros, zeros, None, one, one, None, None)


def test_sparse_kernel_rejects_rows_outside_the_table():
    param = paddle.to_tensor(W0)
    grad = libpaddle._make_selected_rows([1, 3], paddle.ones([2, DIM], dtype="float64"), VOCAB)
    bad = libpaddle._make_selected_rows([1, 3], paddle.ones([2, DIM], dtype="float64"), VOCAB + 5)
    lr = paddle.to_tensor([0.1], dtype="float64")
    paddle._C_ops.sgd_(param, lr, grad, None, False)
    expected = W0.copy()
    expected[[1, 3]] -= 0.1
    np.testing.assert_allclose(param.numpy(), expected)
    with pytest.raises(ValueError, match="sgd"):
        paddle._C_ops.sgd_(param, lr, bad, None, False)
    with pytest.raises(IndexError, match="row 12"):
        libpaddle._make_selected_rows([12], paddle.ones([1, DIM]), VOCAB)


def test_a_selected_rows_param_is_rejected():
    rows = libpaddle._make_selected_rows([1], paddle.ones([1, DIM], dtype="float64"), VOCAB)
    lr = paddle.to_tensor([0.1], dtype="float64")
    with pytest.raises(NotImplementedError, match="sgd: only argument 'grad'"):
        paddle._C_ops.sgd(rows, lr, paddle.to_tensor(W0), None, False)
