"""A recurrent forecaster of wind-farm power, trained on a generated series: from the last 48
hours it predicts the next 12, with an LSTM (default) or a GRU. Saved as an inference model.

    python examples/forecasting/train.py [--cell lstm|gru] [--epochs 8] [--out DIR]

The series is generated hourly: wind speed is a daily cycle plus a slowly wandering (AR(1))
weather component plus noise; power follows a turbine's curve (cubic between cut-in and rated
speed, flat at rated power, zero past cut-out). The inputs are the past power and wind speed,
scaled to [0, 1]. The baseline to beat is persistence: the last observed power, repeated.
"""
import argparse
import os

import numpy as np

import paddle
import paddle.nn as nn
from paddle.io import DataLoader, TensorDataset
from paddle.static import InputSpec

PAST, FUTURE = 48, 12
CUT_IN, RATED, CUT_OUT = 3.0, 12.0, 25.0


def generate_series(hours, seed):
    """(power [hours], wind speed [hours]), power as a fraction of rated power."""
    rng = np.random.default_rng(seed)
    weather = np.zeros(hours)
    for t in range(1, hours):
        weather[t] = 0.97 * weather[t - 1] + rng.normal(0, 0.6)
    daily = 2.0 * np.sin(2 * np.pi * np.arange(hours) / 24.0 - 1.0)
    speed = np.clip(8.0 + daily + weather + rng.normal(0, 0.5, hours), 0, None)
    power = np.clip((speed ** 3 - CUT_IN ** 3) / (RATED ** 3 - CUT_IN ** 3), 0, 1)
    power[speed > CUT_OUT] = 0
    return power.astype(np.float32), speed.astype(np.float32)


def windows(power, speed):
    """Inputs [n, PAST, 2] (power, speed / CUT_OUT) and targets [n, FUTURE] power."""
    features = np.stack([power, speed / CUT_OUT], axis=1)
    starts = np.arange(len(power) - PAST - FUTURE + 1)
    inputs = np.stack([features[s:s + PAST] for s in starts])
    targets = np.stack([power[s + PAST:s + PAST + FUTURE] for s in starts])
    return inputs.astype(np.float32), targets.astype(np.float32)


class Forecaster(nn.Layer):
    def __init__(self, cell, hidden=64):
        super().__init__()
        rnn = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = rnn(2, hidden, num_layers=2)
        self.head = nn.Linear(hidden, FUTURE)

    def forward(self, history):
        outputs, _ = self.rnn(history)
        return self.head(outputs[:, -1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cell", choices=["lstm", "gru"], default="lstm")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hours", type=int, default=6000, help="length of the training series")
    parser.add_argument("--out", default="forecasting")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)
    train_x, train_y = windows(*generate_series(args.hours, 1))
    test_x, test_y = windows(*generate_series(2000, 2))
    loader = DataLoader(TensorDataset([paddle.to_tensor(train_x), paddle.to_tensor(train_y)]),
                        batch_size=64, shuffle=True, drop_last=True)

    model = Forecaster(args.cell)
    optimizer = paddle.optimizer.Adam(learning_rate=2e-3, parameters=model.parameters(),
                                      grad_clip=nn.ClipGradByGlobalNorm(1.0))
    persistence_mae = float(np.abs(test_y - test_x[:, -1:, 0]).mean())

    def test_mae():
        model.eval()
        with paddle.no_grad():
            predicted = model(paddle.to_tensor(test_x)).numpy()
        model.train()
        return float(np.abs(predicted - test_y).mean())

    for epoch in range(args.epochs):
        losses = []
        for history, future in loader:
            loss = nn.functional.mse_loss(model(history), future)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        print(f"epoch {epoch + 1}/{args.epochs}: train MSE {np.mean(losses):.5f}, "
              f"test MAE {test_mae():.4f}", flush=True)
    print(f"test MAE of the next {FUTURE} hours: {test_mae():.4f} "
          f"(persistence baseline {persistence_mae:.4f}), as a fraction of rated power")
    model.eval()
    prefix = os.path.join(args.out, f"{args.cell}_forecaster")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, PAST, 2], "float32", "history")])
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")


if __name__ == "__main__":
    main()
