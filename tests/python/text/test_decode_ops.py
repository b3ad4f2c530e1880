"""The decoding ops beyond the op harness (op_db_seq.py): paddle.static.nn.beam_search,
beam_search_decode and paddle.text.viterbi_decode / ViterbiDecoder against values recorded from
PaddlePaddle 3.3.1 (tools/record_paddle_decode.py on decode_cases.py, LoD recorded as offsets),
the NumPy references against the same values, a whole beam search run step by step with the
offsets each step returns, static programs holding the ops with Paddle's slot names, and the
argument errors."""
import os

import numpy as np
import pytest

import paddle
import paddle.text
from decode_cases import beam_search_cases, beam_search_decode_cases, viterbi_cases
from decode_reference import np_beam_search, np_beam_search_decode, np_viterbi_decode
from static_testing import static_mode

RECORDED = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "paddle_decode_reference.npz"))


def tensor(value):
    return None if value is None else paddle.to_tensor(np.asarray(value))


def recorded(prefix, name, keys):
    return [RECORDED[f"{prefix}/{name}/{key}"] for key in keys]


BEAM_SEARCH_KEYS = ("selected_ids", "selected_scores", "parent_idx", "selected_offsets")
DECODE_KEYS = ("sentence_ids", "sentence_scores", "sentence_offsets")


def assert_results(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = g.numpy() if isinstance(g, paddle.Tensor) else np.asarray(g)
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, g.dtype, e.shape, e.dtype)
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", list(beam_search_cases()))
def test_beam_search_gives_paddles_selections(name):
    case = beam_search_cases()[name]
    got = paddle.static.nn.beam_search(
        tensor(case["pre_ids"]), tensor(case["pre_scores"]), tensor(case["ids"]),
        tensor(case["scores"]), case["beam_size"], case["end_id"],
        is_accumulated=case["is_accumulated"], return_parent_idx=True,
        source_offsets=tensor(case["source_offsets"]), return_offsets=True)
    assert_results(got, recorded("beam_search", name, BEAM_SEARCH_KEYS))


@pytest.mark.parametrize("name", list(beam_search_cases()))
def test_numpy_beam_search_reference_agrees_with_paddle(name):
    case = beam_search_cases()[name]
    got = np_beam_search(case["pre_ids"], case["pre_scores"], case["ids"], case["scores"],
                         case["source_offsets"], case["beam_size"], case["end_id"],
                         case["is_accumulated"])
    assert_results(got, recorded("beam_search", name, BEAM_SEARCH_KEYS))


@pytest.mark.parametrize("name", list(beam_search_decode_cases()))
def test_beam_search_decode_gives_paddles_sentences(name):
    case = beam_search_decode_cases()[name]
    got = paddle.static.nn.beam_search_decode(
        [tensor(v) for v in case["ids"]], [tensor(v) for v in case["scores"]],
        case["beam_size"], case["end_id"], parent_idx=[tensor(v) for v in case["parent_idx"]],
        source_offsets=[tensor(v) for v in case["source_offsets"]], return_offsets=True)
    assert_results(got, recorded("beam_search_decode", name, DECODE_KEYS))
    # Paddle's LoD level 0: beam_size sentences per source.
    sources = len(case["source_offsets"][0]) - 1
    np.testing.assert_array_equal(RECORDED[f"beam_search_decode/{name}/source_level"],
                                  np.arange(sources + 1) * case["beam_size"])


@pytest.mark.parametrize("name", list(beam_search_decode_cases()))
def test_numpy_beam_search_decode_reference_agrees_with_paddle(name):
    case = beam_search_decode_cases()[name]
    got = np_beam_search_decode(case["ids"], case["scores"], case["parent_idx"],
                                case["source_offsets"], case["beam_size"], case["end_id"])
    assert_results(got, recorded("beam_search_decode", name, DECODE_KEYS))


def test_a_whole_beam_search_runs_on_the_offsets_each_step_returns():
    rng = np.random.default_rng(5)
    sources, beam_size, width, end_id = 3, 3, 6, 0
    ids = [paddle.ones([sources, 1], "int64")]
    scores = [paddle.zeros([sources, 1], "float32")]
    parents, offsets = [None], [None]
    step_offsets = None
    expected_steps = []
    for _ in range(5):
        rows = ids[-1].shape[0]
        candidates = rng.integers(0, 12, (rows, width)).astype(np.int64)
        step_scores = (scores[-1].numpy() + np.log(rng.uniform(0.1, 1.0, (rows, width)))
                       ).astype(np.float32)
        given = step_offsets
        selected_ids, selected_scores, parent_idx, step_offsets = paddle.static.nn.beam_search(
            ids[-1], scores[-1], tensor(candidates), tensor(step_scores), beam_size, end_id,
            return_parent_idx=True, source_offsets=given, return_offsets=True)
        expected_steps.append(np_beam_search(
            ids[-1].numpy(), scores[-1].numpy(), candidates, step_scores,
            None if given is None else given.numpy(), beam_size, end_id))
        assert_results([selected_ids, selected_scores, parent_idx, step_offsets],
                       expected_steps[-1])
        ids.append(selected_ids)
        scores.append(selected_scores)
        parents.append(parent_idx)
        offsets.append(given if given is not None else paddle.arange(rows + 1, dtype="int64"))
    got = paddle.static.nn.beam_search_decode(ids, scores, beam_size, end_id, parent_idx=parents,
                                              source_offsets=offsets, return_offsets=True)
    start = (np.arange(sources, dtype=np.int32), np.arange(sources + 1))
    expected = np_beam_search_decode(
        [t.numpy() for t in ids], [t.numpy() for t in scores],
        [start[0]] + [p.numpy() for p in parents[1:]],
        [start[1]] + [o.numpy() for o in offsets[1:]], beam_size, end_id)
    assert_results(got, expected)
    assert got[2].shape == [sources * beam_size + 1]


