#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Converts an X window dump (xwd, as the GUI test keeps one) to a PNG.

    TILTPUZZLE_GUI_SCREENSHOT=/tmp/gui.xwd swift test --filter GUIOnVirtualDisplayTests
    python3 scripts/xwd-to-png.py /tmp/gui.xwd docs/images/gui.png

This is how docs/images/gui.png is made. Standard library only (no ImageMagick):
reads 24- or 32-bit TrueColor dumps, writes an 8-bit RGB PNG compressed with zlib.
"""

import struct
import sys
import zlib


def read_xwd(path):
    data = open(path, "rb").read()
    fields = struct.unpack(">25I", data[:100])
    header_size, pixmap_format = fields[0], fields[2]
    width, height, byte_order = fields[4], fields[5], fields[7]
    bits_per_pixel, bytes_per_line = fields[11], fields[12]
    masks = fields[14:17]
    colormap_entries = fields[19]
    if pixmap_format != 2 or bits_per_pixel not in (24, 32):
        sys.exit(f"{path}: only 24- and 32-bit ZPixmap dumps are supported")
    start = header_size + colormap_entries * 12
    step = bits_per_pixel // 8
    rows = []
    for y in range(height):
        line = data[start + y * bytes_per_line:start + y * bytes_per_line + width * step]
        row = bytearray()
        for x in range(width):
            value = int.from_bytes(line[x * step:(x + 1) * step], "little" if byte_order == 0 else "big")
            for mask in masks:
                shift = (mask & -mask).bit_length() - 1
                row.append((value & mask) >> shift)
        rows.append(bytes(row))
    return width, height, rows


def write_png(path, width, height, rows):
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    raw = b"".join(b"\0" + row for row in rows)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        out.write(chunk(b"IEND", b""))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: xwd-to-png.py DUMP.xwd OUT.png")
    write_png(sys.argv[2], *read_xwd(sys.argv[1]))
