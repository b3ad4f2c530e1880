"""examples/cpp_inference built as a user would build it: CMake outside the framework's build,
find_package(PaddleInference) in the pip-installed package (the folder `python -m paddle.sysconfig
--cmake-dir` prints) and in a `cmake --install --component inference` prefix of the build tree,
then run on saved models and compared with the static Executor to 1e-5."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import paddle
from static_testing import static_mode
from inference_models import executor_outputs, save_cnn, save_mlp

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE = os.path.join(ROOT, "examples", "cpp_inference")
BUILD_TREE = os.path.join(ROOT, "build", "pip")
pytestmark = pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("c++") is None,
                                reason="needs cmake and a C++ compiler")


def package_cmake_dir(tmp_path_factory):
    return subprocess.run([sys.executable, "-m", "paddle.sysconfig", "--cmake-dir"],
                          check=True, capture_output=True, text=True).stdout.strip()


def installed_cmake_dir(tmp_path_factory):
    if not os.path.isfile(os.path.join(BUILD_TREE, "CMakeCache.txt")):
        pytest.skip("no build tree in build/pip to install from")
    prefix = tmp_path_factory.mktemp("paddle_inference_prefix")
    subprocess.run(["cmake", "--install", BUILD_TREE, "--component", "inference", "--prefix",
                    str(prefix)], check=True, capture_output=True)
    return str(prefix / "lib" / "cmake" / "PaddleInference")


@pytest.fixture(scope="module", params=[package_cmake_dir, installed_cmake_dir],
                ids=["pip-package", "cmake-install"])
def serve_model(request, tmp_path_factory):
    cmake_dir = request.param(tmp_path_factory)
    assert os.path.isfile(os.path.join(cmake_dir, "PaddleInferenceConfig.cmake"))
    build = tmp_path_factory.mktemp("cpp_inference_build")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.run(["cmake", "-S", os.path.abspath(EXAMPLE), "-B", str(build), *generator,
                    f"-DPaddleInference_DIR={cmake_dir}", "-DCMAKE_BUILD_TYPE=Release"],
                   check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    return str(build / "serve_model")


def serve(program, prefix, inputs):
    text = "".join(" ".join(map(str, x.shape)) + "\n" +
                   " ".join(repr(float(v)) for v in x.ravel()) + "\n" for x in inputs)
    done = subprocess.run([program, prefix + ".pdmodel", prefix + ".pdiparams"], input=text,
                          capture_output=True, text=True, timeout=60)
    return done


def parse_outputs(stdout):
    lines = stdout.splitlines()
    outputs = []
    for i in range(0, len(lines), 3):
        shape = [int(d) for d in lines[i + 1].split()]
        outputs.append(np.array([float(v) for v in lines[i + 2].split()]).reshape(shape))
    return outputs


@pytest.mark.parametrize("save, shape", [(save_mlp, (4, 6)), (save_cnn, (2, 3, 8, 8))])
def test_cpp_program_matches_the_executor(serve_model, tmp_path, save, shape):
    prefix = save(str(tmp_path))
    x = np.random.default_rng(3).standard_normal(shape).astype("float32")
    done = serve(serve_model, prefix, [x])
    assert done.returncode == 0, done.stderr
    got = parse_outputs(done.stdout)
    expected = executor_outputs(prefix, [x])
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


def test_cpp_program_reports_bad_input(serve_model, tmp_path):
    prefix = save_mlp(str(tmp_path))
    done = serve(serve_model, prefix, [np.ones((2, 5), dtype="float32")])
    assert done.returncode == 1 and "shape [-1, 6]" in done.stderr, done.stderr
    done = serve(serve_model, str(tmp_path / "missing"), [])
    assert done.returncode == 1 and "missing.pdmodel" in done.stderr, done.stderr


def test_cpp_program_feeds_and_prints_integer_tensors(serve_model, tmp_path):
    """Token ids in (int64) and class indices out (int64) beside float scores: serve_model feeds
    each input as the type the model declares and prints each output as its own type."""
    with static_mode():
        paddle.seed(4)
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            ids = paddle.static.data("ids", [None, 5], "int64")
            scores = paddle.static.nn.fc(paddle.nn.Embedding(20, 4)(ids).reshape([-1, 20]), 3)
            best = paddle.argmax(scores, axis=1)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prefix = str(tmp_path / "ids")
        paddle.static.save_inference_model(prefix, [ids], [scores, best], exe, program=main)
    x = np.array([[1, 19, 3, 0, 7], [2, 2, 2, 2, 2]], dtype="int64")
    done = serve(serve_model, prefix, [x])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    expected_scores, expected_best = executor_outputs(prefix, [x])
    np.testing.assert_allclose(np.array(lines[2].split(), dtype=np.float64).reshape(2, 3),
                               expected_scores, rtol=1e-5, atol=1e-6)
    assert lines[5].split() == [str(int(v)) for v in expected_best]  # printed as integers


C_PROGRAM = r"""
#include <stdio.h>
#include "pd_inference_api.h"

