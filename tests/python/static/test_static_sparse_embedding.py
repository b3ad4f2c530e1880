"""Sparse embedding gradients in the static graph: the lookup_table_v2_grad op of an
embedding with is_sparse=True writes a SELECTED_ROWS variable, which the program declares (so
it serialises like Paddle's), and the sgd, momentum, adam and adagrad ops apply it with the
results of the dygraph and dense paths."""
import numpy as np
import pytest

import paddle
from paddle.nn import initializer as I
from paddle.static.program import SELECTED_ROWS
from paddle.utils import unique_name
from static_testing import new_programs, static_mode

VOCAB, DIM = 12, 3
W0 = np.random.RandomState(3).randn(VOCAB, DIM).astype("float32")
W0[0] = 0  # the padding row: dygraph's Embedding zeroes it when made, a static one does not
STEP_IDS = [np.array([[1, 2, 1], [5, 2, 9]]), np.array([[3, 0, 3], [3, 3, 0]]),
            np.array([[9, 9, 11, 0]])]


def coeff_of(ids):
    n = ids.size * DIM
    return (np.arange(n, dtype=np.float32).reshape(ids.shape + (DIM,)) / 7 - 1)


def make_embedding(sparse):
    return paddle.nn.Embedding(VOCAB, DIM, padding_idx=0, sparse=sparse,
                               weight_attr=paddle.ParamAttr(initializer=I.Assign(W0)))


def build(sparse, make_optimizer):
    main, startup = new_programs()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [-1, -1], "int64")
        coeff = paddle.static.data("coeff", [-1, -1, DIM], "float32")
        emb = make_embedding(sparse)
        out = emb(ids)
        loss = (out * out * coeff).sum()
        make_optimizer(None).minimize(loss)
    return main, startup, emb.weight.name, loss


def static_train(sparse, make_optimizer):
    with unique_name.guard(), static_mode():
        main, startup, name, loss = build(sparse, make_optimizer)
        exe = paddle.static.Executor()
        exe.run(startup)
        for ids in STEP_IDS:
            exe.run(main, feed={"ids": ids, "coeff": coeff_of(ids)}, fetch_list=[loss])
        return paddle.static.global_scope().find_var(name).get_tensor().numpy()


def dygraph_train(sparse, make_optimizer):
    with unique_name.guard():
        emb = make_embedding(sparse)
        opt = make_optimizer(emb.parameters())
        for ids in STEP_IDS:
            out = emb(paddle.to_tensor(ids))
            (out * out * paddle.to_tensor(coeff_of(ids))).sum().backward()
            opt.step()
            opt.clear_grad()
        return emb.weight.numpy()


OPTIMIZERS = {
    "sgd": lambda p: paddle.optimizer.SGD(0.1, parameters=p),
    "momentum": lambda p: paddle.optimizer.Momentum(0.1, 0.9, parameters=p, weight_decay=0.01),
    "adam": lambda p: paddle.optimizer.Adam(0.1, parameters=p),
    "adam_lazy": lambda p: paddle.optimizer.Adam(0.1, parameters=p, lazy_mode=True),
    "adagrad": lambda p: paddle.optimizer.Adagrad(0.1, parameters=p),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_static_sparse_update_matches_dygraph_and_dense(name):
    sparse = static_train(True, OPTIMIZERS[name])
    np.testing.assert_allclose(sparse, dygraph_train(True, OPTIMIZERS[name]), rtol=1e-5,
                               atol=1e-6)
    if name != "adam_lazy":  # lazy Adam leaves rows missing from a step alone
        np.testing.assert_allclose(sparse, static_train(False, OPTIMIZERS[name]), rtol=1e-5,
                                   atol=1e-6)
    assert not np.allclose(sparse, W0)


def tied_train(sparse, make_optimizer, static):
    """An embedding looked up twice per step (ids and reversed ids): its gradient is the sum of
    two contributions."""
    def loss_of(emb, ids, coeff):
        out = emb(ids) + emb(paddle.flip(ids, [1]))
        return (out * out * coeff).sum()
    with unique_name.guard():
        if not static:
            emb = make_embedding(sparse)
            opt = make_optimizer(emb.parameters())
            for ids in STEP_IDS:
                loss_of(emb, paddle.to_tensor(ids), paddle.to_tensor(coeff_of(ids))).backward()
                opt.step()
                opt.clear_grad()
            return emb.weight.numpy()
        with static_mode():
            main, startup = new_programs()
            with paddle.static.program_guard(main, startup):
                ids = paddle.static.data("ids", [-1, -1], "int64")
                coeff = paddle.static.data("coeff", [-1, -1, DIM], "float32")
                emb = make_embedding(sparse)
                loss = loss_of(emb, ids, coeff)
                make_optimizer(None).minimize(loss)
            exe = paddle.static.Executor()
            exe.run(startup)
            for step_ids in STEP_IDS:
                exe.run(main, feed={"ids": step_ids, "coeff": coeff_of(step_ids)},
                        fetch_list=[loss])
            return paddle.static.global_scope().find_var(emb.weight.name).get_tensor().numpy()


@pytest.mark.parametrize("name", ["sgd", "adam"])
def test_static_weight_looked_up_twice_sums_its_sparse_gradients(name):
    """The program sums the two SelectedRows contributions with its sum op (into a dense
    gradient, see docs/sparse_gradients.md)."""
    static_sparse = tied_train(True, OPTIMIZERS[name], True)
    np.testing.assert_allclose(static_sparse, tied_train(True, OPTIMIZERS[name], False),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(static_sparse, tied_train(False, OPTIMIZERS[name], True),
                               rtol=1e-5, atol=1e-6)


def test_program_declares_the_gradient_selected_rows():
    with unique_name.guard(), static_mode():
        main, _, name, _ = build(True, OPTIMIZERS["sgd"])
        block = main.global_block()
        grad_op = next(op for op in block.ops if op.type == "lookup_table_v2_grad")
        assert grad_op.attr("is_sparse") is True
        grad = block.var(grad_op.output("W@GRAD")[0])
        assert grad.type == SELECTED_ROWS and grad.is_selected_rows()
        assert grad.dtype == paddle.float32 and grad.shape == [VOCAB, DIM]
        # The serialised program carries the kind and the element type, as Paddle writes it.
        restored = paddle.static.Program.parse_from_string(main.desc.serialize_to_string())
        var = restored.global_block().var(grad.name)
        assert var.type == SELECTED_ROWS and var.dtype == paddle.float32
        dense_block = build(False, OPTIMIZERS["sgd"])[0].global_block()
        dense_op = next(op for op in dense_block.ops if op.type == "lookup_table_v2_grad")
        assert dense_op.attr("is_sparse") is False
        assert not dense_block.var(dense_op.output("W@GRAD")[0]).is_selected_rows()


def test_static_optimizer_without_sparse_support_raises_naming_it_and_the_parameter():
    with unique_name.guard(), static_mode():
        with pytest.raises(NotImplementedError, match="AdamW .*'embedding_0.w_0'"):
            build(True, lambda p: paddle.optimizer.AdamW(0.1, parameters=p))


def test_static_clip_and_weight_decay_of_a_sparse_gradient_raise():
    with unique_name.guard(), static_mode():
        with pytest.raises(NotImplementedError, match="clipping"):
            build(True, lambda p: paddle.optimizer.SGD(
                0.1, parameters=p, grad_clip=paddle.nn.ClipGradByNorm(1.0)))
        with pytest.raises(NotImplementedError, match="weight decay"):
            build(True, lambda p: paddle.optimizer.SGD(0.1, parameters=p, weight_decay=0.1))
