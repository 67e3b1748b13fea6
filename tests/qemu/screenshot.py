#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Screenshots of the app's screen under QEMU, and what they must show.

    screenshot.py run SOCKET SERIAL MARK DIR PNGDIR LIMIT
        with QEMU started (-monitor unix:SOCKET, -no-shutdown, serial to
        SERIAL): once a serial line matches MARK, `screendump` DIR/mid.ppm;
        once the guest has shut down (QEMU stopped), DIR/end.ppm; then quit
        (or after LIMIT seconds, a failure).  Each is kept as PNGDIR/*.png.
    screenshot.py check MID END RAW KERNELS
        the checks, one PASS/FAIL line each (tests/caselines.py); RAW is the
        app's console lines as printed (80 columns), KERNELS the kernels=.

The screen is read without OCR: the graphics console draws every character
of a cell with one glyph of its font, so the bottom of the end screen,
whose text is the transcript's last lines, teaches each character's glyph;
the header's cells are then read back with them.  Colours are the exact
values of EDK II's GraphicsConsole (MdeModulePkg/Universal/Console/
GraphicsConsoleDxe/GraphicsConsole.c, mGraphicsEfiColors), glyphs its
EFI_GLYPH_WIDTH x EFI_GLYPH_HEIGHT, 8 x 19 pixels.
"""
import os
import re
import socket
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import caselines  # noqa: E402

GW, GH = 8, 19
HEADER_ROWS = 4  # lib/status.h STATUS_ROWS
BLUE = (0x00, 0x00, 0x98)  # EFI_BACKGROUND_BLUE: the header's background
BLACK = (0x00, 0x00, 0x00)
GREY = (0x98, 0x98, 0x98)  # EFI_LIGHTGRAY, the lines' text
WORD_RGB = {
    "PASS": (0x00, 0xff, 0x00),   # EFI_LIGHTGREEN
    "FAIL": (0xff, 0x00, 0x00),   # EFI_LIGHTRED
    "SKIP": (0xff, 0xff, 0x00),   # EFI_YELLOW
    "ERROR": (0xff, 0x00, 0xff),  # EFI_LIGHTMAGENTA
}


# --- images ----------------------------------------------------------------

class Image:
    def __init__(self, w, h, rgb):
        self.w, self.h, self.rgb = w, h, bytearray(rgb)

    def px(self, x, y):
        i = (y * self.w + x) * 3
        return tuple(self.rgb[i:i + 3])

    def put(self, x, y, c):
        i = (y * self.w + x) * 3
        self.rgb[i:i + 3] = bytes(c)

    def copy(self):
        return Image(self.w, self.h, bytes(self.rgb))


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        m = re.compile(rb"\s*(#[^\n]*\n\s*)*(\S+)").match(data, pos)
        fields.append(m.group(2))
        pos = m.end()
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError("%s: not a P6 PPM of 8-bit samples" % path)
    w, h = int(fields[1]), int(fields[2])
    return Image(w, h, data[pos + 1:pos + 1 + w * h * 3])


def write_png(img, path):
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))
    rows = b"".join(b"\0" + bytes(img.rgb[y * img.w * 3:(y + 1) * img.w * 3])
                    for y in range(img.h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", img.w, img.h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(rows, 6)))
        f.write(chunk(b"IEND", b""))


# --- taking them -----------------------------------------------------------

class Monitor:
    def __init__(self, path, limit):
        end = time.time() + limit
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                if time.time() > end:
                    raise
                time.sleep(0.2)
        self.cmd(None)

    def cmd(self, line):
        if line is not None:
            self.s.sendall(line.encode() + b"\n")
        buf = b""
        while not buf.endswith(b"(qemu) "):
            part = self.s.recv(4096)
            if not part:
                break
            buf += part
        return buf.decode(errors="replace")


def take(sock, serial, mark, outdir, pngdir, limit):
    mon = Monitor(sock, 30)
    end = time.time() + limit
    mid, text, polls = False, "", 0
    while time.time() < end:
        # The serial file often, the monitor (a round trip through QEMU's
        # main loop, slow under load) every 0.5 s.
        if not mid and os.path.exists(serial):
            text = open(serial, errors="replace").read()
        if not mid and re.search(mark, text, re.M):
            # Stopped while the screen is dumped: the run cannot move past it.
            mon.cmd("stop")
            mon.cmd("screendump %s/mid.ppm" % outdir)
            mon.cmd("cont")
            mid = True
        polls += 1
        if polls % 25 == 0 and "shutdown" in mon.cmd("info status"):
            break
        time.sleep(0.02)
    else:
        print("screenshot.py: the guest did not shut down within %d s" % limit)
        mon.cmd("quit")
        return 1
    mon.cmd("screendump %s/end.ppm" % outdir)
    mon.cmd("quit")
    for name in ("mid", "end"):
        p = os.path.join(outdir, name + ".ppm")
        if os.path.exists(p):
            write_png(read_ppm(p), os.path.join(pngdir, name + ".png"))
    if not mid:
        print("screenshot.py: no serial line matched /%s/ before the end" % mark)
    return 0


# --- reading them ----------------------------------------------------------

def header_origin(img):
    """The header's top left pixel and its width in columns, or None."""
    for y in range(img.h):
        for x in range(img.w):
            if img.px(x, y) == BLUE:
                cols = 0
                while x + (cols + 1) * GW <= img.w and \
                        img.px(x + cols * GW, y) == BLUE:
                    cols += 1
                return x, y, cols
    return None


def cell(img, x0, y0, r, c):
    """(background, foreground mask, foreground colours) of one cell."""
    px = [img.px(x0 + c * GW + i, y0 + r * GH + j)
          for j in range(GH) for i in range(GW)]
    bg = max(set(px), key=px.count)
    return bg, bytes(p != bg for p in px), {p for p in px if p != bg}


class Grid:
    def __init__(self, img, x0, y0):
        self.img, self.x0, self.y0 = img, x0, y0
        self.cols = (img.w - 2 * x0) // GW
        self.rows = (img.h - 2 * y0) // GH

    def cell(self, r, c):
        return cell(self.img, self.x0, self.y0, r, c)

    def blank(self, r):
        return not any(any(self.cell(r, c)[1]) for c in range(self.cols))


def screen_lines(raw, grid):
    """The transcript's lines on the end screen's rows below the header:
    {row: text}, the last line on the lowest row with ink."""
    last = max((r for r in range(HEADER_ROWS, grid.rows) if not grid.blank(r)),
               default=None)
    rows, r = {}, last
    for line in reversed(raw):
        if r is None or r < HEADER_ROWS:
            break
        rows[r] = line
        r -= 1 + len(line) // grid.cols
    return rows


def learn_glyphs(grid, rows):
    """Each character's glyph mask, from the rows whose text is known;
    a character seen with two masks means the rows are not that text."""
    glyphs, clash = {}, []
    for r, line in rows.items():
        for c, ch in enumerate(line[:grid.cols]):
            mask = grid.cell(r, c)[1]
            if ch == " ":
                continue
            if glyphs.get(mask, ch) != ch:
                clash.append("row %d col %d: '%s' drawn as '%s'" % (r, c, ch, glyphs[mask]))
            glyphs[mask] = ch
    return glyphs, clash


def read_row(grid, glyphs, r, width):
    out = ""
    for c in range(width):
        mask = grid.cell(r, c)[1]
        out += " " if not any(mask) else glyphs.get(mask, "?")
    return out.rstrip()


def check(mid_img, end_img, raw, kernels):
    """The cases: [(name, ok, why)]."""
    cases = []

    def case(name, ok, why=""):
        cases.append((name, bool(ok), why))
        return ok

    o_mid, o_end = header_origin(mid_img), header_origin(end_img)
    ok = case("header: blue rows at the top, mid-run and at the end",
              o_mid and o_end and o_mid[2] >= 40 and o_end[2] >= 40,
              "no header's blue background (mid %s, end %s)" % (o_mid, o_end))
    if not ok:
        return cases
    x0, y0, width = o_end
    end, mid = Grid(end_img, x0, y0), Grid(mid_img, *o_mid[:2])
    rows_blue = all(end.cell(r, c)[0] == BLUE and mid.cell(r, c)[0] == BLUE
                    for r in range(HEADER_ROWS) for c in range(width))
    case("header: %d rows x %d columns, every cell on blue" % (HEADER_ROWS, width),
         rows_blue and width <= 80, "a header cell not on blue, or wider than 80")
    rows = screen_lines(raw, end)
    glyphs, clash = learn_glyphs(end, rows)
    case("end screen: rows %d-%d are the transcript's last %d lines, under the header"
         % (min(rows or [0]), max(rows or [0]), len(rows)),
         len(rows) >= 8 and len(raw) > end.rows and not clash,
         "; ".join(clash[:3]) or "%d lines, %d rows" % (len(raw), end.rows))
    head_end = [read_row(end, glyphs, r, width) for r in range(HEADER_ROWS)]
    head_mid = [read_row(mid, glyphs, r, width) for r in range(HEADER_ROWS)]
    names = kernels.split(",")
    m = re.search(r"CPU 1 of 1 \(cpu 0\)  kernel (\d+) of (\d+) (\S+)", head_mid[2])
    case("mid-run progress: '%s'" % head_mid[2].strip(),
         m and int(m[2]) == len(names) and m[3] in names and
         names.index(m[3]) + 1 == int(m[1]),
         "not 'CPU 1 of 1 (cpu 0)  kernel k of %d NAME' with the k-th of %s"
         % (len(names), kernels))
    want = "main job done: 1 CPU, %d kernels each" % len(names)
    case("end progress: '%s'" % head_end[2].strip(), head_end[2].strip() == want,
         "want '%s'" % want)
    summ = next((line for line in raw if line.startswith("SUMMARY: ")), "")
    s = re.match(r"SUMMARY: (\d+) tests, (\d+) failures, (\d+) skipped", summ)
    counts = s and "PASS %d  FAIL %s  SKIP %s  ERROR 0" % (
        int(s[1]) - int(s[2]) - int(s[3]), s[2], s[3])
    case("end counts: '%s'" % head_end[3].strip(), counts and counts in head_end[3],
         "want '%s' (the SUMMARY line)" % counts)
    case("machine row: SIMULATED PMU", "SIMULATED PMU" in head_end[0],
         "row 0 reads '%s'" % head_end[0].strip())
    # The closing table: each verdict cell in its colour, the rest grey.
    seen, bad = {}, []
    in_table = False
    for r in sorted(rows):
        line = re.sub(r" \[sim\]$", "", rows[r])
        if line.startswith("VERDICTS: "):
            in_table = True
            continue
        if not in_table or line.startswith("kernel "):
            continue
        if re.match(r"(other|SUMMARY|INFO):", line):
            break
        for w in re.finditer(r"\S+", line):
            word = w[0].split("@")[0]
            want_rgb = WORD_RGB.get(word, GREY)
            got = set().union(*(end.cell(r, c)[2] for c in range(w.start(), w.end())))
            if got != {want_rgb}:
                bad.append("row %d '%s': %s" % (r, w[0], sorted(got)))
            elif word in WORD_RGB:
                seen[word] = seen.get(word, 0) + 1
    case("table cells: %s" % ", ".join("%s %d" % kv for kv in sorted(seen.items())),
         not bad and seen.get("PASS") and seen.get("FAIL"),
         "; ".join(bad[:3]) or "no PASS and FAIL cells on the end screen")
    case("mid and end headers differ (the progress moved)", head_mid != head_end,
         "the same header text mid-run and at the end")
    return cases


def arguments():
    """The command line (the module's docstring says what each word is)."""
    ap = caselines.ArgumentParser(prog="screenshot.py",
                                  description=__doc__.strip().splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="take the mid-run and end screens")
    for name in ("SOCKET", "SERIAL", "MARK", "DIR", "PNGDIR"):
        run.add_argument(name.lower(), metavar=name)
    run.add_argument("limit", type=int, metavar="LIMIT", help="seconds")
    chk = sub.add_parser("check", help="check the screens")
    for name in ("MID", "END", "RAW", "KERNELS"):
        chk.add_argument(name.lower(), metavar=name)
    return ap.parse_args()


def main():
    a = arguments()
    if a.command == "run":
        return take(a.socket, a.serial, a.mark, a.dir, a.pngdir, limit=a.limit)
    mid, end = read_ppm(a.mid), read_ppm(a.end)
    raw = [line.rstrip("\n") for line in open(a.raw, errors="replace")]
    kernels = a.kernels
    cases = check(mid, end, raw, kernels)
    # Known-bad screens made from the real ones: the checks must refuse each.
    o = header_origin(end)
    bad = []
    if o:
        nohead = end.copy()
        for y in range(o[1], o[1] + HEADER_ROWS * GH):
            for x in range(end.w):
                nohead.put(x, y, BLACK)
        bad.append(("a screen without the header", mid, nohead))
        grey = end.copy()
        for i in range(0, len(grey.rgb), 3):
            if tuple(grey.rgb[i:i + 3]) in (WORD_RGB["PASS"], WORD_RGB["FAIL"]):
                grey.rgb[i:i + 3] = bytes(GREY)
        bad.append(("grey table cells", mid, grey))
        bad.append(("the end screen as the mid-run one", end, end))
    for what, m, e in bad:
        failed = [n for n, ok, _ in check(m, e, raw, kernels) if not ok]
        cases.append(("refuses %s (%d checks fail)" % (what, len(failed)), failed,
                      "every check passed on it"))
    for name, ok, why in cases:
        caselines.report(ok, name, why)
    return 1 if caselines.failed else 0


if __name__ == "__main__":
    sys.exit(main())
