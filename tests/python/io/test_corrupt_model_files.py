"""A .pdmodel whose strings are not valid UTF-8 (proto2 does not check them) is rejected while
parsing, with a ValueError naming the file, instead of failing later in Python."""
import os

import pytest

import paddle


def save_model(directory):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x_input", [None, 4], "float32")
            out = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prefix = os.path.join(directory, "model")
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    finally:
        paddle.disable_static()
    return prefix


def test_a_variable_name_that_is_not_utf8_names_the_file(tmp_path):
    prefix = save_model(str(tmp_path))
    with open(prefix + ".pdmodel", "rb") as f:
        data = f.read()
    assert b"x_input" in data
    with open(prefix + ".pdmodel", "wb") as f:
        f.write(data.replace(b"x_input", b"x_\xffnput"))
    with pytest.raises(ValueError) as raised:
        paddle.static.load_inference_model(prefix, paddle.static.Executor(paddle.CPUPlace()))
    message = str(raised.value)
    assert "model.pdmodel" in message and "not valid UTF-8" in message
