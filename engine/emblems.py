"""The dynasties' emblems (the archer or bow, the bull, the pot, the lion), drawn in SVG
as on the leaders of Tigris & Euphrates and its card game."""
from __future__ import annotations

import math


def dynasty_emblem(dynasty: str, background: str) -> str:
    """The dynasty's emblem in white, drawn in a box about 20 pixels wide around (0, 0)."""
    white = "#ffffff"
    if dynasty in ("archer", "bow"):  # a drawn bow with its arrow
        return (f'<path d="M-3 -10Q9 0 -3 10" fill="none" stroke="{white}" stroke-width="2.2"/>'
                f'<path d="M-3 -10L-3 10M-9 0H8M8 0l-4 -3.5M8 0l-4 3.5" fill="none" stroke="{white}" '
                f'stroke-width="1.6" stroke-linecap="round"/>')
    if dynasty == "bull":  # a head with two horns
        return (f'<path d="M-4 -3Q-11 -4 -9 -11M4 -3Q11 -4 9 -11" fill="none" stroke="{white}" '
                f'stroke-width="2.6" stroke-linecap="round"/>'
                f'<ellipse cx="0" cy="2" rx="6" ry="7.5" fill="{white}"/>'
                f'<circle cx="-2.4" cy="5.5" r="1.2" fill="{background}"/>'
                f'<circle cx="2.4" cy="5.5" r="1.2" fill="{background}"/>')
    if dynasty == "pot":  # a vase with a narrow neck
        return (f'<path d="M-4 -10H4L2.5 -6Q9 -3 8 3Q7 10 0 10Q-7 10 -8 3Q-9 -3 -2.5 -6Z" '
                f'fill="{white}"/><path d="M-6 1H6" stroke="{background}" stroke-width="1.5"/>')
    if dynasty == "lion":  # a face in a spiky mane
        return (f'<polygon points="{star_points(12, 11, 7.5)}" fill="{white}"/>'
                f'<circle r="5.5" fill="{background}"/>'
                f'<circle cx="-2" cy="-1" r="1.1" fill="{white}"/><circle cx="2" cy="-1" r="1.1" fill="{white}"/>'
                f'<path d="M-1.6 2.4H1.6L0 3.8Z" fill="{white}"/>')
    return f'<circle r="6" fill="none" stroke="{white}" stroke-width="2.5"/>'


def star_points(spikes: int, outer: float, inner: float) -> str:
    points = []
    for i in range(spikes * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / spikes - math.pi / 2
        points.append(f"{radius * math.cos(angle):.2f},{radius * math.sin(angle):.2f}")
    return " ".join(points)
