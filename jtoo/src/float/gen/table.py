"""What every table generator here does with its text: write the table, or
with --check compare it with the committed file and fail if they differ."""

import sys


def write_or_check(path, text):
    if "--check" in sys.argv[1:]:
        with open(path) as f:
            if f.read() != text:
                sys.exit(f"{path} is not what {sys.argv[0]} writes: run it")
        return
    with open(path, "w") as f:
        f.write(text)
