"""CTC loss and sequence decoding beyond the op harness (op_db_ctc.py): the NumPy CTC reference
against a brute-force sum over alignments; F.ctc_loss and nn.CTCLoss against values recorded
from PaddlePaddle 3.3.1 and its documented example, their reductions and Paddle's conventions
(infeasible labels, norm_by_times); a static program holding warpctc and its gradient as Paddle
writes them; F.loss.edit_distance's results in each mode; F.gather_tree; nn.BeamSearchDecoder
and nn.dynamic_decode over a small cell composed of Linear and tanh, against a NumPy beam
search; and, when PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle, the same
scripts run in both, and inference models holding the ops written by either run in the other."""
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from ctc_reference import brute_force_ctc_loss, ctc_sequence, log_softmax, np_gather_tree
from static_testing import static_mode

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")


def tensor(array, dtype=None, stop_gradient=True):
    t = paddle.to_tensor(np.asarray(array), dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


# ---------------------------------------------------------------- CTC loss
@pytest.mark.parametrize("frames", [1, 2, 3, 4])
@pytest.mark.parametrize("label", [[], [1], [1, 1], [1, 2], [2, 2, 1]])
def test_reference_recursions_equal_the_sum_over_alignments(frames, label):
    logits = np.random.default_rng(frames * 10 + len(label)).standard_normal((frames, 3))
    loss, grad = ctc_sequence(logits, np.asarray(label, dtype=np.int64), 0)
    exact = brute_force_ctc_loss(logits, label, 0)
    if not np.isfinite(exact):  # no alignment: warp-ctc's loss 0 and no gradient
        assert loss == 0 and not grad.any()
        return
    np.testing.assert_allclose(loss, exact, rtol=1e-12)
    step = 1e-6
    numeric = np.zeros_like(logits)
    for index in np.ndindex(logits.shape):
        bump = np.zeros_like(logits)
        bump[index] = step
        numeric[index] = (brute_force_ctc_loss(logits + bump, label, 0)
                          - brute_force_ctc_loss(logits - bump, label, 0)) / (2 * step)
    np.testing.assert_allclose(grad, numeric, atol=1e-6)


# The example of Paddle's ctc_loss documentation (its printed values).
DOC_LOG_PROBS = [
    [[4.17021990e-01, 7.20324516e-01, 1.14374816e-04], [3.02332580e-01, 1.46755889e-01, 9.23385918e-02]],
    [[1.86260208e-01, 3.45560730e-01, 3.96767467e-01], [5.38816750e-01, 4.19194520e-01, 6.85219526e-01]],
    [[2.04452246e-01, 8.78117442e-01, 2.73875929e-02], [6.70467496e-01, 4.17304814e-01, 5.58689833e-01]],
    [[1.40386939e-01, 1.98101491e-01, 8.00744593e-01], [9.68261600e-01, 3.13424170e-01, 6.92322612e-01]],
    [[8.76389146e-01, 8.94606650e-01, 8.50442126e-02], [3.90547849e-02, 1.69830427e-01, 8.78142476e-01]]]


def doc_inputs():
    return (tensor(DOC_LOG_PROBS, "float32"), tensor([[1, 2, 2], [1, 2, 2]], "int32"),
            tensor([5, 5], "int64"), tensor([3, 3], "int64"))


def test_ctc_loss_gives_paddles_documented_values():
    log_probs, labels, input_lengths, label_lengths = doc_inputs()
    none = F.ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="none")
    assert none.shape == [2] and none.dtype == paddle.float32
    np.testing.assert_allclose(none.numpy(), [3.91798496, 2.90765190], rtol=1e-6)
    mean = F.ctc_loss(log_probs, labels, input_lengths, label_lengths)
    assert mean.shape == []
    np.testing.assert_allclose(float(mean), 1.13760614, rtol=1e-6)
    layer = paddle.nn.CTCLoss(blank=0, reduction="mean")
    np.testing.assert_allclose(float(layer(log_probs, labels, input_lengths, label_lengths)),
                               1.13760614, rtol=1e-6)


