#!/usr/bin/env python3
"""The HTML audit report, end to end: a corpus program is built with clang-19
(the base) and as 3 divcc variants, `divtool audit --html` reports on them,
and headless Chromium renders the page. Checked:
  - the page is self-contained: no script, no style sheet, image or font to
    fetch;
  - Chromium renders it and exits 0, with no console message (the page has
    no script, so any message, "Uncaught ..." above all, is a fault);
  - the DOM has the three plots (svg#plot-survival, #plot-functions,
    #plot-shift), each role="img" with a <title>, and in each exactly as
    many bars or points as the audit's JSON output calls for, and at least
    MIN_MARKS;
  - the variant table has a row per variant with its survival share, and
    paths from the command line come out as text: the binaries sit in a
    directory whose name holds <, >, &, ' and ";
  - the screenshot is a PNG that is not blank: many pixels that are not the
    background, many colours, and solid areas of both bar colours.
The screenshot is kept as $DIVCC_BUILD_DIR/audit-report.png."""

import html.parser
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import zlib
from pathlib import Path

from divtest import corpus, tools
from divtest.checks import Checks

PROGRAM = corpus.CORPUS / "c_recursion.c"
VARIANTS = 3
# The default set without offset, which would move the C runtime too and
# leave no gadget surviving anywhere: the plots must show both colours.
VARIANT_SET = "-fdiversify=nops,funcs,sched,globals"
# Bars or points each plot must have at least: gadgets survive nowhere and
# in every variant (the C runtime's, which VARIANT_SET leaves in place); the
# program has many functions, each found in every variant.
MIN_MARKS = {"plot-survival": 2, "plot-functions": 3, "plot-shift": 3 * VARIANTS}
PLOTS = ("plot-survival", "plot-functions", "plot-shift")
# HtmlReport.cpp: gadgets that survive (ExposedColour) and that do not
# (SafeColour); both fill bars in the survival and per-function plots.
BAR_COLOURS = {"exposed": (0xCC, 0x33, 0x11), "safe": (0x44, 0x77, 0xAA)}
# HtmlReport.cpp: at most this many functions in the per-function plot.
TOP_FUNCTIONS = 30
CHROMIUM = os.environ.get("DIVCC_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--enable-logging=stderr", "--v=0"]
# A console message as Chromium logs it: [pid:tid:time:INFO:CONSOLE:line] "...".
CONSOLE_LINE = re.compile(r":CONSOLE[:(]")
# What a self-contained page may not hold; the SVG namespace is a name, not
# a fetch.
EXTERNAL = re.compile(r"<script|<link|<img|<iframe|<object|<embed|\bsrc\s*=|url\(|@import|"
                      r"https?://(?!www\.w3\.org/2000/svg\")", re.IGNORECASE)


def fail(message):
    sys.exit(f"html_report: {message}")


# --- The page, as Chromium serialized its DOM ------------------------------

