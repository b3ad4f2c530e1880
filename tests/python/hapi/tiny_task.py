"""A tiny classification task shared by the paddle.Model and callback tests: 2-D points labelled
by which side of a line they fall, as a paddle.io.Dataset or in batches of NumPy arrays (an
iterable of [x, y] batches is a data loader to paddle.Model), and a small MLP with its
InputSpecs."""
import numpy as np

import paddle

NUM_SAMPLES = 64
BATCH_SIZE = 16


def samples(seed=0, num=NUM_SAMPLES):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, (num, 2)).astype("float32")
    y = (x[:, :1] + 0.5 * x[:, 1:] > 0).astype("int64")
    return x, y


def batches(seed=0, num=NUM_SAMPLES, batch_size=BATCH_SIZE):
    x, y = samples(seed, num)
    return [[x[i:i + batch_size], y[i:i + batch_size]] for i in range(0, num, batch_size)]


class PointsDataset(paddle.io.Dataset):
    """The samples one at a time: (x [2] float32, label [1] int64)."""

    def __init__(self, seed=0, num=NUM_SAMPLES):
        self.x, self.y = samples(seed, num)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index], self.y[index]


def network():
    return paddle.nn.Sequential(paddle.nn.Linear(2, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 2))


def input_specs():
    return (paddle.static.InputSpec([None, 2], "float32", "x"),
            paddle.static.InputSpec([None, 1], "int64", "label"))


def prepared_model(learning_rate=0.5, optimizer="SGD", metrics=True):
    """A dygraph Model with its optimizer, the cross-entropy loss and accuracy."""
    model = paddle.Model(network(), *input_specs())
    make = getattr(paddle.optimizer, optimizer)
    model.prepare(make(learning_rate, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy() if metrics else None)
    return model