def test_static_programs_hold_the_beam_search_ops_with_paddles_slots():
    case = beam_search_cases()["random"]
    decode_case = beam_search_decode_cases()["two_sources"]
    steps = len(decode_case["ids"])
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            data = {k: paddle.static.data(k, [-1, case[k].shape[1]], case[k].dtype.name)
                    for k in ("pre_ids", "pre_scores", "ids", "scores")}
            source_offsets = paddle.static.data("source_offsets", [-1], "int64")
            selected = paddle.static.nn.beam_search(
                data["pre_ids"], data["pre_scores"], data["ids"], data["scores"],
                case["beam_size"], case["end_id"], return_parent_idx=True,
                source_offsets=source_offsets, return_offsets=True)
            step_ids = [paddle.static.data(f"ids{t}", [-1, 1], "int64") for t in range(steps)]
            step_scores = [paddle.static.data(f"scores{t}", [-1, 1], "float32")
                           for t in range(steps)]
            step_parents = [None] + [paddle.static.data(f"parents{t}", [-1], "int32")
                                     for t in range(1, steps)]
            step_offsets = [None] + [paddle.static.data(f"offsets{t}", [-1], "int64")
                                     for t in range(1, steps)]
            sentences = paddle.static.nn.beam_search_decode(
                step_ids, step_scores, decode_case["beam_size"], decode_case["end_id"],
                parent_idx=step_parents, source_offsets=step_offsets, return_offsets=True)
        ops = {op.type: op for op in main.global_block().ops}
        # Paddle's slots, and the offsets that stand for the LoD under names of their own.
        assert sorted(ops["beam_search"].input_names) == ["ids", "pre_ids", "pre_scores",
                                                          "scores", "source_offsets"]
        assert sorted(ops["beam_search"].output_names) == ["parent_idx", "selected_ids",
                                                           "selected_offsets", "selected_scores"]
        assert ops["beam_search"].attr("level") == 0
        assert ops["beam_search"].attr("beam_size") == case["beam_size"]
        assert sorted(ops["beam_search_decode"].input_names) == ["Ids", "Scores", "parent_idx",
                                                                 "source_offsets"]
        assert sorted(ops["beam_search_decode"].output_names) == [
            "SentenceIds", "SentenceScores", "sentence_offsets"]
        feed = {k: case[k] for k in data}
        feed["source_offsets"] = case["source_offsets"]
        for t in range(steps):
            feed[f"ids{t}"] = decode_case["ids"][t]
            feed[f"scores{t}"] = decode_case["scores"][t]
            if t:
                feed[f"parents{t}"] = decode_case["parent_idx"][t]
                feed[f"offsets{t}"] = decode_case["source_offsets"][t]
        got = paddle.static.Executor().run(main, feed=feed,
                                           fetch_list=list(selected) + list(sentences))
    assert_results(got[:4], recorded("beam_search", "random", BEAM_SEARCH_KEYS))
    assert_results(got[4:], recorded("beam_search_decode", "two_sources", DECODE_KEYS))


@pytest.mark.parametrize("name", list(viterbi_cases()))
def test_viterbi_decode_gives_paddles_paths(name):
    case = viterbi_cases()[name]
    expected = recorded("viterbi_decode", name, ("scores", "path"))
    args = [tensor(case[k]) for k in ("potentials", "transition_params", "lengths")]
    assert_results(paddle.text.viterbi_decode(*args, case["include_bos_eos_tag"]), expected)
    decoder = paddle.text.ViterbiDecoder(args[1], include_bos_eos_tag=case["include_bos_eos_tag"])
    assert_results(decoder(args[0], args[2]), expected)
    keys = ("potentials", "transition_params", "lengths", "include_bos_eos_tag")
    assert_results(np_viterbi_decode(*(case[k] for k in keys)), expected)


def test_viterbi_decode_in_a_static_program_uses_paddles_slots():
    case = viterbi_cases()["bos_eos"]
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            potentials = paddle.static.data("potentials", [-1, 6, 5], "float32")
            transitions = paddle.static.data("transitions", [5, 5], "float32")
            lengths = paddle.static.data("lengths", [-1], "int64")
            scores, path = paddle.text.viterbi_decode(potentials, transitions, lengths)
        op = next(op for op in main.global_block().ops if op.type == "viterbi_decode")
        assert sorted(op.input_names) == ["Input", "Length", "Transition"]
        assert sorted(op.output_names) == ["Path", "Scores"]
        assert op.attr("include_bos_eos_tag") is True
        got = paddle.static.Executor().run(main, feed={
            "potentials": case["potentials"], "transitions": case["transition_params"],
            "lengths": case["lengths"]}, fetch_list=[scores, path])
    assert_results(got, recorded("viterbi_decode", "bos_eos", ("scores", "path")))


