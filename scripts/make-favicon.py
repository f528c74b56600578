#!/usr/bin/env python3
"""Writes src/pages/assets/favicon.ico: the grading server's icon (`/favicon.ico`), a 32x32
mahjong tile (an ivory face over a green back, a red dot: the one of circles), as a 32-bit
BMP inside an ICO container (every browser reads it). Standard library only; the output is
the same bytes on every run. Usage: python3 scripts/make-favicon.py [OUT]"""

import struct
import sys

SIZE = 32
IVORY, GREEN, RED, EDGE = (245, 240, 225), (30, 110, 70), (200, 30, 40), (90, 80, 70)


def pixel(x, y):
    """RGBA of pixel (x, y), y down; None outside the tile."""
    left, right, top, bottom, r = 5, 26, 1, 30, 3
    if not (left <= x <= right and top <= y <= bottom):
        return None
    # rounded corners: outside the quarter circle of the corner's square
    cx = left + r if x < left + r else right - r if x > right - r else x
    cy = top + r if y < top + r else bottom - r if y > bottom - r else y
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return None
    if y >= bottom - 4:
        return GREEN + (255,)
    if x in (left, right) or y == top:
        return EDGE + (255,)
    # the circle: a red ring around a red centre
    d2 = (x - 15.5) ** 2 + (y - 13.5) ** 2
    ring = 4.0**2 < d2 <= 6.5**2
    centre = d2 <= 2.2**2
    return (RED if ring or centre else IVORY) + (255,)


def icon():
    rows = []
    for y in reversed(range(SIZE)):  # a BMP's rows go bottom up
        row = b""
        for x in range(SIZE):
            p = pixel(x, y)
            r, g, b, a = p if p else (0, 0, 0, 0)
            row += bytes((b, g, r, a))
        rows.append(row)
    xor = b"".join(rows)
    mask = b"\0" * (SIZE * SIZE // 8)  # alpha decides; the AND mask is all "opaque"
    header = struct.pack("<IiiHHIIiiII", 40, SIZE, SIZE * 2, 1, 32, 0, len(xor) + len(mask), 0, 0, 0, 0)
    image = header + xor + mask
    entry = struct.pack("<BBBBHHII", SIZE, SIZE, 0, 0, 1, 32, len(image), 6 + 16)
    return struct.pack("<HHH", 0, 1, 1) + entry + image


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "src/pages/assets/favicon.ico"
    with open(out, "wb") as f:
        f.write(icon())
