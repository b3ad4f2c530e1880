"""The predictor's program rewrites (paddle/framework/inference_passes.h) on a saved inference
model: dropout removed or turned into a scale, conv2d + batch_norm folded into conv2d +
elementwise_add, with the results unchanged within float rounding."""
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
    # The first folded bias add fused with its relu; the second has no activation after it.
    assert applied["fuse_elementwise_activation"] == 1
    assert types.count("fused_elemwise_activation") == 1 and types.count("elementwise_add") == 1
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
