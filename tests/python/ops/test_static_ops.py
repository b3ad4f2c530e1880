"""Every op of the harness (op_db.py) in static-graph mode, against dygraph.

Each sample becomes a program whose array arguments are paddle.static.data inputs of the
sample's shapes and dtypes (other arguments stay Python values); the Executor's results must
match the dygraph results of the same call. The same programs are built again with every input
dimension unknown (-1), and a float64 gradient program from paddle.static.gradients must match
dygraph's paddle.grad. Then a few batch-size-agnostic programs run with two batch sizes, and
the static forms of to_tensor, assign and dropout are checked.
"""

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from harness import (cast_sample, flat_outputs, grad_indices, gradient_dtype, gradient_samples,
                     loss_weights, run_dtypes, run_forward, to_numpy, to_paddle, weighted_sum)
from op_db import OP_DB
from paddle.base.framework import to_numpy_dtype
from static_testing import new_programs, static_mode

# One executor runs every program, as in a training script.
EXECUTOR = paddle.static.Executor(paddle.CPUPlace())

# Ops whose samples need some input shapes known while the program is built, even in the test
# with unknown dims: {op: (the arguments, by position or keyword, that keep their shapes; why)}.
KNOWN_SHAPES = {
    "embedding": ([1], "the weight's row count resolves a negative padding_idx, as in Paddle"),
    "gather_nd": ([1], "the last dim of 'index' fixes the rank of the result"),
    "scatter_nd_add": ([1], "the last dim of 'index' fixes the rank of the result"),
    "squeeze": ([0], "without axes squeeze drops the dims of size 1, so the result's rank "
                     "depends on x's dims"),
    "layer_norm_functional": ([0], "layer_norm checks x's trailing dims against normalized_shape "
                                   "while building, as Paddle does"),
    # The Python API broadcasts indices and arr (and values) against each other from their
    # declared shapes, as Paddle's does; unknown dims leave that to the data.
    "take_along_axis": ([0, 1], "indices broadcast against arr from the declared shapes"),
    "put_along_axis": ([0, 1, 2], "indices and values broadcast from the declared shapes"),
    "affine_grid": ([0], "with out_shape a tensor, theta's shape tells a 2-D grid from a 3-D one"),
    "scaled_dot_product_attention": ([0], "a custom scale is folded into query with its head_dim "
                                          "while building (Paddle reads query.shape[-1] too)"),
    "prelu": ([1], "the weight's size picks the mode (one value: 'all', more: 'channel'), as in "
                   "Paddle"),
    "psroi_pool": ([0], "the output has x's channels / (h * w) of them, computed while building, "
                        "as in Paddle"),
}


def _forward_dtype(info):
    """float32 when the entry runs it, else the first dtype it runs."""
    dtypes = run_dtypes(info)
    return "float32" if "float32" in dtypes else dtypes[0]


class _Inputs:
    """Turns the array arguments of a sample into static data variables and records their
    feeds. Floating arrays take `dtype`; the arguments `unknown` names get all dims -1."""

    def __init__(self, dtype, differentiable=(), unknown=()):
        self.dtype = dtype
        self.differentiable = set(differentiable)
        self.unknown = set(unknown)
        self.feed = {}
        self.vars = {}

    def convert(self, value, key, name=None):
        name = name or f"arg_{key}"
        if isinstance(value, np.ndarray):
            if self.dtype is not None and value.dtype.kind in "fc":
                value = value.astype(to_numpy_dtype(self.dtype))
            shape = [-1] * value.ndim if key in self.unknown else list(value.shape)
            var = paddle.static.data(name, shape, value.dtype.name)
            var.stop_gradient = key not in self.differentiable
            self.feed[name] = value
            self.vars[key] = var
            return var
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
            return type(value)(self.convert(v, key, f"{name}_{j}") for j, v in enumerate(value))
        return value


def _build(info, sample, inputs):
    args = [inputs.convert(a, i) for i, a in enumerate(sample.args)]
    kwargs = {k: inputs.convert(v, k) for k, v in sample.kwargs.items()}
    return flat_outputs(info.api(*args, **kwargs))


def _run_static(info, sample, dtype, unknown=()):
    """The fetched outputs of the sample's program and the output variables as built."""
    with static_mode():
        main, startup = new_programs()
        inputs = _Inputs(dtype, unknown=unknown)
        with paddle.static.program_guard(main, startup):
            outputs = _build(info, sample, inputs)
        return EXECUTOR.run(main, feed=inputs.feed, fetch_list=outputs), outputs


