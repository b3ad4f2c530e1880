"""Running a script under PaddlePaddle (the interpreter PADDLE_REFERENCE_PYTHON names), for the
tests that move programs and models between it and this framework."""
import os
import subprocess

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")

# Loads the inference model at argv[1], feeds it the arrays of the .npz file at argv[2] by their
# names and saves its fetches to argv[1] + ".theirs.npz".
LOAD_AND_RUN = r"""
import sys, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
feed = dict(np.load(sys.argv[2]))
np.savez(sys.argv[1] + ".theirs.npz", *exe.run(program, feed={k: feed[k] for k in feeds},
                                               fetch_list=fetches))
"""


def run_reference(script, *args):
    """Runs `script` (python -c, with `args`) under PaddlePaddle; the test fails with its stderr
    if the script does. FLAGS_enable_pir_api=0: PaddlePaddle writes and reads old-IR .pdmodel
    programs, the format this framework exchanges."""
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([REFERENCE, "-c", script, *args], env=env, cwd="/",
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]


def run_their_model_here(save_script, feed, directory):
    """Runs `save_script` under PaddlePaddle with a model prefix in `directory` and a .npz of
    `feed` (the arrays by name) as its arguments; the script saves an inference model there and
    its own results as prefix + ".out.npz". Loads the model here and runs it on `feed`. Returns
    (ours, theirs): the fetched arrays, in fetch order."""
    import numpy as np
    import paddle
    from static_testing import static_mode
    prefix, feed_file = os.path.join(directory, "model"), os.path.join(directory, "feed.npz")
    np.savez(feed_file, **feed)
    run_reference(save_script, prefix, feed_file)
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        ours = exe.run(program, feed={k: feed[k] for k in feeds}, fetch_list=fetches)
    theirs = np.load(prefix + ".out.npz")
    return ours, [theirs[f"arr_{k}"] for k in range(len(theirs.files))]


def run_our_model_there(prefix, feed):
    """Runs the inference model saved here at `prefix` under PaddlePaddle on `feed` (the arrays
    by name); returns its fetched arrays, in fetch order."""
    import numpy as np
    feed_file = prefix + ".feed.npz"
    np.savez(feed_file, **feed)
    run_reference(LOAD_AND_RUN, prefix, feed_file)
    theirs = np.load(prefix + ".theirs.npz")
    return [theirs[f"arr_{k}"] for k in range(len(theirs.files))]
