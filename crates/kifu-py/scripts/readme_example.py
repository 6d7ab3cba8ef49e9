"""Runs the Python example of the README as printed and checks its output.

    python readme_example.py README.md WORKDIR

The example is the first ```python block of the README's "## Python" section; the ```text block
right after it is what it prints. The example runs in WORKDIR (it writes a file there).
"""

import contextlib
import io
import os
import re
import sys


def main():
    readme, workdir = sys.argv[1], sys.argv[2]
    text = open(readme, encoding="utf-8").read()
    section = text.split("\n## Python", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```\s*\n```text\n(.*?)```", section, re.S)
    if not match:
        sys.exit("readme_example: no ```python block followed by a ```text block in ## Python")
    code, expected = match.group(1), match.group(2)
    os.chdir(workdir)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md (## Python)", "exec"), {"__name__": "__main__"})
    if out.getvalue() != expected:
        print("readme_example: the README's Python example printed something else", file=sys.stderr)
        print("--- expected\n" + expected + "--- got\n" + out.getvalue(), file=sys.stderr)
        sys.exit(1)
    print("readme_example: the README's Python example runs as printed")


if __name__ == "__main__":
    main()