def _check_against_dygraph(info, sample, dtype, got, outputs, what):
    expected = [to_numpy(t) for t in flat_outputs(run_forward(info, sample, dtype))]
    assert len(got) == len(expected), f"{what}: {len(got)} outputs, dygraph {len(expected)}"
    for j, (g, e, var) in enumerate(zip(got, expected, outputs)):
        where = f"{what} output {j}"
        assert g.dtype == e.dtype, f"{where}: dtype {g.dtype}, dygraph {e.dtype}"
        assert g.shape == e.shape, f"{where}: shape {g.shape}, dygraph {e.shape}"
        # The shape inferred while building may only leave dims unknown, never get them wrong.
        assert len(var.shape) == e.ndim and all(d in (-1, n) for d, n in zip(var.shape, e.shape)), (
            f"{where}: built with shape {var.shape}, ran with {list(e.shape)}")
        if info.check is not None:  # random ops: the op's own statistics check
            info.check(paddle.to_tensor(g), sample)
        elif e.dtype.kind in "biu":
            np.testing.assert_array_equal(g, e, err_msg=where)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6, equal_nan=True, err_msg=where)


def _op_params(predicate=lambda info: True):
    return [pytest.param(info, id=info.name) for info in OP_DB if predicate(info)]


@pytest.mark.parametrize("info", _op_params())
def test_static_forward_matches_dygraph(info):
    dtype = _forward_dtype(info)
    for k, sample in enumerate(info.samples(np.random.default_rng(0))):
        sample = cast_sample(sample, dtype)
        got, outputs = _run_static(info, sample, dtype)
        _check_against_dygraph(info, sample, dtype, got, outputs, f"{info.name} sample {k}")


def _argument_keys(sample):
    keys = [i for i, a in enumerate(sample.args) if a is not None]
    return keys + [k for k, v in sample.kwargs.items() if v is not None]


@pytest.mark.parametrize("info", _op_params())
def test_static_forward_with_unknown_dims_matches_dygraph(info):
    """Programs built with every dim of the inputs unknown (-1) run the samples alike."""
    known, _ = KNOWN_SHAPES.get(info.name, ((), ""))
    dtype = _forward_dtype(info)
    for k, sample in enumerate(info.samples(np.random.default_rng(0))):
        sample = cast_sample(sample, dtype)
        unknown = [key for key in _argument_keys(sample) if key not in known]
        got, outputs = _run_static(info, sample, dtype, unknown=unknown)
        _check_against_dygraph(info, sample, dtype, got, outputs,
                               f"{info.name} sample {k} (unknown dims)")


def _dygraph_gradients(info, sample, indices, weights, dtype):
    tensors = [to_paddle(a, dtype, requires_grad=(j in indices))
               for j, a in enumerate(sample.args)]
    kwargs = {k: to_paddle(v, dtype) for k, v in sample.kwargs.items()}
    loss = weighted_sum(flat_outputs(info.api(*tensors, **kwargs)), weights)
    grads = paddle.grad([loss], [tensors[i] for i in indices], allow_unused=True)
    return [None if g is None else g.numpy() for g in grads]


def _static_gradients(info, sample, indices, weights, dtype):
    with static_mode():
        main, startup = new_programs()
        inputs = _Inputs(dtype, differentiable=indices)
        with paddle.static.program_guard(main, startup):
            # The weights become assign_value constants of the program (static to_tensor).
            loss = weighted_sum(_build(info, sample, inputs), weights)
            grads = paddle.static.gradients([loss], [inputs.vars[i] for i in indices])
        values = iter(EXECUTOR.run(main, feed=inputs.feed,
                                   fetch_list=[g for g in grads if g is not None]))
        return [None if g is None else next(values) for g in grads]


