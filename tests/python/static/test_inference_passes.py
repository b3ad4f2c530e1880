"""The predictor's program rewrites (paddle/framework/inference_passes.h) on a saved inference
model: dropout removed or turned into a scale, conv2d + batch_norm folded into conv2d +
elementwise_add, conv + bias + residual + activation chains fused into fused_conv2d_add_act,
with the results unchanged within float rounding."""
import numpy as np
import pytest

import paddle
from paddle.base import libpaddle
from static_testing import static_mode


def saved_cnn(prefix, mode):
    """A conv/bn/relu/dropout stack with random batch-norm statistics, saved for inference."""
    rng = np.random.default_rng(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3, 8, 8], "float32")
        h = paddle.nn.Conv2D(3, 8, 3, padding=1, bias_attr=False)(x)
        h = paddle.nn.functional.relu(paddle.nn.BatchNorm2D(8)(h))
        h = paddle.nn.functional.dropout(h, 0.3, training=True, mode=mode)
        h = paddle.nn.Conv2D(8, 4, 1, groups=4, bias_attr=False)(h)
        out = paddle.nn.BatchNorm2D(4)(h)
    exe = paddle.static.Executor()
    exe.run(startup)
    scope = paddle.static.global_scope()
    for var in main.all_parameters() + [v for v in main.list_vars() if v.persistable]:
        value = scope.find_var(var.name)
        if value is None:
            continue
        tensor = np.array(value.get_tensor())
        fill = rng.uniform(0.5, 1.5, tensor.shape) if "variance" in var.name or "w_1" in var.name \
            else rng.standard_normal(tensor.shape)
        value.get_tensor().set(fill.astype("float32"), paddle.CPUPlace())
    paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)


@pytest.mark.parametrize("mode", ["upscale_in_train", "downscale_in_infer"])
def test_passes_keep_the_results(tmp_path, mode):
    prefix = str(tmp_path / "cnn")
    xs = np.random.default_rng(1).standard_normal((2, 3, 8, 8)).astype("float32")
    with static_mode():
        saved_cnn(prefix, mode)
        exe = paddle.static.Executor()
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            expected, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
            applied = dict(libpaddle._apply_inference_passes(program.desc,
                                                             paddle.static.global_scope()))
            types = [program.desc.block(0).op(i).type()
                     for i in range(program.desc.block(0).op_size())]
            got, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
    assert applied["fold_conv_batch_norm"] == 2
    assert "batch_norm" not in types and "dropout" not in types
    # Each convolution fused with its folded bias: the first with its relu, the second alone.
    assert applied["fuse_conv_add_activation"] == 2
    block = program.desc.block(0)
    fused = [block.op(i) for i in range(block.op_size())
             if block.op(i).type() == "fused_conv2d_add_act"]
    assert [op.attr("activation") for op in fused] == ["relu", "identity"]
    assert "conv2d" not in types and "elementwise_add" not in types
    assert ("scale" in types) == (mode == "downscale_in_infer")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_conv_whose_output_has_other_readers_is_not_folded():
    xs = np.random.default_rng(2).standard_normal((1, 2, 5, 5)).astype("float32")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1, 2, 5, 5], "float32")
            h = paddle.nn.Conv2D(2, 2, 3, padding=1, bias_attr=False)(x)
            bn = paddle.nn.BatchNorm2D(2)
            bn.eval()
            out = bn(h) + h  # h has a second reader
        exe = paddle.static.Executor()
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            test_program = main.clone(for_test=True)
            expected, = exe.run(test_program, feed={"x": xs}, fetch_list=[out])
            applied = dict(libpaddle._apply_inference_passes(test_program.desc,
                                                             paddle.static.global_scope()))
            got, = exe.run(test_program, feed={"x": xs}, fetch_list=[out])
    assert applied["fold_conv_batch_norm"] == 0
    np.testing.assert_array_equal(got, expected)


