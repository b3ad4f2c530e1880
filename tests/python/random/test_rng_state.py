"""paddle.get_rng_state / set_rng_state: a saved state replays the draws after it, and a
state list of the wrong kind or length is a typed error naming set_rng_state and the value."""
import numpy as np
import pytest

import paddle


def test_state_replays_the_draws_after_it():
    paddle.seed(31)
    paddle.randn([7])
    state = paddle.get_rng_state()
    assert len(state) == 1 and state[0].current_seed() == 31
    first = [paddle.rand([5]).numpy(), paddle.randint(0, 9, [4]).numpy(),
             paddle.randperm(6).numpy(), paddle.randn([3], "float64").numpy()]
    paddle.seed(4)
    paddle.set_rng_state(state)
    again = [paddle.rand([5]).numpy(), paddle.randint(0, 9, [4]).numpy(),
             paddle.randperm(6).numpy(), paddle.randn([3], "float64").numpy()]
    for a, b in zip(first, again):
        assert np.array_equal(a, b)
    assert paddle.get_rng_state()[0].current_seed() == 31


def test_a_tuple_of_states_is_accepted():
    state = paddle.get_rng_state()
    expected = paddle.rand([4]).numpy()
    paddle.set_rng_state(tuple(state))
    assert np.array_equal(paddle.rand([4]).numpy(), expected)


@pytest.mark.parametrize("bad, error", [
    ([], ValueError), ("state", TypeError), (None, TypeError), ([1], TypeError),
    ("two states", ValueError)])
def test_wrong_state_lists_are_typed_errors(bad, error):
    if bad == "two states":  # built here, not while the module is collected
        bad = paddle.get_rng_state() * 2
    with pytest.raises(error, match="set_rng_state") as info:
        paddle.set_rng_state(bad)
    assert repr(bad)[:20] in str(info.value) or str(len(bad)) in str(info.value)


def test_a_corrupt_state_is_a_value_error_and_changes_nothing():
    paddle.seed(8)
    expected = paddle.rand([3]).numpy()
    paddle.seed(8)
    state = paddle.get_rng_state()[0]
    state._state = b"8 1 2 3"
    with pytest.raises(ValueError, match="set_rng_state"):
        paddle.set_rng_state([state])
    assert np.array_equal(paddle.rand([3]).numpy(), expected)