# Recorded from PaddlePaddle 3.3.1 (CPU): logits = np.random.default_rng(0).standard_normal(
# (5, 2, 4)), labels [[1, 2, 2], [3, 1, 0]], input lengths [5, 4], label lengths [3, 2],
# reduction 'none', the gradient of the sum of the losses.
RECORDED_LOSS = [5.28231506, 2.11821478]
RECORDED_GRAD_FIRST_FRAME = [[0.03887325, -0.63827895, 0.37808727, 0.22131843],
                             [-0.01647512, 0.17331947, 0.44476298, -0.60160733]]
RECORDED_GRAD_LAST_FRAME = [[0.14885794, 0.32798368, -0.74930138, 0.27245977],
                            [0.0, 0.0, 0.0, 0.0]]
RECORDED_NORM_BY_TIMES_FIRST_FRAME = [[0.00777465, -0.12765579, 0.07561745, 0.04426369],
                                      [-0.00411878, 0.04332987, 0.11119074, -0.15040183]]


def recorded_inputs():
    logits = np.random.default_rng(0).standard_normal((5, 2, 4))
    return (tensor(logits, "float64", stop_gradient=False),
            tensor([[1, 2, 2], [3, 1, 0]], "int32"), tensor([5, 4], "int64"),
            tensor([3, 2], "int64"))


def test_ctc_loss_and_gradient_equal_paddlepaddles():
    logits, labels, input_lengths, label_lengths = recorded_inputs()
    loss = F.ctc_loss(logits, labels, input_lengths, label_lengths, reduction="none")
    np.testing.assert_allclose(loss.numpy(), RECORDED_LOSS, rtol=1e-8)
    loss.sum().backward()
    np.testing.assert_allclose(logits.grad.numpy()[0], RECORDED_GRAD_FIRST_FRAME, atol=1e-8)
    np.testing.assert_allclose(logits.grad.numpy()[4], RECORDED_GRAD_LAST_FRAME, atol=1e-8)
    logits.clear_gradient()
    F.ctc_loss(logits, labels, input_lengths, label_lengths, reduction="none",
               norm_by_times=True).sum().backward()
    # norm_by_times divides each sequence's gradient by its frames (5 and 4); the loss is as
    # without it.
    np.testing.assert_allclose(logits.grad.numpy()[0], RECORDED_NORM_BY_TIMES_FIRST_FRAME,
                               atol=1e-8)


def test_ctc_loss_reductions_and_layer_signature():
    logits, labels, input_lengths, label_lengths = recorded_inputs()
    losses = np.asarray(RECORDED_LOSS)
    args = (logits, labels, input_lengths, label_lengths)
    np.testing.assert_allclose(float(F.ctc_loss(*args)), np.mean(losses / [3, 2]), rtol=1e-8)
    np.testing.assert_allclose(float(F.ctc_loss(*args, reduction="sum")), losses.sum(),
                               rtol=1e-8)
    assert list(inspect.signature(F.ctc_loss).parameters) == [
        "log_probs", "labels", "input_lengths", "label_lengths", "blank", "reduction",
        "norm_by_times", "zero_infinity"]
    layer = paddle.nn.CTCLoss()
    assert (layer.blank, layer.reduction, layer.zero_infinity) == (0, "mean", False)
    assert list(inspect.signature(layer.forward).parameters) == [
        "log_probs", "labels", "input_lengths", "label_lengths", "norm_by_times"]
    np.testing.assert_allclose(float(paddle.nn.CTCLoss(reduction="sum")(*args)), losses.sum(),
                               rtol=1e-8)


def test_a_label_too_long_for_its_frames_has_loss_zero_and_no_gradient():
    # [1, 1, 2] needs 4 frames (a blank between the ones); Paddle (warp-ctc) gives 0 and no
    # gradient rather than infinity.
    logits = tensor(np.random.default_rng(1).standard_normal((3, 2, 3)), "float32",
                    stop_gradient=False)
    loss = F.ctc_loss(logits, tensor([[1, 1, 2], [2, 1, 0]], "int32"), tensor([3, 3], "int64"),
                      tensor([3, 2], "int64"), reduction="none")
    assert loss.numpy()[0] == 0 and loss.numpy()[1] > 0
    loss.sum().backward()
    assert not logits.grad.numpy()[:, 0].any() and logits.grad.numpy()[:, 1].any()