@pytest.mark.parametrize("info", _op_params(lambda info: info.grad))
def test_static_gradient_matches_dygraph(info):
    """paddle.static.gradients of a random weighting of the outputs, in float64 (complex128 for
    an op with complex kernels only), against paddle.grad of the same weighting in dygraph."""
    samples = info.samples(np.random.default_rng(1))
    dtype = gradient_dtype(info)
    for k, sample in gradient_samples(info, samples, info.no_grad_reason):
        sample = cast_sample(sample, dtype)
        indices = grad_indices(sample)
        assert indices or info.no_grad_reason, (
            f"{info.name} sample {k}: no floating argument to differentiate; give it one or give "
            f"the entry a no_grad_reason")
        if not indices:
            continue
        outputs = flat_outputs(run_forward(info, sample, dtype))
        weights = loss_weights(outputs, np.random.default_rng(1234))
        if info.grad_outputs is not None:
            weights = [w if j in info.grad_outputs else None for j, w in enumerate(weights)]
        expected = _dygraph_gradients(info, sample, indices, weights, dtype)
        got = _static_gradients(info, sample, indices, weights, dtype)
        for i, g, e in zip(indices, got, expected):
            what = f"{info.name} sample {k}: d/d(arg {i})"
            if e is None:
                assert g is None or not np.any(g), f"{what}: a static gradient where dygraph has none"
                continue
            assert g is not None, f"{what}: no static gradient"
            # A float attribute (pow's exponent, ...) is stored as float32 in a program, as in
            # Paddle, while dygraph keeps the Python double: agreement to float32 precision.
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-9, err_msg=what)


# ---- batch-size-agnostic programs ------------------------------------------------------------

def _batch_functions(x, w, b, label, ids, table):
    """Outputs of common functions of a batch x [N, 4] (N unknown in the program), with
    w [4, 3], b [3], label [N, 1] and ids [N, 2]."""
    h = paddle.matmul(x, w)
    logits = paddle.add(h, b)
    return {
        "add": logits, "matmul": h, "softmax": F.softmax(logits),
        "reshape(-1)": paddle.reshape(h, [-1]), "reshape(0, 2, 2)": paddle.reshape(x, [0, 2, 2]),
        "reshape(-1, 2)": paddle.reshape(x, [-1, 2]),
        "mean": paddle.mean(logits), "mean(axis=0)": paddle.mean(x, axis=0),
        "cross_entropy": F.cross_entropy(logits, label),
        "cross_entropy(none)": F.cross_entropy(logits, label, reduction="none"),
        "nll_loss": F.nll_loss(F.log_softmax(logits), paddle.squeeze(label, [1])),
        "x[:, 0]": x[:, 0], "x[1:]": x[1:], "x[-1]": x[-1], "x[:-1, ::2]": x[:-1, ::2],
        "numel": paddle.numel(x), "var(axis=0)": paddle.var(x, axis=0), "std": paddle.std(x),
        "tile": paddle.tile(x, [2, 1]), "concat": paddle.concat([x, x], axis=0),
        "split": paddle.split(x, 2, axis=1)[1], "flatten": paddle.flatten(paddle.unsqueeze(x, 1)),
        "layer_norm": F.layer_norm(x, 4), "one_hot": F.one_hot(paddle.squeeze(label, [1]), 3),
        "embedding": F.embedding(ids, table), "topk": paddle.topk(x, 2)[0],
        "allclose": paddle.allclose(x, x + 1e-9),
    }


def _batch_inputs(rng, n):
    return {"x": rng.standard_normal((n, 4)), "w": rng.standard_normal((4, 3)),
            "b": rng.standard_normal(3), "label": rng.integers(0, 3, (n, 1)),
            "ids": rng.integers(0, 5, (n, 2)), "table": rng.standard_normal((5, 3))}


def test_batch_agnostic_program_runs_with_two_batch_sizes():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            args = [paddle.static.data("x", [None, 4], "float64"),
                    paddle.static.data("w", [4, 3], "float64"),
                    paddle.static.data("b", [3], "float64"),
                    paddle.static.data("label", [None, 1], "int64"),
                    paddle.static.data("ids", [None, 2], "int64"),
                    paddle.static.data("table", [5, 3], "float64")]
            outputs = _batch_functions(*args)
            assert outputs["matmul"].shape == [-1, 3] and outputs["reshape(-1)"].shape == [-1]
            assert outputs["reshape(0, 2, 2)"].shape == [-1, 2, 2]
            loss = paddle.add(paddle.sum(outputs["softmax"] * outputs["add"]),
                              outputs["cross_entropy"])
            x, w, b = args[:3]
            grads = paddle.static.gradients([loss], [x, w, b])
        names = list(outputs)
        for n in (2, 5):
            feed = _batch_inputs(np.random.default_rng(n), n)
            got = EXECUTOR.run(main, feed=feed, fetch_list=list(outputs.values()) + grads)
            paddle.disable_static()
            try:
                tensors = {k: paddle.to_tensor(v, stop_gradient=k not in ("x", "w", "b"))
                           for k, v in feed.items()}
                expected = _batch_functions(*tensors.values())
                loss = paddle.sum(expected["softmax"] * expected["add"]) + expected["cross_entropy"]
                expected_grads = paddle.grad([loss], [tensors[k] for k in ("x", "w", "b")])
            finally:
                paddle.enable_static()
            for name, g, e in zip(names + ["d/dx", "d/dw", "d/db"], got,
                                  [expected[k] for k in names] + list(expected_grads)):
                np.testing.assert_allclose(g, e.numpy(), rtol=1e-12, atol=1e-12,
                                           err_msg=f"{name} with batch size {n}")