class Dom(html.parser.HTMLParser):
    """What the checks need from the DOM: per svg, its attributes, its
    <title> and its data marks; the variant table's rows; all text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svgs = {}        # id: {"attrs", "title", "marks", "first_child"}
        self.rows = []        # texts of the cells of each row of table#variants
        self.text = []
        self._svg = None
        self._in_title = False
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self._svg = self.svgs.setdefault(a.get("id", ""), {
                "attrs": a, "title": "", "marks": {"rect": 0, "circle": 0},
                "first_child": None})
        elif self._svg is not None:
            if self._svg["first_child"] is None:
                self._svg["first_child"] = tag
            if tag == "title" and not self._svg["title"]:
                self._in_title = True
            if tag in ("rect", "circle") and "mark" in a.get("class", "").split():
                self._svg["marks"][tag] += 1
        if tag == "table":
            self._table = a.get("id")
        if self._table == "variants" and tag == "tr":
            self.rows.append([])
        if self._table == "variants" and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag == "svg":
            self._svg = None
        if tag == "title":
            self._in_title = False
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title and self._svg is not None:
            self._svg["title"] += data
        if self._table == "variants" and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data.strip()


# --- PNG, decoded with zlib alone -------------------------------------------

def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA,
    non-interlaced PNG (what Chromium writes)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, "
                         f"interlace {interlace}")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up_left = prev[i - channels] if i >= channels else 0
                line[i] = (line[i] + paeth(left, prev[i], up_left)) & 0xFF
        elif kind != 0:
            raise ValueError(f"row {y}: unknown filter {kind}")
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def pixel_stats(path):
    """(pixels, most common colour and its count, distinct colours, count of
    each BAR_COLOURS entry) of the PNG at path."""
    width, height, channels, rows = decode_png(path)
    counts = {}
    for row in rows:
        for i in range(0, len(row), channels):
            rgb = row[i:i + 3]
            counts[rgb] = counts.get(rgb, 0) + 1
    common, common_count = max(counts.items(), key=lambda kv: kv[1])
    bars = {name: counts.get(bytes(rgb), 0) for name, rgb in BAR_COLOURS.items()}
    return width * height, (tuple(common), common_count), len(counts), bars


# --- Building, auditing, rendering ------------------------------------------

def build(work):
    """The base and the variants, in a directory whose name HTML must
    escape. Returns (base, [variants])."""
    out = work / "bins <b>&'\"x\""
    out.mkdir()
    flags = ["-std=c17", "-O2", str(PROGRAM)] + corpus.LINK_LIBS
    base = out / "base"
    tools.check([tools.clang(False)] + flags + ["-o", str(base)])
    variants = []
    for n in range(1, VARIANTS + 1):
        v = out / f"variant-{n}"
        tools.check([tools.divcc(False), VARIANT_SET, f"-frandom-seed=html-{n}"]
                    + flags + ["-o", str(v)])
        variants.append(v)
    return base, variants


def chromium(work, name, page, extra):
    """Runs Chromium on the page with a fresh profile; (code, stdout, stderr)."""
    profile = work / f"profile-{name}"
    profile.mkdir()
    return tools.run([CHROMIUM] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}"] + extra
                     + [page.as_uri()], timeout=180)


def expected_marks(audit):
    """Bars and points each plot should hold, from the audit's JSON."""
    survival = sum(1 for n in audit["survival_histogram"] if n)
    top = sorted((f for f in audit["functions"] if f["gadgets"]),
                 key=lambda f: (-f["gadgets"], f["address"]))[:TOP_FUNCTIONS]
    functions = sum((f["surviving_somewhere"] > 0) + (f["surviving_somewhere"] < f["gadgets"])
                    for f in top)
    shift = sum(1 for f in audit["functions"] for s in f["shift"] if s is not None)
    return {"plot-survival": ("rect", survival), "plot-functions": ("rect", functions),
            "plot-shift": ("circle", shift)}


