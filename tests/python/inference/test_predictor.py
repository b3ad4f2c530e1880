"""paddle.inference: the Python predictor against the static Executor on a saved MLP and CNN,
clones in four threads, model buffers, and a typed error for each kind of bad input."""
import threading

import numpy as np
import pytest

import paddle.inference as paddle_infer
from inference_models import executor_outputs, save_cnn, save_mlp

RNG = np.random.default_rng(7)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("models"))
    return {"mlp": save_mlp(directory), "cnn": save_cnn(directory)}


def predictor_for(prefix):
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_gpu()
    return paddle_infer.create_predictor(config)


def run(predictor, inputs):
    for name, value in zip(predictor.get_input_names(), inputs):
        predictor.get_input_handle(name).copy_from_cpu(value)
    predictor.run()
    return [predictor.get_output_handle(name).copy_to_cpu()
            for name in predictor.get_output_names()]


@pytest.mark.parametrize("model, shape", [("mlp", (5, 6)), ("cnn", (2, 3, 8, 8))])
def test_predictor_matches_the_executor(models, model, shape):
    x = RNG.standard_normal(shape).astype("float32")
    expected = executor_outputs(models[model], [x])
    predictor = predictor_for(models[model])
    got = run(predictor, [x])
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape and g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    # The handles describe the variables they view.
    output = predictor.get_output_handle(predictor.get_output_names()[0])
    assert output.shape() == list(expected[0].shape)
    assert output.type() == paddle_infer.DataType.FLOAT32
    assert output.name() == predictor.get_output_names()[0]


def test_clones_in_four_threads_give_identical_results(models):
    predictor = predictor_for(models["cnn"])
    inputs = [RNG.standard_normal((2, 3, 8, 8)).astype("float32") for _ in range(4)]
    expected = [run(predictor, [x]) for x in inputs]
    clones = [predictor.clone() for _ in range(4)]
    results = [[] for _ in range(4)]

    def serve(index):
        for _ in range(20):
            results[index].append(run(clones[index], [inputs[index]]))

    threads = [threading.Thread(target=serve, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index in range(4):
        assert len(results[index]) == 20
        for outputs in results[index]:
            for got, want in zip(outputs, expected[index]):
                np.testing.assert_array_equal(got, want)


def test_predictor_pool_and_model_buffers(models):
    prefix = models["mlp"]
    with open(prefix + ".pdmodel", "rb") as f:
        program = f.read()
    with open(prefix + ".pdiparams", "rb") as f:
        params = f.read()
    config = paddle_infer.Config()
    config.set_model_buffer(program, len(program), params, len(params))
    assert config.model_from_memory()
    pool = paddle_infer.PredictorPool(config, 2)
    x = RNG.standard_normal((3, 6)).astype("float32")
    expected = executor_outputs(prefix, [x])
    for index in range(2):
        np.testing.assert_allclose(run(pool.retrive(index), [x])[0], expected[0], atol=1e-5)
    with pytest.raises(IndexError):
        pool.retrive(2)


def test_config_records_its_options():
    config = paddle_infer.Config("m.pdmodel", "m.pdiparams")
    config.enable_use_gpu(100, 0, paddle_infer.PrecisionType.Half)
    assert config.use_gpu()
    config.disable_gpu()
    config.set_cpu_math_library_num_threads(2)
    config.switch_ir_optim(False)
    config.enable_memory_optim()
    config.enable_mkldnn()
    config.disable_glog_info()
    assert (config.cpu_math_library_num_threads(), config.ir_optim(), config.mkldnn_enabled(),
            config.glog_info_disabled()) == (2, False, True, True)
    assert "conv + batch_norm folding" in config.summary()
    assert config.prog_file() == "m.pdmodel" and config.params_file() == "m.pdiparams"
    with pytest.raises(ValueError, match="thread"):
        config.set_cpu_math_library_num_threads(0)
    assert paddle_infer.get_version().startswith("version:")
    assert paddle_infer.get_num_bytes_of_data_type(paddle_infer.DataType.FLOAT64) == 8


def test_missing_files_raise_file_not_found(models, tmp_path):
    prefix = models["mlp"]
    with pytest.raises(FileNotFoundError, match="missing.pdmodel"):
        predictor_for(str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="nothing.pdiparams"):
        paddle_infer.create_predictor(
            paddle_infer.Config(prefix + ".pdmodel", str(tmp_path / "nothing.pdiparams")))
    with pytest.raises(FileNotFoundError, match="holds no"):
        paddle_infer.create_predictor(paddle_infer.Config(str(tmp_path)))


def test_params_of_another_model_raise_value_error(models):
    with pytest.raises(ValueError, match="not match"):
        paddle_infer.create_predictor(
            paddle_infer.Config(models["mlp"] + ".pdmodel", models["cnn"] + ".pdiparams"))
    with pytest.raises(ValueError):
        paddle_infer.create_predictor(
            paddle_infer.Config(models["mlp"] + ".pdiparams", models["mlp"] + ".pdiparams"))


def test_bad_inputs_raise_typed_errors(models):
    predictor = predictor_for(models["mlp"])
    with pytest.raises(KeyError, match="no input named 'y'.*'x'"):
        predictor.get_input_handle("y")
    with pytest.raises(KeyError):
        predictor.get_output_handle("x")
    with pytest.raises(RuntimeError, match="has no data"):
        predictor.run()
    handle = predictor.get_input_handle("x")
    with pytest.raises(TypeError, match="float32"):
        handle.copy_from_cpu(np.ones((2, 6), dtype="int64"))
    with pytest.raises(TypeError, match="numpy array"):
        handle.copy_from_cpu(np.ones((2, 6), dtype="complex64"))
    handle.copy_from_cpu(np.ones((2, 7), dtype="float32"))
    with pytest.raises(ValueError, match=r"shape \[-1, 6\].*\[2, 7\]"):
        predictor.run()
    handle.copy_from_cpu(np.ones((2, 6), dtype="float32"))
    predictor.run()  # recovers after the errors
    assert predictor.get_output_handle(predictor.get_output_names()[0]).shape() == [2, 3]


@pytest.mark.parametrize("model, shape", [("mlp", (5, 6)), ("cnn", (2, 3, 8, 8))])
def test_ir_optim_on_and_off_agree(models, model, shape):
    """The analysis passes (conv + batch_norm folding, fc and activation fusion) leave the
    results within float rounding of the program as saved."""
    x = RNG.standard_normal(shape).astype("float32")
    results = []
    for ir_optim in (True, False):
        config = paddle_infer.Config(models[model] + ".pdmodel", models[model] + ".pdiparams")
        config.switch_ir_optim(ir_optim)
        results.append(run(paddle_infer.create_predictor(config), [x]))
    for on, off in zip(*results):
        np.testing.assert_allclose(on, off, rtol=1e-5, atol=1e-5)


def test_jit_saved_layer_is_served_by_the_predictor(tmp_path):
    """paddle.jit.save's files through the predictor, against the layer in dygraph."""
    import paddle
    paddle.seed(3)
    layer = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3, padding=1), paddle.nn.BatchNorm2D(4),
                                 paddle.nn.ReLU(), paddle.nn.Flatten(),
                                 paddle.nn.Linear(4 * 6 * 6, 5))
    layer.eval()
    x = RNG.standard_normal((2, 3, 6, 6)).astype("float32")
    expected = layer(paddle.to_tensor(x)).numpy()
    prefix = str(tmp_path / "layer")
    paddle.jit.save(layer, prefix, input_spec=[paddle.static.InputSpec([None, 3, 6, 6],
                                                                       "float32")])
    got, = run(predictor_for(prefix), [x])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