def test_bad_ctc_input_is_a_value_error_naming_the_value():
    logits, labels, input_lengths, label_lengths = recorded_inputs()
    with pytest.raises(ValueError, match="other than blank 0, received 0"):
        F.ctc_loss(logits, tensor([[1, 0, 2], [3, 1, 0]], "int32"), input_lengths, label_lengths)
    with pytest.raises(ValueError, match=r"'logits_length' must hold lengths in \[0, 5\] .*"
                                         r"received 6"):
        F.ctc_loss(logits, labels, tensor([6, 4], "int64"), label_lengths)
    with pytest.raises(ValueError, match="reduction"):
        F.ctc_loss(logits, labels, input_lengths, label_lengths, reduction="batchmean")
    with pytest.raises(ValueError, match="must not be None"):  # Paddle's dygraph: ValueError
        F.ctc_loss(logits, labels, None, None)


HUGE_CTC = r"""
import resource, numpy as np, paddle
from paddle import _C_ops
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
# Two sequences of 100,000 frames and 10,000 labels: 16 GB of forward-backward workspace each.
logits = paddle.zeros([100000, 2, 3])
labels = paddle.to_tensor(np.ones((2, 10000), "int32"))
try:
    _C_ops.warpctc(logits, labels, None, None, 0, False)
except MemoryError as error:
    print("MemoryError", error)
"""


def test_a_ctc_workspace_too_large_to_allocate_is_a_memory_error():
    # The sequences run on the thread pool, which must not let the allocation failure escape.
    result = subprocess.run([sys.executable, "-c", HUGE_CTC], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "MemoryError warpctc" in result.stdout


def test_static_program_holds_warpctc_as_paddle_writes_it():
    logits_value = np.random.default_rng(0).standard_normal((5, 2, 4))
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            logits = paddle.static.data("logits", [5, 2, 4], "float64")
            logits.stop_gradient = False
            labels = paddle.static.data("labels", [2, 3], "int32")
            input_lengths = paddle.static.data("input_lengths", [2], "int64")
            label_lengths = paddle.static.data("label_lengths", [2], "int64")
            loss = F.ctc_loss(logits, labels, input_lengths, label_lengths, reduction="sum")
            grad, = paddle.static.gradients([loss], [logits])
        op = next(op for op in main.global_block().ops if op.type == "warpctc")
        assert sorted(op.input_names) == ["Label", "LabelLength", "Logits", "LogitsLength"]
        assert sorted(op.output_names) == ["Loss", "WarpCTCGrad"]
        assert op.attr("blank") == 0 and op.attr("norm_by_times") is False
        assert any(op.type == "warpctc_grad" for op in main.global_block().ops)
        exe = paddle.static.Executor()
        exe.run(startup)
        loss_value, grad_value = exe.run(main, feed={
            "logits": logits_value, "labels": np.asarray([[1, 2, 2], [3, 1, 0]], "int32"),
            "input_lengths": np.asarray([5, 4]), "label_lengths": np.asarray([3, 2])},
            fetch_list=[loss, grad])
    np.testing.assert_allclose(loss_value, sum(RECORDED_LOSS), rtol=1e-8)
    np.testing.assert_allclose(grad_value[0], RECORDED_GRAD_FIRST_FRAME, atol=1e-8)


def test_training_a_linear_layer_under_ctc_lowers_the_loss():
    rng = np.random.default_rng(2)
    features = tensor(rng.standard_normal((8, 3, 6)), "float32")
    labels = tensor([[1, 2, 3], [3, 3, 0], [2, 0, 0]], "int32")
    input_lengths, label_lengths = tensor([8, 7, 5], "int64"), tensor([3, 2, 1], "int64")
    layer = paddle.nn.Linear(6, 4)
    optimizer = paddle.optimizer.Adam(0.05, parameters=layer.parameters())
    criterion = paddle.nn.CTCLoss()
    losses = []
    for _ in range(40):
        loss = criterion(layer(features), labels, input_lengths, label_lengths)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]


# ---------------------------------------------------------------- edit distance, gather_tree
def edit_distance_inputs():
    return (tensor([[1, 2, 3], [4, 5, 6], [4, 4, 4], [1, 1, 1]], "int64"),
            tensor([[1, 3, 4, 1], [4, 5, 8, 1], [7, 7, 7, 1], [1, 1, 1, 1]], "int64"),
            tensor([3, 3, 3, 3], "int64"), tensor([4, 4, 4, 4], "int64"))