def main():
    build_dir = tools.build_dir()
    divtool = Path(tools.divtool_path())
    for tool in (divtool, Path(tools.divcc(False)), Path(CHROMIUM)):
        if not tool.exists():
            fail(f"{tool} not found (set DIVCC_BUILD_DIR, DIVCC_TEST_CHROMIUM)")
    work = Path(tempfile.mkdtemp(prefix="divcc-html-"))
    c = Checks(show_detail=True)

    try:
        base, variants = build(work)
    except RuntimeError as e:
        fail(f"building {PROGRAM.name} failed: {e}")
    print(f"built {PROGRAM.name}: base with clang-19, {VARIANTS} variants with divcc "
          f"(-frandom-seed=html-1..{VARIANTS})")

    page = work / "report.html"
    audit_cmd = [str(divtool), "audit", str(base)] + [str(v) for v in variants]
    code, _, err = tools.run(audit_cmd + ["--html", str(page)])
    if code != 0 or not page.exists():
        fail(f"divtool audit --html failed ({code}):\n{err.decode(errors='replace')}")
    code, out, err = tools.run(audit_cmd + ["--json"])
    if code != 0:
        fail(f"divtool audit --json failed ({code}):\n{err.decode(errors='replace')}")
    audit = json.loads(out)
    source = page.read_text(encoding="utf-8")
    print(f"divtool audit wrote {page.name}: {len(source)} bytes")

    found = EXTERNAL.search(source)
    c(found is None, "page is self-contained (no script, link, src, url(), "
      "external address)", f"found {found.group(0)!r}" if found else "")

    shot = work / "report.png"
    code, _, shot_err = chromium(work, "screenshot", page,
                                 [f"--screenshot={shot}", "--window-size=1280,2400"])
    c(code == 0, "chromium --screenshot exits 0", f"exit {code}")
    code, dom_out, dom_err = chromium(work, "dom", page, ["--dump-dom"])
    c(code == 0, "chromium --dump-dom exits 0", f"exit {code}")

    console = [line for line in (shot_err + dom_err).decode(errors="replace").splitlines()
               if "Uncaught" in line or CONSOLE_LINE.search(line)]
    c(not console, "no console messages, no 'Uncaught' errors",
      "".join("\n  " + line for line in console))

    dom = Dom()
    dom.feed(dom_out.decode(errors="replace"))
    expected = expected_marks(audit)
    for plot in PLOTS:
        svg = dom.svgs.get(plot)
        if not c(svg is not None, f"svg#{plot} in the DOM"):
            continue
        c(svg["attrs"].get("role") == "img", f"svg#{plot} has role=\"img\"")
        c(svg["first_child"] == "title" and svg["title"].strip(),
          f"svg#{plot} has a <title>", repr(svg["title"].strip()))
        kind, want = expected[plot]
        got = svg["marks"][kind]
        least = MIN_MARKS[plot]
        c(want >= least, f"{plot}: the audit's JSON calls for {least} {kind}s "
          "or more", f"{want}")
        c(got == want and got >= least, f"{plot}: {got} data {kind}s in the DOM",
          f"expected {want}, at least {least}")

    rows = [r for r in dom.rows if r]
    c(len(rows) == VARIANTS, f"variant table has {VARIANTS} rows", f"{len(rows)} rows")
    for n, (row, v) in enumerate(zip(rows, audit["variants"])):
        share = v["surviving"] / audit["base"]["gadgets"] * 100
        shown = next((cell for cell in row if cell.endswith("%")), "")
        c(shown and abs(float(shown[:-1]) - share) < 0.006 and str(variants[n]) in row,
          f"variant {n + 1}: path and survival share {share:.2f}%",
          f"row {row}")
    text = "".join(dom.text)
    c(str(base) in text, "base path shown as text (<, >, &, ', \" escaped)")

    if c(shot.exists(), "screenshot written"):
        shutil.copy(shot, build_dir / "audit-report.png")
        try:
            pixels, (common, common_count), colours, bars = pixel_stats(shot)
        except ValueError as e:
            c(False, "screenshot decodes", str(e))
        else:
            other = pixels - common_count
            c(other >= pixels // 50,
              "screenshot not blank: 2% of pixels or more differ from the "
              "background", f"{other} of {pixels} differ from #{bytes(common).hex()}")
            c(colours >= 32, "screenshot has 32 colours or more", f"{colours}")
            for name, count in bars.items():
                c(count >= 500, f"screenshot shows {name} bars "
                  f"(#{bytes(BAR_COLOURS[name]).hex()})", f"{count} pixels")
        print(f"screenshot kept as {build_dir / 'audit-report.png'}")

    if c.failures:
        print(f"html_report: {len(c.failures)} checks failed (work files in {work})")
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    print("html_report: all checks passed")


if __name__ == "__main__":
    main()