# ---- constants and random ops in static mode -------------------------------------------------

def test_to_tensor_and_assign_make_program_constants():
    values = {
        "float64": np.array([[0.1, -2.5e-300], [np.pi, 7.0]]),
        "int64": np.array([2 ** 40 + 3, -5]),
        "bool": np.array([True, False, True]),
        "0-d float32": np.float32(1.5),
    }
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            made = {k: paddle.to_tensor(v) for k, v in values.items()}
            made["scalar"] = paddle.to_tensor(0.1, dtype="float64")
            made["list as int32"] = paddle.to_tensor([[1, 2], [3, 4]], dtype="int32")
            made["bfloat16"] = paddle.to_tensor(np.array([1.0, 3.0]), dtype="bfloat16")
            made["assign(numpy)"] = paddle.assign(np.arange(6.0).reshape(2, 3))
            made["assign(scalar)"] = paddle.assign(2.5)
            x = paddle.static.data("x", [None, 3], "float64")
            assert all(v.stop_gradient for v in made.values())  # constants
            made["assign(x)"] = paddle.assign(x)
            out = paddle.static.data("out", [1], "float32")
            written = paddle.assign(x * 2.0, output=out)
        assert written is out and out.shape == [-1, 3] and out.dtype == paddle.float64
        types = [op.type for op in main.global_block().ops]
        assert types.count("assign_value") == 9, types
        xv = np.array([[1.0, 2.0, 3.0]])
        got = dict(zip(list(made) + ["output"], EXECUTOR.run(
            main, feed={"x": xv}, fetch_list=list(made.values()) + [out])))
    for name, value in values.items():
        assert got[name].dtype == value.dtype, name
        np.testing.assert_array_equal(got[name], value, err_msg=name)
    assert got["scalar"].dtype == np.float64 and got["scalar"] == 0.1
    np.testing.assert_array_equal(got["list as int32"], np.array([[1, 2], [3, 4]], dtype="int32"))
    bits = got["bfloat16"].astype(np.uint32) << 16
    np.testing.assert_array_equal(bits.view(np.float32), [1.0, 3.0])
    np.testing.assert_array_equal(got["assign(numpy)"], np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(got["assign(scalar)"], [2.5])
    np.testing.assert_array_equal(got["assign(x)"], xv)
    np.testing.assert_array_equal(got["output"], 2 * xv)


def test_dropout_in_static_mode():
    p = 0.3
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [200, 100])
            train = F.dropout(x, p)
            rows = F.dropout(x, p, axis=0)
            infer = F.dropout(x, p, training=False, mode="downscale_in_infer")
            batch = paddle.static.data("batch", [None, 100])
            # With axis the mask is a uniform draw over the axis dims, which must be known.
            with pytest.raises(NotImplementedError, match="must be known"):
                F.dropout(batch, p, axis=0)
        xv = np.ones((200, 100), "float32")
        train_v, rows_v, infer_v = EXECUTOR.run(main, feed={"x": xv},
                                                fetch_list=[train, rows, infer])
    kept = train_v != 0
    assert abs(kept.mean() - (1 - p)) < 0.02
    np.testing.assert_allclose(train_v[kept], 1 / (1 - p), rtol=1e-6)
    # axis=0: whole rows are kept or dropped together.
    assert all(len(set(row)) == 1 for row in rows_v)
    np.testing.assert_allclose(infer_v, xv * (1 - p), rtol=1e-6)