def test_edit_distance_returns_paddles_dygraph_order_and_documented_values():
    hyps, refs, hyp_lengths, ref_lengths = edit_distance_inputs()
    # Paddle's dygraph API returns (sequence_num, distances) although its names say otherwise.
    sequence_num, distance = F.loss.edit_distance(hyps, refs, normalized=False,
                                                  input_length=hyp_lengths,
                                                  label_length=ref_lengths)
    assert sequence_num.dtype == paddle.int64 and sequence_num.numpy().tolist() == [4]
    assert distance.dtype == paddle.float32 and distance.shape == [4, 1]
    np.testing.assert_array_equal(distance.numpy()[:, 0], [3, 2, 4, 1])
    _, normalized = F.loss.edit_distance(hyps, refs, input_length=hyp_lengths,
                                         label_length=ref_lengths)
    np.testing.assert_allclose(normalized.numpy()[:, 0], [0.75, 0.5, 1.0, 0.25])
    with pytest.raises(ValueError, match="ignored_tokens"):
        F.loss.edit_distance(hyps, refs, ignored_tokens=[0])


def test_edit_distance_in_a_static_program_returns_the_distances_first():
    hyps, refs, hyp_lengths, ref_lengths = (t.numpy() for t in edit_distance_inputs())
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            data = [paddle.static.data(n, [4, w], "int64") for n, w in (("h", 3), ("r", 4))]
            lengths = [paddle.static.data(n, [4], "int64") for n in ("hl", "rl")]
            distance, sequence_num = F.loss.edit_distance(*data, normalized=False,
                                                          input_length=lengths[0],
                                                          label_length=lengths[1])
        op = next(op for op in main.global_block().ops if op.type == "edit_distance")
        assert sorted(op.input_names) == ["Hyps", "HypsLength", "Refs", "RefsLength"]
        assert sorted(op.output_names) == ["Out", "SequenceNum"]
        got_distance, got_num = paddle.static.Executor().run(
            main, feed={"h": hyps, "r": refs, "hl": hyp_lengths, "rl": ref_lengths},
            fetch_list=[distance, sequence_num])
    np.testing.assert_array_equal(got_distance[:, 0], [3, 2, 4, 1])
    np.testing.assert_array_equal(got_num, [4])


def test_gather_tree_gives_paddles_documented_example():
    ids = tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]], "int64")
    parents = tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]], "int64")
    out = F.gather_tree(ids, parents)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [[[2, 2], [1, 6]], [[3, 3], [6, 1]],
                                                [[0, 1], [9, 0]]])


# ---------------------------------------------------------------- beam search decoding
VOCAB, HIDDEN, BATCH, BEAM, START, END = 7, 5, 3, 3, 0, 1


def model_weights(seed=3):
    rng = np.random.default_rng(seed)
    return {"embedding": rng.standard_normal((VOCAB, HIDDEN)),
            "w_ih": rng.standard_normal((HIDDEN, HIDDEN)) * 0.8,
            "b_ih": rng.standard_normal(HIDDEN) * 0.1,
            "w_hh": rng.standard_normal((HIDDEN, HIDDEN)) * 0.8,
            "w_out": rng.standard_normal((HIDDEN, VOCAB)) * 1.5,
            "b_out": rng.standard_normal(VOCAB),
            "h0": rng.standard_normal((BATCH, HIDDEN))}


class TanhCell(paddle.nn.Layer):
    """h' = tanh(W_ih x + b + W_hh h); the output is h'."""

    def __init__(self, weights):
        super().__init__()
        self.ih = paddle.nn.Linear(HIDDEN, HIDDEN)
        self.hh = paddle.nn.Linear(HIDDEN, HIDDEN, bias_attr=False)
        self.ih.weight.set_value(weights["w_ih"].astype("float32"))
        self.ih.bias.set_value(weights["b_ih"].astype("float32"))
        self.hh.weight.set_value(weights["w_hh"].astype("float32"))

    def forward(self, inputs, states):
        hidden = paddle.tanh(self.ih(inputs) + self.hh(states))
        return hidden, hidden


def beam_search_decoder(weights, beam_size=BEAM):
    embedding = paddle.nn.Embedding(VOCAB, HIDDEN)
    embedding.weight.set_value(weights["embedding"].astype("float32"))
    output = paddle.nn.Linear(HIDDEN, VOCAB)
    output.weight.set_value(weights["w_out"].astype("float32"))
    output.bias.set_value(weights["b_out"].astype("float32"))
    return paddle.nn.BeamSearchDecoder(TanhCell(weights), start_token=START, end_token=END,
                                       beam_size=beam_size, embedding_fn=embedding,
                                       output_fn=output)