/* Runs the MLP on a [2, 6] input of ones and prints the output; on failure prints the error. */
int main(int argc, char** argv) {
  PD_Config* config = PD_ConfigCreate();
  PD_ConfigSetModel(config, argv[1], argv[2]);
  PD_Predictor* predictor = PD_PredictorCreate(config);
  if (predictor == NULL) {
    fprintf(stderr, "%s\n", PD_GetLastErrorMessage());
    return 1;
  }
  PD_Tensor* input = PD_PredictorGetInputHandle(predictor, "x");
  int32_t shape[2] = {2, 6};
  float ones[12];
  for (int i = 0; i < 12; ++i) ones[i] = 1.0f;
  PD_TensorReshape(input, 2, shape);
  PD_TensorCopyFromCpuFloat(input, ones);
  if (!PD_PredictorRun(predictor)) {
    fprintf(stderr, "%s\n", PD_GetLastErrorMessage());
    return 1;
  }
  PD_OneDimArrayCstr* names = PD_PredictorGetOutputNames(predictor);
  PD_Tensor* output = PD_PredictorGetOutputHandle(predictor, names->data[0]);
  float out[6];
  PD_TensorCopyToCpuFloat(output, out);
  for (int i = 0; i < 6; ++i) printf("%.9g\n", out[i]);
  PD_OneDimArrayCstrDestroy(names);
  PD_TensorDestroy(input);
  PD_TensorDestroy(output);
  PD_PredictorDestroy(predictor);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_c_program_uses_the_c_api(tmp_path):
    import paddle.sysconfig
    source = tmp_path / "serve.c"
    source.write_text(C_PROGRAM)
    lib = paddle.sysconfig.get_lib()
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", str(source), "-o",
                    str(tmp_path / "serve"), f"-I{paddle.sysconfig.get_include()}", f"-L{lib}",
                    "-lpaddle_inference", f"-Wl,-rpath,{lib}", f"-Wl,-rpath-link,{lib}"],
                   check=True, capture_output=True)
    prefix = save_mlp(str(tmp_path))
    done = subprocess.run([str(tmp_path / "serve"), prefix + ".pdmodel", prefix + ".pdiparams"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = np.array([float(v) for v in done.stdout.split()]).reshape(2, 3)
    expected = executor_outputs(prefix, [np.ones((2, 6), dtype="float32")])[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    done = subprocess.run([str(tmp_path / "serve"), prefix + ".pdiparams", prefix + ".pdiparams"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "pdiparams" in done.stderr, done.stderr


@pytest.mark.skipif(shutil.which("nm") is None or shutil.which("readelf") is None,
                    reason="needs binutils")
def test_library_exports_only_its_api_and_does_not_load_the_core():
    import paddle.sysconfig
    library = os.path.join(paddle.sysconfig.get_lib(), "libpaddle_inference.so")
    symbols = subprocess.run(["nm", "-D", "--defined-only", "-C", library], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    names = [line.split(" ", 2)[2] for line in symbols]
    assert any(name.startswith("PD_PredictorRun") for name in names)
    assert any("paddle_infer::Predictor::Run()" in name for name in names)
    foreign = [name for name in names
               if not (name.startswith("PD_") or "paddle_infer::" in name)]
    assert foreign == []
    dynamic = subprocess.run(["readelf", "-d", library], check=True, capture_output=True,
                             text=True).stdout
    assert "libpaddle_core" not in dynamic and "libglog" not in dynamic


@pytest.mark.parametrize("kind", ["mlp", "lenet", "encoder"])
def test_four_paths_agree(serve_model, tmp_path, kind):
    """The MLP, the LeNet-style CNN and the Transformer-encoder block: dygraph, paddle.jit.load,
    the Python predictor and the C++ program (through jit.save's files) agree to 1e-5."""
    import paddle
    import paddle.inference as paddle_infer
    from example_models import MODELS
    cls, spec_shape, input_shape = MODELS[kind]
    paddle.seed(11)
    layer = cls()
    layer.eval()
    x = np.random.default_rng(4).standard_normal(input_shape).astype("float32")
    with paddle.no_grad():
        expected = layer(paddle.to_tensor(x)).numpy()
    prefix = str(tmp_path / kind)
    paddle.jit.save(layer, prefix, input_spec=[paddle.static.InputSpec(spec_shape, "float32")])
    with paddle.no_grad():
        loaded = paddle.jit.load(prefix)(paddle.to_tensor(x)).numpy()
    predictor = paddle_infer.create_predictor(
        paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(x)
    predictor.run()
    python_predictor = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    done = serve(serve_model, prefix, [x])
    assert done.returncode == 0, done.stderr
    cpp_predictor, = parse_outputs(done.stdout)
    for got in (loaded, python_predictor, cpp_predictor):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
