#!/usr/bin/env python3
"""Checks that the Python runner (reading only manifest.json) and the Rust
runner (reading the case tree) judge our `jtoo` CLI identically: the same
checks, the same verdict on each, the same summary line. Run by .ci/run:

    cargo build -p jtoo-cli -p spec-tests
    python3 spec-tests/runners/agree.py --runner target/debug/spec-tests --jtoo target/debug/jtoo

Exit status 0 when they agree in every configuration, 1 when not.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC_TESTS = os.path.dirname(HERE)
PY_RUNNER = os.path.join(HERE, "jtoo_spec_tests.py")


def configurations(jtoo, protocols):
    q = shlex.quote(jtoo)
    flags = "".join(" --protocol %s" % shlex.quote(p) for p in protocols)
    # The crates' known failures, and the CLI's own (kept with its tests).
    skips = []
    for path in (os.path.join(SPEC_TESTS, "tests", "known-failures.txt"),
                 os.path.join(os.path.dirname(SPEC_TESTS), "jtoo-cli", "tests", "known-failures.txt")):
        skips += ["--skip", path]
    return [
        ("strict decoder and encoder", ["--decoder", q + " decode", "--encoder", q + " encode",
                                        "--from-json", q + " from-json"] + skips),
        ("HTOO decoder", ["--htoo", "--decoder", q + " decode --htoo"] + skips),
        ("frames and greetings", ["--frame-decoder", q + " frame decode",
                                  "--greeting-checker", q + " frame check-greeting" + flags] + skips),
        # Programs that fail many checks in different ways, so that the two
        # runners are compared on failures too, not only on passes.
        ("strict decoder run as HTOO", ["--htoo", "--decoder", q + " decode"]),
        ("HTOO decoder run as strict", ["--decoder", q + " decode --htoo"]),
        ("echoing encoder, converters", ["--encoder", "cat", "--from-json", "cat", "--jte-packet", "cat"]),
        ("refusing converters", ["--from-json", "exit 1", "--jte-packet", "exit 1"]),
        ("frame decoder as greeter", ["--greeting-checker", q + " frame decode",
                                      "--frame-decoder", q + " frame check-greeting" + flags]),
    ]


def report(cmd):
    out = subprocess.run(cmd + ["--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        return out.returncode, json.loads(out.stdout)
    except ValueError:
        sys.exit("agree: %s printed no JSON report:\n%s" % (cmd[0], out.stderr.decode("utf-8", "replace")))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runner", required=True, help="the Rust runner binary (spec-tests)")
    p.add_argument("--jtoo", required=True, help="the jtoo binary")
    p.add_argument("--python", default=sys.executable)
    args = p.parse_args()
    jtoo = os.path.abspath(args.jtoo)
    revs = sorted(d for d in os.listdir(os.path.join(SPEC_TESTS, "cases"))
                  if os.path.isdir(os.path.join(SPEC_TESTS, "cases", d)))
    with open(os.path.join(SPEC_TESTS, "cases", revs[-1], "manifest.json"), encoding="utf-8") as f:
        protocols = json.load(f)["greeting_protocols"]
    disagreements = 0
    for name, flags in configurations(jtoo, protocols):
        rust_code, rust = report([args.runner] + flags)
        py_code, py = report([args.python, PY_RUNNER] + flags)
        r = {x["id"]: x["status"] for x in rust["results"]}
        q = {x["id"]: x["status"] for x in py["results"]}
        keys = ("passed", "failed", "skipped", "stale", "implementation_defined")
        line = lambda rep: ", ".join("%s %d" % (k, rep[k]) for k in keys)
        print("%-28s rust: %s" % (name, line(rust)))
        print("%-28s python: %s" % ("", line(py)))
        diff = sorted(i for i in set(r) | set(q) if r.get(i) != q.get(i))
        for i in diff[:20]:
            print("  differ: %s: rust %s, python %s" % (i, r.get(i), q.get(i)))
        if diff or rust_code != py_code or any(rust[k] != py[k] for k in keys):
            disagreements += 1
            print("  DISAGREE (%d checks, exit %d vs %d)" % (len(diff), rust_code, py_code))
    if disagreements:
        print("agree: the runners disagree in %d configuration(s)" % disagreements)
        return 1
    print("agree: both runners give the same verdict on every check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