def test_beam_size_zero_raises_a_value_error_naming_the_op_and_the_value():
    case = beam_search_cases()["ties"]
    args = [tensor(case[k]) for k in ("pre_ids", "pre_scores", "ids", "scores")]
    with pytest.raises(ValueError, match=r"beam_search: argument 'beam_size' must be positive, "
                                         r"received 0"):
        paddle.static.nn.beam_search(*args, 0, 0)
    ids = [paddle.ones([2, 1], "int64")]
    scores = [paddle.zeros([2, 1], "float32")]
    with pytest.raises(ValueError, match=r"beam_search_decode: argument 'beam_size' must be "
                                         r"positive, received 0"):
        paddle.static.nn.beam_search_decode(ids, scores, 0, 0)


def test_beam_search_argument_errors():
    case = beam_search_cases()["ties"]
    args = [tensor(case[k]) for k in ("pre_ids", "pre_scores", "ids", "scores")]
    with pytest.raises(ValueError, match="'level' must be 0"):
        paddle.static.nn.beam_search(*args, 2, 0, level=1)
    with pytest.raises(TypeError, match="'beam_size' must be an int"):
        paddle.static.nn.beam_search(*args, 2.0, 0)
    with pytest.raises(ValueError, match="'source_offsets' must be offsets from 0 to 3"):
        paddle.static.nn.beam_search(*args, 2, 0, source_offsets=tensor(np.array([0, 2, 4])))
    with pytest.raises(ValueError, match="non-decreasing"):
        paddle.static.nn.beam_search(*args, 2, 0, source_offsets=tensor(np.array([0, 2, 1, 3])))
    with pytest.raises(TypeError, match="'pre_ids' must be int64, received int32"):
        paddle.static.nn.beam_search(args[0].astype("int32"), *args[1:], 2, 0)
    with pytest.raises(ValueError, match="'ids' must have the shape of 'scores'"):
        paddle.static.nn.beam_search(args[0], args[1], args[2][:, :2], args[3], 2, 0)


def test_beam_search_decode_argument_errors():
    case = beam_search_decode_cases()["two_sources"]
    ids = [tensor(v) for v in case["ids"]]
    scores = [tensor(v) for v in case["scores"]]
    parents = [tensor(v) for v in case["parent_idx"]]
    offsets = [tensor(v) for v in case["source_offsets"]]
    with pytest.raises(ValueError, match="'scores' must hold one entry per step"):
        paddle.static.nn.beam_search_decode(ids, scores[:-1], 2, 0, parent_idx=parents,
                                            source_offsets=offsets)
    with pytest.raises(ValueError, match="more than beam_size"):
        paddle.static.nn.beam_search_decode(ids, scores, 1, 0, parent_idx=parents,
                                            source_offsets=offsets)
    # Without step 1, step 2's 4 prefixes are not the 2 candidates of step 0.
    with pytest.raises(ValueError, match=r"prefixes of step 1 \(4.*candidates of step 0 \(2\)"):
        paddle.static.nn.beam_search_decode(ids[:1] + ids[2:], scores[:1] + scores[2:], 2, 0,
                                            parent_idx=parents[:1] + parents[2:],
                                            source_offsets=offsets[:1] + offsets[2:])
    shuffled = parents[1].numpy()[::-1].copy()
    with pytest.raises(ValueError, match="'parent_idx\\[1\\]' must be non-decreasing"):
        paddle.static.nn.beam_search_decode(ids, scores, 2, 0,
                                            parent_idx=[parents[0], tensor(shuffled)]
                                            + parents[2:], source_offsets=offsets)


def test_viterbi_decode_argument_errors():
    case = viterbi_cases()["bos_eos"]
    potentials, transitions, lengths = (tensor(case[k]) for k in
                                        ("potentials", "transition_params", "lengths"))
    with pytest.raises(ValueError, match=r"'lengths' must hold lengths in \[0, 6\]"):
        paddle.text.viterbi_decode(potentials, transitions, tensor(np.array([7, 1, 1, 1])))
    with pytest.raises(ValueError, match="'transition_params' must be \\[5, 5\\]"):
        paddle.text.viterbi_decode(potentials, transitions[:4, :4], lengths)
    with pytest.raises(TypeError, match="'lengths' must be int64"):
        paddle.text.viterbi_decode(potentials, transitions, lengths.astype("int32"))
    with pytest.raises(TypeError, match="'include_bos_eos_tag' must be a bool"):
        paddle.text.viterbi_decode(potentials, transitions, lengths, 1)
    with pytest.raises(ValueError, match="needs at least 2 tags"):
        paddle.text.viterbi_decode(potentials[:, :, :1], transitions[:1, :1], lengths)