def np_beam_search(w, beam, max_step_num):
    """Beam search as Paddle's BeamSearchDecoder defines it, in NumPy: ids [B, T, beam],
    lengths [B, beam], final log-probabilities [B, beam]."""
    batch = w["h0"].shape[0]
    hidden = np.repeat(w["h0"][:, None], beam, axis=1)
    log_probs = np.tile([[0.0] + [-1e9] * (beam - 1)], (batch, 1))
    finished = np.zeros((batch, beam), dtype=bool)
    lengths = np.zeros((batch, beam), dtype=np.int64)
    ids = np.full((batch, beam), START)
    only_end = np.full(VOCAB, -1e9)
    only_end[END] = 0.0
    tokens, parents = [], []
    while True:
        hidden = np.tanh(w["embedding"][ids] @ w["w_ih"] + w["b_ih"] + hidden @ w["w_hh"])
        step = log_softmax(hidden @ w["w_out"] + w["b_out"])
        step = np.where(finished[..., None], only_end, step)
        scores = (step + log_probs[..., None]).reshape(batch, beam * VOCAB)
        top = np.argsort(-scores, axis=1, kind="stable")[:, :beam]
        rows = np.arange(batch)[:, None]
        beam_index, ids = top // VOCAB, top % VOCAB
        log_probs = scores[rows, top]
        hidden = hidden[rows, beam_index]
        finished = finished[rows, beam_index]
        lengths = lengths[rows, beam_index] + ~finished
        finished = finished | (ids == END)
        tokens.append(ids)
        parents.append(beam_index)
        if finished.all() or len(tokens) > max_step_num:
            break
    traced = np_gather_tree(np.stack(tokens), np.stack(parents))
    return traced.transpose(1, 0, 2), lengths, log_probs


def test_beam_search_decoder_follows_the_numpy_beam_search():
    weights = model_weights()
    ids, states, lengths = paddle.nn.dynamic_decode(
        beam_search_decoder(weights), inits=tensor(weights["h0"], "float32"), max_step_num=8,
        return_length=True)
    expected_ids, expected_lengths, expected_log_probs = np_beam_search(weights, BEAM, 8)
    assert ids.dtype == paddle.int64 and ids.shape == list(expected_ids.shape)
    np.testing.assert_array_equal(ids.numpy(), expected_ids)
    np.testing.assert_array_equal(lengths.numpy(), expected_lengths)
    np.testing.assert_array_equal(states.lengths.numpy(), expected_lengths)
    np.testing.assert_allclose(states.log_probs.numpy(), expected_log_probs, rtol=1e-5)
    assert states.cell_states.shape == [BATCH, BEAM, HIDDEN]
    # The best beam's score is the best of its batch entry.
    assert (states.log_probs.numpy()[:, 0] >= states.log_probs.numpy().max(axis=1) - 1e-6).all()


def test_dynamic_decode_stops_at_max_step_num_and_lays_out_time_major():
    weights = model_weights()
    ids, _ = paddle.nn.dynamic_decode(beam_search_decoder(weights),
                                      inits=tensor(weights["h0"], "float32"), max_step_num=1,
                                      output_time_major=True)
    # Paddle's count: max_step_num + 1 steps at most.
    expected_ids = np_beam_search(weights, BEAM, 1)[0].transpose(1, 0, 2)
    assert ids.shape == [2, BATCH, BEAM]
    np.testing.assert_array_equal(ids.numpy(), expected_ids)


def test_beam_search_over_nested_states_and_a_single_beam():
    weights = model_weights(5)

    class PairCell(paddle.nn.Layer):
        """States as a (hidden, step count) pair, as LSTM cells keep (h, c)."""

        def __init__(self):
            super().__init__()
            self.inner = TanhCell(weights)

        def forward(self, inputs, states):
            hidden, count = states
            out, hidden = self.inner(inputs, hidden)
            return out, (hidden, count + 1)

    decoder = beam_search_decoder(weights, beam_size=1)
    decoder.cell = PairCell()
    h0 = tensor(weights["h0"], "float32")
    ids, states = paddle.nn.dynamic_decode(decoder, inits=(h0, paddle.zeros([BATCH, 1])),
                                           max_step_num=5)
    hidden, count = states.cell_states
    assert hidden.shape == [BATCH, 1, HIDDEN] and count.shape == [BATCH, 1, 1]
    np.testing.assert_array_equal(count.numpy()[:, 0, 0], ids.shape[1])
    np.testing.assert_array_equal(ids.numpy(), np_beam_search(weights, 1, 5)[0])


