"""Draws training curves into a PNG with Pillow: one panel per quantity (loss, accuracy), one line
per split (train, eval), with labelled axes. Pillow is paddle.vision's image backend, so the
example needs nothing more to plot."""
from PIL import Image, ImageDraw

PANEL_W, PANEL_H, MARGIN = 420, 300, 48
COLOURS = {"train": (31, 119, 180), "eval": (214, 39, 40)}


def _draw_panel(draw, left, title, series):
    """series: {split: [value per epoch]}."""
    top, right, bottom = MARGIN // 2, left + PANEL_W - MARGIN // 2, PANEL_H - MARGIN
    plot_left = left + MARGIN
    values = [v for vs in series.values() for v in vs]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 0.5, high + 0.5
    epochs = max(len(vs) for vs in series.values())

    def point(epoch, value):
        x = plot_left + (right - plot_left) * (epoch / max(epochs - 1, 1))
        y = bottom - (bottom - top) * (value - low) / (high - low)
        return x, y

    draw.rectangle([plot_left, top, right, bottom], outline=(0, 0, 0))
    draw.text((plot_left, 4), title, fill=(0, 0, 0))
    for fraction in (0.0, 0.5, 1.0):
        value = low + (high - low) * fraction
        y = bottom - (bottom - top) * fraction
        draw.text((left + 2, y - 6), f"{value:.3f}", fill=(0, 0, 0))
    for epoch in range(epochs):
        x, _ = point(epoch, low)
        draw.text((x - 3, bottom + 4), str(epoch + 1), fill=(0, 0, 0))
    draw.text(((plot_left + right) // 2 - 15, bottom + 20), "epoch", fill=(0, 0, 0))
    for row, (split, vs) in enumerate(series.items()):
        colour = COLOURS.get(split, (0, 0, 0))
        points = [point(epoch, v) for epoch, v in enumerate(vs)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for x, y in points:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        draw.text((right - 90 + 45 * row, 4), split, fill=colour)  # the legend, beside the title


def save_curves(path, history):
    """history: {quantity: {split: [value per epoch]}}, e.g. {"loss": {"train": [...]}}."""
    image = Image.new("RGB", (PANEL_W * len(history), PANEL_H), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for index, (quantity, series) in enumerate(history.items()):
        _draw_panel(draw, index * PANEL_W, quantity, series)
    image.save(path)
