"""Records what PaddlePaddle's beam_search, beam_search_decode and viterbi_decode give on the
cases of tests/python/text/decode_cases.py, into tests/python/text/paddle_decode_reference.npz,
which test_decode_ops.py compares this framework with.

Paddle's beam search ops read LoD, which only its legacy static programs feed: each case runs
as a one-op program with the offsets of the case as the LoD of its inputs, and the LoD of the
results is recorded as offsets (selected_offsets: the sources' offsets over the selections;
sentence_offsets: LoD level 1 of the sentences). Paddle's CPU kernel reads float32 scores only,
and without `ids` it reads the scores as ids, so a case without ids is fed the column indices
that ids=None stands for. viterbi_decode runs in dygraph.

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_decode.py"""
import os
import sys

os.environ["FLAGS_enable_pir_api"] = "0"  # the legacy programs, which feed LoD

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "text")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

from decode_cases import (beam_search_cases, beam_search_decode_cases,  # noqa: E402
                          viterbi_cases)

FLOAT_NAMES = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64"}


def lod_tensor(array, lod):
    t = core.DenseTensor()
    t.set(np.ascontiguousarray(array), paddle.CPUPlace())
    t.set_lod([[int(v) for v in level] for level in lod])
    return t


def prefix_level(parents, prefixes):
    """LoD level 1 (prefixes -> candidates) of a step from its candidates' parents."""
    return np.searchsorted(np.asarray(parents).ravel(), np.arange(prefixes + 1), side="left")


def run_beam_search(case):
    rows = case["scores"].shape[0]
    lod = [case["source_offsets"], np.arange(rows + 1)]
    score_dtype = FLOAT_NAMES[case["scores"].dtype]
    main = paddle.static.Program()
    block = main.global_block()
    values = dict(case)
    if values["ids"] is None:
        values["ids"] = np.broadcast_to(np.arange(case["scores"].shape[1]), case["scores"].shape)
    inputs, feed = {}, {}
    for slot, dtype in (("pre_ids", "int64"), ("pre_scores", score_dtype), ("ids", "int64"),
                        ("scores", score_dtype)):
        inputs[slot] = block.create_var(name=slot, dtype=dtype, shape=list(values[slot].shape),
                                        lod_level=2)
        feed[slot] = lod_tensor(values[slot].astype(dtype), lod)
    outputs = {slot: block.create_var(name=slot, dtype=dtype) for slot, dtype in
               (("selected_ids", "int64"), ("selected_scores", score_dtype),
                ("parent_idx", "int32"))}
    block.append_op(type="beam_search", inputs=inputs, outputs=outputs,
                    attrs={"level": 0, "beam_size": case["beam_size"], "end_id": case["end_id"],
                           "is_accumulated": case["is_accumulated"]})
    exe = paddle.static.Executor(paddle.CPUPlace())
    ids, scores, parents = exe.run(main, feed=feed, fetch_list=list(outputs),
                                   return_numpy=False)
    source_level, row_level = ids.lod()
    selected_offsets = np.asarray([row_level[i] for i in source_level], np.int64)
    return {"selected_ids": np.array(ids), "selected_scores": np.array(scores),
            "parent_idx": np.array(parents), "selected_offsets": selected_offsets}


def run_beam_search_decode(case):
    score_dtype = FLOAT_NAMES[case["scores"][0].dtype]
    main = paddle.static.Program()
    block = main.global_block()
    array_type = core.VarDesc.VarType.DENSE_TENSOR_ARRAY
    ids_array = block.create_var(name="ids_array", type=array_type, dtype="int64")
    scores_array = block.create_var(name="scores_array", type=array_type, dtype=score_dtype)
    feed = {}
    with paddle.static.program_guard(main):
        for t, (ids, scores, parents, offsets) in enumerate(zip(
                case["ids"], case["scores"], case["parent_idx"], case["source_offsets"])):
            lod = [offsets, prefix_level(parents, int(offsets[-1]))]
            index = paddle.full([1], t, "int64")
            for name, array, value, dtype in (("ids", ids_array, ids, "int64"),
                                              ("scores", scores_array, scores, score_dtype)):
                var = block.create_var(name=f"{name}{t}", dtype=dtype, shape=[-1, 1],
                                       lod_level=2)
                feed[var.name] = lod_tensor(value.reshape(-1, 1), lod)
                block.append_op(type="write_to_array", inputs={"X": var, "I": index},
                                outputs={"Out": array})
    sentence_ids = block.create_var(name="sentence_ids", dtype="int64")
    sentence_scores = block.create_var(name="sentence_scores", dtype=score_dtype)
    block.append_op(type="beam_search_decode", inputs={"Ids": ids_array, "Scores": scores_array},
                    outputs={"SentenceIds": sentence_ids, "SentenceScores": sentence_scores},
                    attrs={"beam_size": case["beam_size"], "end_id": case["end_id"]})
    exe = paddle.static.Executor(paddle.CPUPlace())
    ids, scores = exe.run(main, feed=feed, fetch_list=["sentence_ids", "sentence_scores"],
                          return_numpy=False)
    return {"sentence_ids": np.array(ids), "sentence_scores": np.array(scores),
            "sentence_offsets": np.asarray(ids.lod()[1], np.int64),
            "source_level": np.asarray(ids.lod()[0], np.int64)}


def run_viterbi(case):
    paddle.disable_static()
    scores, path = paddle.text.viterbi_decode(
        paddle.to_tensor(case["potentials"]), paddle.to_tensor(case["transition_params"]),
        paddle.to_tensor(case["lengths"]), case["include_bos_eos_tag"])
    paddle.enable_static()
    return {"scores": scores.numpy(), "path": path.numpy()}


def main():
    paddle.enable_static()
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    for prefix, cases, run in (("beam_search", beam_search_cases(), run_beam_search),
                               ("beam_search_decode", beam_search_decode_cases(),
                                run_beam_search_decode),
                               ("viterbi_decode", viterbi_cases(), run_viterbi)):
        for name, case in cases.items():
            for key, value in run(case).items():
                recorded[f"{prefix}/{name}/{key}"] = value
    path = os.path.join(CASES_DIR, "paddle_decode_reference.npz")
    np.savez_compressed(path, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main()
