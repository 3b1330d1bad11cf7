"""A PNG of an audit report's HTML page, as headless Chromium renders it (docs/img/audit-report.png).

    python bench/audit_screenshot.py REPORT.html OUT.png [--width 1000] [--height PX]

The page is self-contained (plots inline), so it is opened as a file; the screenshot is of the
whole page, or of its top ``--height`` pixels.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from crfdeid.review import headless


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("html")
    p.add_argument("png")
    p.add_argument("--width", type=int, default=1000)
    p.add_argument("--height", type=int, help="only the top of the page, this many pixels")
    args = p.parse_args()
    why = headless.available()
    if why:
        raise SystemExit(why)
    with headless.chromium(args.width, 800) as driver:
        driver.get(Path(args.html).resolve().as_uri())
        height = args.height or driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(args.width, height + 140)  # the window's frame takes some of it
        driver.get(Path(args.html).resolve().as_uri())
        driver.execute_script("document.documentElement.style.overflow = 'hidden'")  # no scroll bars
        driver.save_screenshot(args.png)
    print(args.png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
