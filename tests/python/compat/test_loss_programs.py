"""Programs holding the loss ops move between PaddlePaddle and this framework (run when
PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle): an inference model that
PaddlePaddle saves with bce_loss, sigmoid_cross_entropy_with_logits (with pos_weight),
huber_loss, kldiv_loss, log_loss and nll_loss (with Weight) runs here with PaddlePaddle's
results, and one saved here from paddle.nn.functional runs in PaddlePaddle with ours."""

import numpy as np
import pytest

import paddle
from paddle_reference import REFERENCE, run_our_model_there, run_their_model_here
from static_testing import static_mode

pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

# PaddlePaddle 3.3.1's functional losses do not build old-IR programs (their static branches
# call PIR-only ops), so the reference appends the legacy ops to the block itself.
REFERENCE_SAVE = r"""
import sys, numpy as np, paddle
paddle.enable_static()
feed = dict(np.load(sys.argv[2]))
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    data = {k: paddle.static.data(k, [None] + list(v.shape[1:]) if k != "w" else list(v.shape),
                                  str(v.dtype)) for k, v in feed.items()}
block = main.global_block()
outs = []
def op(type, inputs, outputs, attrs):
    made = {slot: block.create_var(name=f"{type}_{slot}", dtype="float32") for slot in outputs}
    block.append_op(type=type, inputs={k: [data[v]] for k, v in inputs.items()},
                    outputs={k: [v] for k, v in made.items()}, attrs=attrs)
    outs.extend(made[s] for s in outputs)
op("bce_loss", {"X": "prob", "Label": "y"}, ["Out"], {})
op("sigmoid_cross_entropy_with_logits", {"X": "x", "Label": "y", "pos_weight": "pw"}, ["Out"],
   {"normalize": False, "ignore_index": -100})
op("huber_loss", {"X": "x", "Y": "y"}, ["Out", "Residual"], {"delta": 0.5})
op("kldiv_loss", {"X": "x", "Target": "y"}, ["Loss"], {"reduction": "batchmean", "log_target": True})
op("log_loss", {"Predicted": "p", "Labels": "l"}, ["Loss"], {"epsilon": 1e-3})
op("nll_loss", {"X": "lp", "Label": "c", "Weight": "w"}, ["Out", "Total_weight"],
   {"ignore_index": -100, "reduction": "mean"})
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
np.savez(sys.argv[1] + ".out.npz", *exe.run(main, feed=feed, fetch_list=outs))
paddle.static.save_inference_model(sys.argv[1], list(data.values()), outs, exe, program=main)
"""


def feed_arrays():
    rng = np.random.RandomState(0)

    def f32(low, high, *shape):
        return rng.uniform(low, high, shape).astype(np.float32)
    return {"x": f32(-1, 1, 5, 4), "y": f32(0, 1, 5, 4), "prob": f32(0.05, 0.95, 5, 4),
            "pw": f32(0.5, 2, 5, 4), "p": f32(0.05, 0.95, 5, 1), "l": f32(0, 1, 5, 1),
            "lp": f32(-2, 0, 5, 3, 2, 2), "c": rng.randint(0, 3, (5, 2, 2)), "w": f32(0.5, 2, 3)}


def test_paddlepaddle_loss_program_runs_here(tmp_path):
    got, theirs = run_their_model_here(REFERENCE_SAVE, feed_arrays(), str(tmp_path))
    assert len(got) == len(theirs) == 8
    for k, (value, expected) in enumerate(zip(got, theirs)):
        assert value.shape == expected.shape, k
        np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6, err_msg=f"fetch {k}")


def test_loss_program_saved_here_runs_in_paddlepaddle(tmp_path):
    prefix = str(tmp_path / "losses")
    feed = feed_arrays()
    F = paddle.nn.functional
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            data = {k: paddle.static.data(k, [None] + list(v.shape[1:]) if k != "w"
                                          else list(v.shape), str(v.dtype))
                    for k, v in feed.items()}
            outs = [F.binary_cross_entropy(data["prob"], data["y"], reduction="none"),
                    F.binary_cross_entropy_with_logits(data["x"], data["y"], reduction="none",
                                                       pos_weight=data["pw"]),
                    F.smooth_l1_loss(data["x"], data["y"], reduction="none", delta=0.5),
                    F.kl_div(data["x"], data["y"], reduction="batchmean", log_target=True),
                    F.log_loss(data["p"], data["l"], epsilon=1e-3),
                    F.nll_loss(data["lp"], data["c"], weight=data["w"]),
                    F.nll_loss(data["lp"][:, :, :, 0], data["c"][:, :, 0], reduction="none")]
        exe = paddle.static.Executor()
        ours = exe.run(main, feed=feed, fetch_list=outs)
        paddle.static.save_inference_model(prefix, list(data.values()), outs, exe, program=main)
    theirs = run_our_model_there(prefix, feed)
    assert len(theirs) == len(ours)
    for k, (value, expected) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(expected, value, rtol=1e-5, atol=1e-6, err_msg=f"fetch {k}")
