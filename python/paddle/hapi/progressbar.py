"""The progress bar that ProgBarLogger prints: on a terminal (or in a notebook) one line
redrawn in place with the step count, a bar, the logged values, the ETA and the time per step;
elsewhere (a log file, a pipe) one plain line per update."""
import os
import shutil
import sys
import time

import numpy as np


def _format_value(value):
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype in (np.float32,
                                                                             np.float64):
        value = value.item()
    if isinstance(value, (float, np.float32, np.float64)):
        return f" {value:.4f}" if abs(value) > 1e-3 else f" {value:.4e}"
    return f" {value}"


def _format_values(values):
    text = ""
    for key, value in values:
        text += f" - {key}:"
        for item in value if isinstance(value, list) else [value]:
            text += _format_value(item)
    return text


def _format_time_per_step(seconds, name):
    if seconds >= 1 or seconds == 0:
        return f" - {seconds:.0f}s/{name}"
    if seconds >= 1e-3:
        return f" - {seconds * 1e3:.0f}ms/{name}"
    return f" - {seconds * 1e6:.0f}us/{name}"


def _format_eta(seconds):
    seconds = int(seconds)
    if seconds > 3600:
        return f"{seconds // 3600}:{(seconds % 3600) // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """Progress over `num` steps (None: unknown). verbose=1 draws the bar, verbose=2 (or 3)
    prints one line per update. Output goes to `file` (sys.stdout at the time of writing when
    None)."""

    def __init__(self, num=None, width=30, verbose=1, start=True, file=None, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("ProgressBar(): 'num' should be None or an integer > 0, but "
                            f"received {num}")
        self._num = num
        terminal_width = shutil.get_terminal_size().columns or 80
        self._width = min(width, max(min(int(terminal_width * 0.6), terminal_width - 50), 1))
        self._total_width = 0
        self._verbose = verbose
        self._file = file
        self._start = time.time() if start else None
        self.name = name

    @property
    def file(self):
        return self._file if self._file is not None else sys.stdout

    def _dynamic_display(self):
        out = self.file
        return ((hasattr(out, "isatty") and out.isatty()) or "ipykernel" in sys.modules
                or "PYCHARM_HOSTED" in os.environ)

    def start(self):
        self.file.flush()
        self._start = time.time()

    def _count(self, current):
        if self._num:
            digits = int(np.log10(self._num)) + 1
            return f"{self.name} {current:{digits}d}/{self._num}"
        return f"{self.name} {current:3}"

    def update(self, current_num, values=()):
        """Shows step `current_num` with `values`, a list of (name, value or list of values)."""
        if self._start is None:
            self._start = time.time()
        per_step = (time.time() - self._start) / current_num if current_num else 0
        time_text = _format_time_per_step(per_step, self.name)
        out = self.file
        if self._verbose == 1:
            previous_width = self._total_width
            dynamic = self._dynamic_display()
            out.write("\b" * previous_width + "\r" if dynamic else "\n")
            if self._num is not None:
                bar = self._count(current_num) + " ["
                filled = int(self._width * float(current_num) / self._num)
                if filled > 0:
                    bar += "=" * (filled - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - filled) + "]"
            else:
                bar = self._count(current_num)
            info = _format_values(values)
            if self._num is not None and current_num < self._num:
                info += f" - ETA: {_format_eta(per_step * (self._num - current_num))}"
            info += time_text
            self._total_width = len(bar) + len(info)
            if dynamic and previous_width > self._total_width:
                info += " " * (previous_width - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(bar + info)
        elif self._verbose in (2, 3):
            out.write(self._count(current_num) + _format_values(values) + time_text + "\n")
        out.flush()