def test_a_cell_that_embeds_the_ids_itself_needs_no_embedding_fn():
    weights = model_weights(9)
    reference = beam_search_decoder(weights)
    embed, cell = reference.embedding_fn, reference.cell

    def ids_cell(ids, states):
        assert ids.dtype == paddle.int64 and ids.shape == [BATCH * BEAM]
        return cell(embed(ids), states)

    decoder = paddle.nn.BeamSearchDecoder(ids_cell, START, END, BEAM,
                                          output_fn=reference.output_fn)
    ids, _ = paddle.nn.dynamic_decode(decoder, inits=tensor(weights["h0"], "float32"),
                                      max_step_num=6)
    np.testing.assert_array_equal(ids.numpy(), np_beam_search(weights, BEAM, 6)[0])


def test_tile_beam_merge_with_batch_repeats_each_entry():
    x = tensor(np.arange(6).reshape(2, 3), "float32")
    tiled = paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 3)
    np.testing.assert_array_equal(tiled.numpy(), np.repeat(x.numpy(), 3, axis=0))


class CountdownDecoder(paddle.nn.decode.Decoder):
    """Outputs the step number; entry i finishes after stop[i] steps. It does not track its
    own finished flags, so dynamic_decode does."""

    def __init__(self, stop):
        self.stop = stop

    def initialize(self, inits):
        finished = paddle.zeros([len(self.stop)], dtype="bool")
        return paddle.zeros([len(self.stop), 1]), paddle.zeros([len(self.stop), 1]), finished

    def step(self, time, inputs, states, **kwargs):
        states = states + kwargs.get("increment", 1.0)
        finished = tensor(np.asarray(self.stop) <= int(time.item()) + 1)
        return time.expand([len(self.stop)]), states, inputs, finished


def test_dynamic_decode_tracks_finished_entries_for_other_decoders():
    outputs, states, lengths = paddle.nn.dynamic_decode(CountdownDecoder([2, 4, 1]),
                                                        impute_finished=True,
                                                        return_length=True, increment=2.0)
    np.testing.assert_array_equal(outputs.numpy(), [[0, 1, 2, 3]] * 3)
    # As in Paddle, the step at which an entry finishes counts neither in its length nor in
    # its (imputed) states.
    np.testing.assert_array_equal(lengths.numpy(), [1, 3, 0])
    np.testing.assert_array_equal(states.numpy()[:, 0], [2.0, 6.0, 0.0])


def test_bad_decoding_arguments_are_typed_errors():
    weights = model_weights()
    with pytest.raises(ValueError, match="'beam_size' must be positive, received 0"):
        beam_search_decoder(weights, beam_size=0)
    with pytest.raises(TypeError, match="beam_size"):
        beam_search_decoder(weights, beam_size=2.5)
    with pytest.raises(TypeError, match="'decoder'"):
        paddle.nn.dynamic_decode(object())
    with pytest.raises(ValueError, match="max_step_num"):
        paddle.nn.dynamic_decode(beam_search_decoder(weights),
                                 inits=tensor(weights["h0"], "float32"), max_step_num=-1)
    decoder = paddle.nn.BeamSearchDecoder(TanhCell(weights), START, end_token=VOCAB + 3,
                                          beam_size=2, embedding_fn=beam_search_decoder(
                                              weights).embedding_fn,
                                          output_fn=beam_search_decoder(weights).output_fn)
    with pytest.raises(ValueError, match="end_token 10"):
        paddle.nn.dynamic_decode(decoder, inits=tensor(weights["h0"], "float32"))
    decoder = beam_search_decoder(weights)
    with static_mode(), pytest.raises(NotImplementedError, match="dygraph"):
        paddle.nn.dynamic_decode(decoder)