def test_linear_layers_fuse_into_fc(tmp_path):
    """Linear (matmul_v2 + elementwise_add) + relu, and a Linear without activation, become two
    fc ops; a matmul whose output has another reader stays."""
    prefix = str(tmp_path / "mlp")
    xs = np.random.default_rng(3).standard_normal((5, 2, 4)).astype("float32")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 4], "float32")
            h = paddle.nn.functional.relu(paddle.nn.Linear(4, 8)(x))
            out = paddle.nn.Linear(8, 3)(h)
            extra = paddle.matmul(out, paddle.ones([3, 3]))
            out = extra + paddle.sum(extra)
        exe = paddle.static.Executor()
        exe.run(startup)
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            expected, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
            applied = dict(libpaddle._apply_inference_passes(program.desc,
                                                             paddle.static.global_scope()))
            block = program.desc.block(0)
            fcs = [block.op(i) for i in range(block.op_size()) if block.op(i).type() == "fc"]
            got, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
    assert applied["fuse_fc"] == 2
    assert [op.attr("activation_type") for op in fcs] == ["relu", ""]
    assert [op.attr("in_num_col_dims") for op in fcs] == [2, 2]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def run_with_passes(build, feed, tmp_path):
    """(types after the passes, the passes' counts, output before, output after) of the program
    `build` makes, saved for inference and loaded back."""
    prefix = str(tmp_path / "model")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            inputs, out = build()
        exe = paddle.static.Executor()
        exe.run(startup)
        paddle.static.save_inference_model(prefix, inputs, [out], exe, program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            expected, = exe.run(program, feed=feed, fetch_list=fetches)
            applied = dict(libpaddle._apply_inference_passes(program.desc,
                                                             paddle.static.global_scope()))
            block = program.desc.block(0)
            ops = [block.op(i) for i in range(block.op_size())]
            got, = exe.run(program, feed=feed, fetch_list=fetches)
    return ops, applied, expected, got


def test_residual_blocks_fuse_into_convolutions_with_post_ops(tmp_path):
    """A ResNet bottleneck with a projection shortcut and one with an identity shortcut: every
    convolution becomes a fused_conv2d_add_act, the residual adds and relus go into them."""
    def build():
        x = paddle.static.data("x", [None, 8, 6, 6], "float32")

        def conv_bn(h, cin, cout, k, stride=1):
            h = paddle.nn.Conv2D(cin, cout, k, stride, padding=k // 2, bias_attr=False)(h)
            bn = paddle.nn.BatchNorm2D(cout)
            bn.eval()
            return bn(h)
        h = paddle.nn.functional.relu(conv_bn(x, 8, 4, 1))
        h = paddle.nn.functional.relu(conv_bn(h, 4, 4, 3, 2))
        shortcut = conv_bn(x, 8, 16, 1, 2)
        block1 = paddle.nn.functional.relu(conv_bn(h, 4, 16, 1) + shortcut)
        h = paddle.nn.functional.relu(conv_bn(block1, 16, 16, 3))
        return [x], paddle.nn.functional.relu(block1 + conv_bn(h, 16, 16, 1))
    xs = np.random.default_rng(4).standard_normal((2, 8, 6, 6)).astype("float32")
    ops, applied, expected, got = run_with_passes(build, {"x": xs}, tmp_path)
    types = [op.type() for op in ops]
    assert applied["fuse_conv_add_activation"] == 6
    assert set(types) == {"feed", "fused_conv2d_add_act", "fetch"}
    with_residual = [op for op in ops if op.type() == "fused_conv2d_add_act" and
                     op.input("ResidualData")]
    assert len(with_residual) == 2
    assert all(op.attr("activation") == "relu" for op in with_residual)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("activation", ["relu6", "sigmoid", "tanh"])
def test_conv_with_bias_fuses_with_its_activation(tmp_path, activation):
    """Conv2D's own bias (an elementwise_add on axis 1), in NCHW and NHWC."""
    def build():
        x = paddle.static.data("x", [None, 3, 5, 5], "float32")
        act = getattr(paddle.nn.functional, activation)
        h = act(paddle.nn.Conv2D(3, 4, 3, padding=1)(x))
        h = paddle.transpose(h, [0, 2, 3, 1])
        return [x], act(paddle.nn.Conv2D(4, 2, 3, data_format="NHWC")(h))
    xs = np.random.default_rng(5).standard_normal((2, 3, 5, 5)).astype("float32")
    ops, applied, expected, got = run_with_passes(build, {"x": xs}, tmp_path)
    fused = [op for op in ops if op.type() == "fused_conv2d_add_act"]
    assert [op.attr("activation") for op in fused] == [activation, activation]
    assert [op.attr("data_format") for op in fused] == ["NCHW", "NHWC"]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_conv_chain_with_a_second_reader_stops_there(tmp_path):
    """The biased output is also a model output's operand elsewhere: the convolution fuses
    with its bias only, and the relu stays."""
    def build():
        x = paddle.static.data("x", [None, 2, 4, 4], "float32")
        h = paddle.nn.Conv2D(2, 3, 3, padding=1)(x)
        return [x], paddle.nn.functional.relu(h) * h
    xs = np.random.default_rng(6).standard_normal((1, 2, 4, 4)).astype("float32")
    ops, applied, expected, got = run_with_passes(build, {"x": xs}, tmp_path)
    types = [op.type() for op in ops]
    assert types.count("fused_conv2d_add_act") == 1 and "relu" in types
    assert [op.attr("activation") for op in ops if op.type() == "fused_conv2d_add_act"] == \
        ["identity"]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_tensors_between_fused_convolutions_stay_in_the_blocked_layout(tmp_path):
    """Channels in multiples of 16: the tensors that only fused convolutions read (as input or
    residual) stay blocked; the first convolution's input (3 channels), the last one's output
    (fetched) and the 8-channel branch stay NCHW. The results do not change."""
    def build():
        x = paddle.static.data("x", [None, 3, 8, 8], "float32")
        act = paddle.nn.functional.relu
        a = act(paddle.nn.Conv2D(3, 16, 3, padding=1)(x))
        b = act(paddle.nn.Conv2D(16, 32, 3, padding=1)(a))
        c = act(paddle.nn.Conv2D(32, 16, 1)(b) + a)  # a: the residual, blocked
        d = paddle.nn.Conv2D(16, 8, 1)(c)  # 8 channels: plain
        return [x], paddle.nn.Conv2D(8, 16, 3, padding=1)(d)
    xs = np.random.default_rng(7).standard_normal((2, 3, 8, 8)).astype("float32")
    ops, applied, expected, got = run_with_passes(build, {"x": xs}, tmp_path)
    convs = [op for op in ops if op.type() == "fused_conv2d_add_act"]

    def flag(op, name):  # the pass sets only the attributes that are true
        return op.has_attr(name) and op.attr(name)
    flags = [tuple(flag(op, f"onednn_blocked_{operand}")
                   for operand in ("input", "residual", "output")) for op in convs]
    assert flags == [(False, False, True), (True, False, True), (True, True, False),
                     (False, False, False), (False, False, False)]
    assert applied["keep_conv_outputs_blocked"] == 2
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_predictor_outputs_read_by_convolutions_stay_nchw(tmp_path):
    """A model output that a convolution also reads is not kept blocked: the predictor (which
    strips the fetch ops) passes its outputs to the layout pass."""
    import paddle.inference as paddle_infer
    prefix = str(tmp_path / "two_outputs")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 16, 6, 6], "float32")
            hidden = paddle.nn.functional.relu(paddle.nn.Conv2D(16, 32, 3, padding=1)(x))
            out = paddle.nn.Conv2D(32, 16, 1)(hidden)
        exe = paddle.static.Executor()
        exe.run(startup)
        paddle.static.save_inference_model(prefix, [x], [hidden, out], exe, program=main)
    xs = np.random.default_rng(8).standard_normal((2, 16, 6, 6)).astype("float32")
    results = []
    for ir_optim in (True, False):
        config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
        config.switch_ir_optim(ir_optim)
        predictor = paddle_infer.create_predictor(config)
        predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(xs)
        predictor.run()
        results.append([predictor.get_output_handle(name).copy_to_cpu()
                        for name in predictor.get_output_names()])
    for optimized, plain in zip(*results):
        np.testing.assert_allclose(optimized, plain, rtol=1e-5, atol=1e-5)
