"""paddle.static.nn.group_norm, instance_norm and spectral_norm: parameters named and initialised
like Paddle's, results against NumPy, training with minimize, and bad input."""
import numpy as np
import pytest

import paddle
import op_db  # noqa: F401  (first: it extends itself with op_db_norm's entries)
from op_db_norm import gn_np, in_np, sn_np
from static_testing import new_programs, scope_value, static_mode

EXECUTOR = paddle.static.Executor(paddle.CPUPlace())
RNG = np.random.default_rng(4)


def test_group_norm_and_instance_norm_match_numpy_and_name_their_parameters():
    xv = RNG.standard_normal((3, 4, 2, 5)).astype("float32")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 2, 5])
            grouped = paddle.static.nn.group_norm(x, 2, epsilon=1e-3, act="relu")
            last = paddle.static.nn.group_norm(paddle.transpose(x, [0, 2, 3, 1]), 4,
                                               data_layout="NHWC", bias_attr=False)
            instance = paddle.static.nn.instance_norm(x)
            bare = paddle.static.nn.instance_norm(x, param_attr=False, bias_attr=False)
        params = sorted(p.name for p in main.all_parameters())
        assert params == ["group_norm_0.b_0", "group_norm_0.w_0", "group_norm_1.w_0",
                          "instance_norm_0.b_0", "instance_norm_0.w_0"]
        EXECUTOR.run(startup)
        np.testing.assert_array_equal(scope_value("group_norm_0.w_0"), np.ones(4))
        got = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[grouped, last, instance, bare])
    x64 = xv.astype("float64")
    np.testing.assert_allclose(got[0], np.maximum(gn_np(x64, groups=2, epsilon=1e-3)[0], 0),
                               atol=1e-5)
    np.testing.assert_allclose(got[1], gn_np(x64, groups=4)[0].transpose(0, 2, 3, 1), atol=1e-5)
    np.testing.assert_allclose(got[2], in_np(x64)[0], atol=1e-5)
    np.testing.assert_allclose(got[3], in_np(x64)[0], atol=1e-5)


def test_spectral_norm_vectors_stay_while_the_weight_trains():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            weight = paddle.static.create_parameter([3, 4], "float32", name="w")
            normalized = paddle.static.nn.spectral_norm(weight, dim=1, power_iters=3)
            loss = paddle.mean(normalized * normalized)
            paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
        u_name, v_name = sorted(p.name for p in main.all_parameters() if p.name != "w")
        assert (u_name, v_name) == ("spectral_norm_0.w_0", "spectral_norm_0.w_1")
        EXECUTOR.run(startup)
        w0, u0, v0 = (scope_value(n).copy() for n in ("w", u_name, v_name))
        assert u0.shape == (4,) and v0.shape == (3,)
        out, = EXECUTOR.run(main, fetch_list=[normalized])
        np.testing.assert_allclose(out, sn_np(w0.astype("float64"), u0, v0, 1, 3), rtol=1e-5)
        assert not np.array_equal(scope_value("w"), w0)
        np.testing.assert_array_equal(scope_value(u_name), u0)
        np.testing.assert_array_equal(scope_value(v_name), v0)


def test_bad_input():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 3])
            with pytest.raises(ValueError, match="unsupported data layout"):
                paddle.static.nn.group_norm(x, 2, data_layout="NLC")
            with pytest.raises(ValueError, match="divisible by 'groups'"):
                paddle.static.nn.group_norm(x, 3)
            with pytest.raises(ValueError, match="False together"):
                paddle.static.nn.instance_norm(x, param_attr=False)
            with pytest.raises(ValueError, match="received dim=2"):
                paddle.static.nn.spectral_norm(paddle.static.data("w", [4, 3]), dim=2)
            with pytest.raises(TypeError, match="must be a static Variable"):
                paddle.static.nn.group_norm(np.zeros((2, 4)), 2)
    with pytest.raises(AssertionError, match="only supported in static graph mode"):
        paddle.static.nn.instance_norm(paddle.zeros([2, 3, 4]))