# ---------------------------------------------------------------- against PaddlePaddle
SCRIPT = r"""
import json, numpy as np, paddle
import paddle.nn.functional as F
rng = np.random.default_rng(7)
results = {}
logits = paddle.to_tensor(rng.standard_normal((9, 3, 6)), stop_gradient=False)
labels = paddle.to_tensor(np.asarray([[1, 5, 5, 2], [3, 3, 3, 0], [2, 4, 0, 0]], "int32"))
lengths = paddle.to_tensor(np.asarray([9, 8, 2]))
label_lengths = paddle.to_tensor(np.asarray([4, 3, 2]))
for reduction in ("none", "mean", "sum"):
    for norm_by_times in (False, True):
        loss = F.ctc_loss(logits, labels, lengths, label_lengths, blank=0, reduction=reduction,
                          norm_by_times=norm_by_times)
        loss.sum().backward()
        key = f"{reduction}-{norm_by_times}"
        results["loss-" + key] = np.ravel(loss.numpy()).tolist()
        results["grad-" + key] = np.ravel(logits.grad.numpy()).tolist()
        logits.clear_gradient()
hyps = paddle.to_tensor(rng.integers(0, 4, (5, 6)))
refs = paddle.to_tensor(rng.integers(0, 4, (5, 7)))
hyp_lengths = paddle.to_tensor(rng.integers(0, 7, 5))
ref_lengths = paddle.to_tensor(rng.integers(1, 8, 5))
for normalized in (False, True):
    num, distance = F.loss.edit_distance(hyps, refs, normalized, None, hyp_lengths, ref_lengths)
    results[f"edit-{normalized}"] = np.ravel(distance.numpy()).tolist() + num.numpy().tolist()
ids = paddle.to_tensor(rng.integers(0, 9, (5, 2, 3)))
parents = paddle.to_tensor(rng.integers(0, 3, (5, 2, 3)))
results["gather_tree"] = np.ravel(F.gather_tree(ids, parents).numpy()).tolist()

vocab, hidden, beam = 9, 6, 4
def weight(*shape):
    return rng.standard_normal(shape).astype("float32")
embedding, project = paddle.nn.Embedding(vocab, hidden), paddle.nn.Linear(hidden, vocab)
cell_in, cell_h = paddle.nn.Linear(hidden, hidden), paddle.nn.Linear(hidden, hidden)
for layer in (embedding, project, cell_in, cell_h):
    for parameter in layer.parameters():
        parameter.set_value(weight(*parameter.shape))
def cell(inputs, states):
    new = paddle.tanh(cell_in(inputs) + cell_h(states))
    return new, new
decoder = paddle.nn.BeamSearchDecoder(cell, start_token=0, end_token=2, beam_size=beam,
                                      embedding_fn=embedding, output_fn=project)
ids, states, lengths = paddle.nn.dynamic_decode(
    decoder, inits=paddle.to_tensor(weight(3, hidden)), max_step_num=12, return_length=True)
results["beam_ids"] = np.ravel(ids.numpy()).tolist() + list(ids.shape)
results["beam_lengths"] = np.ravel(lengths.numpy()).tolist()
results["beam_log_probs"] = np.ravel(states.log_probs.numpy()).tolist()
print("RESULTS" + json.dumps(results))
"""


def _run(python, env):
    result = subprocess.run([python, "-c", SCRIPT], check=True, capture_output=True, text=True,
                            env=env, cwd="/", timeout=300)
    line = [ln for ln in result.stdout.splitlines() if ln.startswith("RESULTS")][-1]
    return json.loads(line[len("RESULTS"):])


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_ctc_edit_distance_gather_tree_and_beam_search_match_paddlepaddle():
    ours = _run(sys.executable, dict(os.environ))
    reference_env = dict(os.environ)
    reference_env.pop("PYTHONPATH", None)
    theirs = _run(REFERENCE, reference_env)
    assert sorted(ours) == sorted(theirs)
    for name, expected in theirs.items():
        tolerance = 1e-5 if name == "beam_log_probs" else 1e-7  # float32 decoding
        np.testing.assert_allclose(ours[name], expected, rtol=tolerance, atol=1e-9, err_msg=name)