def test_dropout_with_unknown_batch_dim_and_its_test_program():
    """F.dropout writes Paddle's dropout op, so the batch dim may be unknown; the program from
    clone(for_test=True) runs it with is_test: the identity (upscale_in_train) or x * (1 - p)
    (downscale_in_infer)."""
    p = 0.3
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 8])
            x.stop_gradient = False
            up = F.dropout(x, p)
            down = F.dropout(x, p, mode="downscale_in_infer")
            assert up.shape == [-1, 8] and down.shape == [-1, 8]
            grad, = paddle.static.gradients([paddle.sum(up * 3.0)], [x])
        ops = [op for op in main.global_block().ops if op.type == "dropout"]
        assert len(ops) == 2 and not ops[0].attr("is_test")
        assert ops[1].attr("dropout_implementation") == "downgrade_in_infer"
        test = main.clone(for_test=True)
        assert all(op.attr("is_test") for op in test.global_block().ops if op.type == "dropout")
        assert "dropout_grad" not in [op.type for op in test.global_block().ops]
        for n in (3, 1000):
            xv = np.random.default_rng(n).uniform(1.0, 2.0, (n, 8)).astype("float32")
            up_v, down_v, grad_v = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[up, down, grad])
            for v, scale in ((up_v, 1 / (1 - p)), (down_v, 1.0)):
                kept = v != 0
                np.testing.assert_allclose(v[kept], xv[kept] * scale, rtol=1e-6)
                if n == 1000:
                    assert abs(kept.mean() - (1 - p)) < 0.02
            # The gradient goes through the same mask as the forward.
            np.testing.assert_allclose(grad_v, 3.0 * (up_v != 0) / (1 - p), rtol=1e-6)
            up_t, down_t = EXECUTOR.run(test, feed={"x": xv}, fetch_list=[up, down])
            np.testing.assert_array_equal(up_t, xv)
            np.testing.assert_allclose(down_t, xv * (1 - p), rtol=1e-6)


def _paddle_dropout_program(attrs, seed_var=False, with_mask=True):
    """A program holding one dropout op as Paddle writes it (slots X, Seed, Out, Mask; Paddle's
    inference models leave the intermediate Mask out)."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 8], "float32")
        seed = paddle.static.data("seed", [1], "int32") if seed_var else None
    block = main.global_block()
    out = block.create_var(name="out", dtype="float32")
    mask = block.create_var(name="mask", dtype="uint8")
    inputs = {"X": [x], "Seed": [seed]} if seed_var else {"X": [x]}
    outputs = {"Out": [out], "Mask": [mask]} if with_mask else {"Out": [out]}
    block.append_op("dropout", inputs=inputs, outputs=outputs, attrs=attrs)
    return main, out, mask


def test_hand_built_paddle_dropout_op():
    xv = np.random.default_rng(0).uniform(1.0, 2.0, (400, 8)).astype("float32")
    with static_mode():
        main, out, mask = _paddle_dropout_program(
            {"dropout_prob": 0.25, "is_test": True, "dropout_implementation": "downgrade_in_infer"})
        got, mask_v = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[out, mask])
        np.testing.assert_allclose(got, xv * np.float32(0.75), rtol=1e-6)
        assert mask_v.dtype == np.uint8 and mask_v.all()

        main, out, _ = _paddle_dropout_program(
            {"dropout_prob": 0.25, "is_test": True, "dropout_implementation": "upscale_in_train"})
        np.testing.assert_array_equal(EXECUTOR.run(main, feed={"x": xv}, fetch_list=[out])[0], xv)
        for is_test in (True, False):  # without the Mask slot
            main, out, _ = _paddle_dropout_program(
                {"dropout_prob": 0.25, "is_test": is_test,
                 "dropout_implementation": "downgrade_in_infer"}, with_mask=False)
            got = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[out])[0]
            kept = got != 0 if not is_test else np.ones(xv.shape, bool)
            np.testing.assert_allclose(got, np.where(kept, xv * np.float32(0.75 if is_test else 1), 0),
                                       rtol=1e-6)

        # Training with a fixed seed (attribute or Seed input): the same mask on every run.
        main, out, mask = _paddle_dropout_program(
            {"dropout_prob": 0.5, "is_test": False, "dropout_implementation": "downgrade_in_infer",
             "fix_seed": True, "seed": 11})
        runs = [EXECUTOR.run(main, feed={"x": xv}, fetch_list=[out, mask]) for _ in range(2)]
        np.testing.assert_array_equal(runs[0][1], runs[1][1])
        np.testing.assert_array_equal(runs[0][0], xv * runs[0][1])
        assert abs(runs[0][1].mean() - 0.5) < 0.05
        main, out, mask = _paddle_dropout_program(
            {"dropout_prob": 0.5, "is_test": False, "dropout_implementation": "downgrade_in_infer"},
            seed_var=True)
        seeded = EXECUTOR.run(main, feed={"x": xv, "seed": np.array([11], "int32")},
                              fetch_list=[mask])[0]
        np.testing.assert_array_equal(seeded, runs[0][1])
