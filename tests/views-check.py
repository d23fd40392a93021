#!/usr/bin/env python3
"""views-check.py: the checks of tests/t-views.sh that a shell cannot make on its own.

  html FILE CHART...   FILE parses as XML (well-formed), holds a <figure id=CHART> with an
                       inline <svg> for each CHART, no <script>, no src= or external href,
                       no url() but to its own ids
  png FILE             FILE is a PNG of at least 50 distinct colours (not blank)
  labels FILE.gp       the point labels (set label ... left, not turned) of a roofline script
                       do not overlap, in the canvas rooftraj places them on
  listen PORTFILE N    a proxy that only listens: accept connections on a free port (written
                       to PORTFILE) for N seconds; print the first line of each request
"""
import os
import socket
import struct
import sys
import time
import xml.etree.ElementTree as ET
import zlib


def check_html(path, charts):
    text = open(path, encoding="utf-8").read()
    root = ET.fromstring(text.replace("<!DOCTYPE html>", "", 1))
    ns = "{http://www.w3.org/2000/svg}"
    figs = {f.get("id"): f for f in root.iter("figure")}
    for c in charts:
        f = figs.get(c)
        if f is None:
            sys.exit("no figure %s" % c)
        if f.find(".//" + ns + "svg") is None:
            sys.exit("figure %s holds no inline svg" % c)
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag == "script":
            sys.exit("a script element")
        for k, v in el.attrib.items():
            k = k.split("}")[-1]
            if k == "src":
                sys.exit("a src attribute: %s" % v)
            if k == "href" and not v.startswith("#"):
                sys.exit("an external href: %s" % v)
            if "url(" in v and "url(#" not in v:
                sys.exit("an external url(): %s" % v)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    if len(ids) != len(set(ids)):
        sys.exit("duplicate ids")
    print("ok: %d figures, %d ids" % (len(figs), len(ids)))


def png_colours(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit("unexpected PNG format")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        for x in range(0, stride, bpp * 7):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return colours


def check_png(path):
    n = len(png_colours(path))
    if n < 50:
        sys.exit("%s: %d colours: blank" % (path, n))
    print("ok: %d colours" % n)


def check_labels(path):
    # the canvas of src/plot.c: 1400 x 800, plot area 0.07..0.97 x 0.15..0.93, 6.6 px a
    # character (+4), 14 px a line
    w, h = (0.97 - 0.07) * 1400, (0.93 - 0.15) * 800
    boxes = []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("set label ") or "rotate" in line or " left " not in line:
            continue
        q0 = line.index("'")
        q1 = line.index("' at graph", q0 + 1)
        text = line[q0 + 1:q1].replace("''", "'")
        rest = line[q1 + len("' at graph"):].split(",")
        x = float(rest[0]) * w - 2
        y = float(rest[1].split()[1]) * h - 7
        boxes.append((x, y, x + 6.6 * len(text) + 4, y + 14, text))
    for i, a in enumerate(boxes):
        for b in boxes[:i]:
            ox = min(a[2], b[2]) - max(a[0], b[0])
            oy = min(a[3], b[3]) - max(a[1], b[1])
            if ox > 1 and oy > 1:
                sys.exit("labels '%s' and '%s' overlap" % (a[4], b[4]))
    print("ok: %d labels apart" % len(boxes))


def listen(portfile, seconds, stopfile=None):
    """Record the first line of every request until stopfile exists (the client is done:
    what it sent waits in the backlog, and is read), at most seconds."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    s.settimeout(0.2)
    open(portfile, "w").write("%d\n" % s.getsockname()[1])
    end = time.time() + float(seconds)
    stopping = False
    while time.time() < end:
        if not stopping and stopfile and os.path.exists(stopfile):
            stopping = True
            s.settimeout(0.05)
        try:
            c, _ = s.accept()
        except (socket.timeout, BlockingIOError):
            if stopping:
                return
            continue
        c.settimeout(1)
        try:
            line = c.recv(512).split(b"\r\n")[0].decode("latin-1")
        except OSError:
            line = "(nothing read)"
        print(line, flush=True)
        c.close()


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "html":
        check_html(sys.argv[2], sys.argv[3:])
    elif cmd == "png":
        check_png(sys.argv[2])
    elif cmd == "labels":
        check_labels(sys.argv[2])
    elif cmd == "listen":
        listen(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        sys.exit("unknown check " + cmd)