# A program with warpctc, ctc_align (appended as a legacy op: Paddle 3.3.1 has no Python API for
# it), edit_distance and gather_tree, saved as an inference model by the framework running it.
MODEL_SCRIPT = r"""
import sys, numpy as np, paddle
import paddle.nn.functional as F
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    logits = paddle.static.data("logits", [6, 2, 5], "float32")
    labels = paddle.static.data("labels", [2, 3], "int32")
    lengths = paddle.static.data("lengths", [2], "int64")
    label_lengths = paddle.static.data("label_lengths", [2], "int64")
    loss = F.ctc_loss(logits, labels, lengths, label_lengths, reduction="none")
    best = paddle.static.data("best", [2, 6], "int32")
    best_lengths = paddle.static.data("best_lengths", [2, 1], "int32")
    block = main.global_block()
    decoded = block.create_var(name="decoded", dtype="int32", shape=[2, 6])
    decoded_lengths = block.create_var(name="decoded_lengths", dtype="int32", shape=[2, 1])
    block.append_op(type="ctc_align", inputs={"Input": [best], "InputLength": [best_lengths]},
                    outputs={"Output": [decoded], "OutputLength": [decoded_lengths]},
                    attrs={"blank": 0, "merge_repeated": True, "padding_value": -1})
    hyps = paddle.static.data("hyps", [2, 4], "int64")
    refs = paddle.static.data("refs", [2, 5], "int64")
    distance, _ = F.loss.edit_distance(hyps, refs, normalized=True, input_length=lengths,
                                       label_length=label_lengths)
    ids = paddle.static.data("ids", [3, 2, 2], "int64")
    parents = paddle.static.data("parents", [3, 2, 2], "int64")
    traced = F.gather_tree(ids, parents)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
feed = dict(np.load(sys.argv[2]))
feeds = [logits, labels, lengths, label_lengths, best, best_lengths, hyps, refs, ids, parents]
fetches = [loss, decoded, decoded_lengths, distance, traced]
paddle.static.save_inference_model(sys.argv[1], feeds, fetches, exe, program=main)
results = exe.run(main, feed=feed, fetch_list=fetches)
np.savez(sys.argv[1] + ".out.npz", *results)
"""

LOAD_SCRIPT = r"""
import sys, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
feed = dict(np.load(sys.argv[2]))
np.savez(sys.argv[3], *exe.run(program, feed={k: feed[k] for k in feeds}, fetch_list=fetches))
"""


def _model_feed(path):
    rng = np.random.default_rng(0)
    np.savez(path, logits=rng.standard_normal((6, 2, 5)).astype("float32"),
             labels=np.asarray([[1, 2, 2], [4, 3, 0]], "int32"), lengths=np.asarray([4, 3]),
             label_lengths=np.asarray([3, 2]),
             best=np.asarray([[0, 1, 1, 0, 2, 2], [3, 3, 0, 3, 0, 0]], "int32"),
             best_lengths=np.asarray([[6], [4]], "int32"),
             hyps=np.asarray([[1, 2, 3, 4], [2, 2, 3, 1]]),
             refs=np.asarray([[1, 3, 4, 1, 0], [2, 3, 1, 1, 1]]),
             ids=rng.integers(0, 9, (3, 2, 2)), parents=rng.integers(0, 2, (3, 2, 2)))


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
@pytest.mark.parametrize("writer, reader", [("paddlepaddle", "here"), ("here", "paddlepaddle")])
def test_models_with_the_ctc_ops_run_in_either_framework(tmp_path, writer, reader):
    feed = str(tmp_path / "feed.npz")
    _model_feed(feed)
    # FLAGS_enable_pir_api=0: PaddlePaddle writes and reads the old-IR program (.pdmodel).
    reference_env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    reference_env.pop("PYTHONPATH", None)
    python = {"here": (sys.executable, dict(os.environ)), "paddlepaddle": (REFERENCE, reference_env)}
    prefix = str(tmp_path / "model")
    for script, args, who in ((MODEL_SCRIPT, [prefix, feed], writer),
                              (LOAD_SCRIPT, [prefix, feed, prefix + ".loaded.npz"], reader)):
        interpreter, env = python[who]
        result = subprocess.run([interpreter, "-c", script, *args], env=env, cwd="/",
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-4000:]
    written, loaded = np.load(prefix + ".out.npz"), np.load(prefix + ".loaded.npz")
    assert len(written.files) == len(loaded.files) == 5
    for name in written.files:
        assert loaded[name].dtype == written[name].dtype, name
        np.testing.assert_allclose(loaded[name], written[name], rtol=1e-5, err_msg=name)
