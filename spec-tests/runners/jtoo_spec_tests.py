#!/usr/bin/env python3
"""Run the JTOO/HTOO conformance suite from its manifest alone.

A second, independent runner (Python 3.8+, standard library only): it reads
nothing but `cases/<rev>/manifest.json` and the input files that manifest
names, runs the program under test once per check, and judges the result as
described in spec-tests/COMPARING.md. Its options, exit codes, summary line
and `--json` report are those of the Rust runner (`spec-tests`), so the two
can be compared check by check.

    python3 spec-tests/runners/jtoo_spec_tests.py --decoder "python3 my_decoder.py"
    python3 spec-tests/runners/jtoo_spec_tests.py --decoder "my-decoder --htoo" --htoo
    python3 spec-tests/runners/jtoo_spec_tests.py --encoder "my-encoder" --json

Exit status: 0 when no check failed, 1 when one did (or, with
--fail-on-stale, when a skip is stale), 2 on a usage error.
"""

import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = os.path.join(os.path.dirname(HERE), "cases")
MANIFEST_FORMAT = "jtoo-spec-tests-manifest/1"
MAX_JSON_DEPTH = 1024

# ---------------------------------------------------------------------------
# Running a command: its own process group, killed with everything it started
# ---------------------------------------------------------------------------


class Outcome:
    """How a run ended: kind is "exit", "signal", "timeout" or "spawn"."""

    def __init__(self, kind, code=None, stdout=b"", stderr=b"", what=""):
        self.kind, self.code, self.stdout, self.stderr, self.what = kind, code, stdout, stderr, what

    def exited(self, code):
        return self.kind == "exit" and self.code == code

    def describe(self):
        if self.kind == "exit":
            return "exit %d%s" % (self.code, stderr_tail(self.stderr))
        if self.kind == "signal":
            return "killed by %s%s" % (self.what, stderr_tail(self.stderr))
        if self.kind == "timeout":
            return "timed out"
        return "could not start: " + self.what


def stderr_tail(stderr):
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    if not lines or not lines[-1]:
        return ""
    return " (stderr: %s)" % lines[-1][:160]


# Commands running now, so that an interrupted run (Ctrl-C) can kill them:
# each leads its own process group and gets no SIGINT from the terminal.
LIVE = set()
LIVE_LOCK = threading.Lock()


def kill_live():
    with LIVE_LOCK:
        procs = list(LIVE)
    for proc in procs:
        _kill_group(proc)
        _kill_tree_on_timeout(proc)
        try:
            proc.kill()
        except OSError:
            pass


def _kill_group(proc):
    if os.name == "posix":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass  # the group is gone already


def _kill_tree_on_timeout(proc):
    if os.name == "nt":
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(proc.pid)],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(cmd, data, timeout, env_extra):
    """Runs the shell command line `cmd` with `data` on stdin; nothing it
    starts outlives the run (see exec.rs of the Rust runner)."""
    deadline = time.monotonic() + timeout
    env = dict(os.environ)
    env.update(env_extra)
    kwargs = {}
    if os.name == "posix":
        kwargs["start_new_session"] = True  # a new process group led by the shell
    try:
        proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, **kwargs)
    except OSError as e:
        return Outcome("spawn", what=str(e))
    with LIVE_LOCK:
        LIVE.add(proc)
    try:
        return _finish(proc, data, timeout, deadline)
    finally:
        with LIVE_LOCK:
            LIVE.discard(proc)


def _finish(proc, data, timeout, deadline):
    out = {}

    def read(name, pipe):
        out[name] = pipe.read()

    def write():
        try:
            proc.stdin.write(data)
            proc.stdin.close()
        except OSError:
            pass  # the program exited without reading its input

    threads = [threading.Thread(target=read, args=("stdout", proc.stdout), daemon=True),
               threading.Thread(target=read, args=("stderr", proc.stderr), daemon=True)]
    for t in threads:
        t.start()
    threading.Thread(target=write, daemon=True).start()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        _kill_tree_on_timeout(proc)
        proc.kill()
        proc.wait()
        return Outcome("timeout")
    _kill_group(proc)
    for t in threads:
        t.join(max(deadline - time.monotonic(), 0.1))
        if t.is_alive():
            return Outcome("timeout")
    code = proc.returncode
    if code < 0:
        return Outcome("signal", stderr=out.get("stderr", b""), what="signal %d" % -code)
    return Outcome("exit", code=code, stdout=out.get("stdout", b""), stderr=out.get("stderr", b""))


# ---------------------------------------------------------------------------
# Comparing tagged JSON by meaning (COMPARING.md)
# ---------------------------------------------------------------------------


class Mismatch(Exception):
    pass


def parse_json(data):
    """Parses a program's JSON output; refuses nesting deeper than
    MAX_JSON_DEPTH so that hostile output cannot exhaust the stack."""
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(depth - 1, 0)
    if deepest > MAX_JSON_DEPTH:
        raise ValueError("JSON nested deeper than %d" % MAX_JSON_DEPTH)
    return json.loads(text)


def short(v):
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return s if len(s) <= 120 else s[:117] + "..."


def norm_integer(s):
    m = re.fullmatch(r"(-?)([0-9]+)", s)
    if not m:
        return None
    digits = m.group(2).lstrip("0")
    if not digits:
        return (False, "0")
    return (m.group(1) == "-", digits)


def norm_decimal(s):
    m = re.fullmatch(r"(-?)([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?", s)
    if not m:
        return None
    neg, whole, frac, exp = m.group(1) == "-", m.group(2), m.group(3) or "", int(m.group(4) or 0)
    digits = (whole + frac).lstrip("0")
    exp -= len(frac)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    if not stripped:
        return (False, "", 0)
    return (neg, stripped, exp)


def scalar_eq(ty, a, b):
    if ty == "integer":
        x, y = norm_integer(a), norm_integer(b)
        return x is not None and x == y
    if ty == "decimal":
        x, y = norm_decimal(a), norm_decimal(b)
        return x is not None and x == y
    if ty == "bytes":
        return (len(a) == len(b) and re.fullmatch(r"[0-9a-fA-F]*", a) is not None
                and a.lower() == b.lower())
    if ty == "timestamp":
        return a.replace("_", "") == b.replace("_", "")
    return a == b


def same(expected, got, at="$"):
    if isinstance(expected, list):
        if not isinstance(got, list):
            raise Mismatch("%s: expected %s, got %s" % (at, short(expected), short(got)))
        if len(expected) != len(got):
            raise Mismatch("%s: expected a list of %d items, got %d" % (at, len(expected), len(got)))
        for i, (e, g) in enumerate(zip(expected, got)):
            same(e, g, "%s[%d]" % (at, i))
        return
    if isinstance(expected, dict) and "key" in expected:
        if not (isinstance(got, dict) and len(got) == 2 and "key" in got and "value" in got):
            raise Mismatch('%s: expected a pair {"key", "value"}, got %s' % (at, short(got)))
        same(expected["key"], got["key"], at + ".key")
        same(expected["value"], got["value"], at + ".value")
        return
    if isinstance(expected, dict):
        et, ev = expected["type"], expected["value"]
        if not (isinstance(got, dict) and isinstance(got.get("type"), str)
                and isinstance(got.get("value"), str)):
            raise Mismatch('%s: expected {"type": "%s", "value": "..."} with string members, got %s'
                           % (at, et, short(got)))
        if len(got) != 2:
            raise Mismatch("%s: unexpected members in %s" % (at, short(got)))
        gt, gv = got["type"], got["value"]
        if et != gt:
            raise Mismatch("%s: expected type %s (%r), got type %s (%r)" % (at, et, ev, gt, gv))
        if not scalar_eq(et, ev, gv):
            raise Mismatch("%s: expected %s %r, got %r" % (at, et, ev, gv))
        return
    raise Mismatch("%s: expected %s, got %s" % (at, short(expected), short(got)))


def preview(data):
    return repr(data.decode("utf-8", "replace")[:120])


def strip_line_end(data):
    if data.endswith(b"\r\n"):
        return data[:-2]
    if data.endswith(b"\n"):
        return data[:-1]
    return data


# ---------------------------------------------------------------------------
# Judging one check
# ---------------------------------------------------------------------------

PASS, FAIL, REPORTED = "pass", "fail", "implementation-defined"


def check_value(expected, stdout):
    try:
        got = parse_json(stdout)
    except (ValueError, RecursionError) as e:
        return FAIL, "output is not JSON (%s): %s" % (e, preview(stdout))
    try:
        same(expected, got)
    except Mismatch as e:
        return FAIL, str(e)
    except RecursionError:
        return FAIL, "output nested too deeply to compare"
    return PASS, None


def judge_decode(check, o):
    expect = check["expect"]
    if expect == "accept":
        if o.exited(0):
            return check_value(check["value"], o.stdout)
        if o.exited(1):
            return FAIL, "rejected a valid document" + stderr_tail(o.stderr)
        return FAIL, "crash: " + o.describe()
    if expect == "implementation-defined":
        if o.exited(0):
            if check.get("value") is None:
                return REPORTED, "accepted"
            status, why = check_value(check["value"], o.stdout)
            return REPORTED, "accepted" if status == PASS else "accepted, wrong value: " + why
        if o.exited(1):
            return REPORTED, "rejected"
        return FAIL, ("crash on an implementation-defined case (accepting or rejecting are both "
                      "fine): " + o.describe())
    return judge_refusal(o, "accepted an invalid document: ")


def judge_convert(check, o):
    """An encoder or a JSON-to-JTOO converter: canonical JTOO or a refusal."""
    if check["expect"] == "accept":
        if o.exited(0):
            want = check["output"].encode("utf-8")
            if strip_line_end(o.stdout) == want:
                return PASS, None
            return FAIL, "expected %s, got %s" % (preview(want), preview(o.stdout))
        if o.exited(1):
            what = {"from-json": "JSON", "jte-packet": "packet"}.get(check["kind"], "tagged JSON")
            return FAIL, "refused valid %s%s" % (what, stderr_tail(o.stderr))
        return FAIL, "crash: " + o.describe()
    return judge_refusal(o, "converted input that has no JTOO form: ")


def judge_refusal(o, accepted):
    """Input that must be refused: exit 1 passes; exit 0 fails with
    `accepted` and a preview of stdout; anything else is a crash."""
    if o.exited(1):
        return PASS, None
    if o.exited(0):
        return FAIL, accepted + preview(o.stdout)
    return FAIL, "crash: " + o.describe()


def judge_frame(check, o):
    if not (o.exited(0) or o.exited(1)):
        return FAIL, "crash: " + o.describe()
    want_code = 0 if check["expect"] == "accept" else 1
    if o.code != want_code:
        if want_code == 0:
            return FAIL, "rejected a valid frame stream" + stderr_tail(o.stderr)
        return FAIL, "accepted an invalid frame stream: " + preview(o.stdout)
    have = []
    for line in o.stdout.decode("utf-8", "replace").splitlines():
        if line.strip():
            try:
                have.append(json.loads(line))
            except ValueError as e:
                return FAIL, "bad JSON line %r: %s" % (line, e)
    want = check["lines"]
    if len(want) != len(have):
        return FAIL, "expected %d frame lines, got %d: %s" % (len(want), len(have), preview(o.stdout))
    for i, (w, h) in enumerate(zip(want, have)):
        ok = (isinstance(h, dict) and len(h) == 2 and h.get("jtoo", 0) == w["jtoo"]
              and isinstance(h.get("binary"), str) and h["binary"].lower() == w["binary"].lower())
        if not ok:
            return FAIL, "frame %d: expected %s, got %s" % (i, short(w), short(h))
    return PASS, None


def judge_greeting(check, o, reply_505):
    if o.exited(0) and not o.stdout:
        got = "accept"
    elif o.exited(1) and not o.stdout:
        got = "terminate"
    elif o.exited(1) and o.stdout == reply_505:
        got = "reply-505"
    elif o.exited(0) or o.exited(1):
        return FAIL, "exit %d with an unexpected reply %s" % (o.code, preview(o.stdout))
    else:
        return FAIL, "crash: " + o.describe()
    if got == check["expect"]:
        return PASS, None
    return FAIL, "expected %s, got %s" % (check["expect"], got)


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


def matches(pattern, cid):
    return cid.startswith(pattern[:-1]) if pattern.endswith("*") else pattern == cid


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [l.split("#", 1)[0].strip() for l in f if l.split("#", 1)[0].strip()]


def plan(manifest, args):
    """The checks to run: (check, command, kind)."""
    chosen = []
    for check in manifest["checks"]:
        kind = check["kind"]
        if kind == "decoder" and args.decoder and not args.htoo:
            cmd = args.decoder
        elif kind == "htoo" and args.decoder and args.htoo:
            cmd = args.decoder
        elif kind == "encoder" and args.encoder:
            cmd = args.encoder
        elif kind == "frame" and args.frame_decoder:
            cmd = args.frame_decoder
        elif kind == "greeting" and args.greeting_checker:
            cmd = args.greeting_checker
        elif kind == "from-json" and args.from_json:
            cmd = args.from_json
        elif kind == "jte-packet" and args.jte_packet:
            cmd = args.jte_packet
        else:
            continue
        if args.only and not any(check["id"].startswith(p) for p in args.only):
            continue
        chosen.append((check, cmd))
    return chosen


def run_check(check, cmd, base, manifest, args, skips):
    with open(os.path.join(base, check["input"]), "rb") as f:
        data = f.read()
    kind = check["kind"]
    if kind == "greeting":
        protocols = manifest["greeting_protocols"]
        env = {"JTOO_TEST_CASE": check["id"],
               "JTOO_SUPPORTED_PROTOCOLS": "\n".join(protocols),
               "JTOO_PROTOCOLS_FILE": os.path.join(base, "greeting", "PROTOCOLS")}
    else:
        syntax = {"decoder": "jtoo", "htoo": "htoo", "encoder": "tagged", "frame": "frame",
                  "from-json": "json", "jte-packet": "jte"}[kind]
        env = {"JTOO_TEST_CASE": check["id"], "JTOO_TEST_SYNTAX": syntax}
    o = run(cmd, data, args.timeout, env)
    if kind in ("decoder", "htoo"):
        status, detail = judge_decode(check, o)
    elif kind in ("encoder", "from-json", "jte-packet"):
        status, detail = judge_convert(check, o)
    elif kind == "frame":
        status, detail = judge_frame(check, o)
    else:
        status, detail = judge_greeting(check, o, manifest["reply_505"].encode("utf-8"))
    if status != REPORTED and any(matches(p, check["id"]) for p in skips):
        status, detail = ("stale", "in the skip list but passes") if status == PASS else ("skip", detail)
    return {"id": check["id"], "status": status, "detail": detail}


def find_manifest(args):
    if args.manifest:
        return args.manifest
    cases = args.cases or DEFAULT_CASES
    revs = sorted(d for d in os.listdir(cases) if os.path.isdir(os.path.join(cases, d)))
    if args.rev:
        revs = [args.rev]
    if not revs:
        raise SystemExit("no revisions under " + cases)
    return os.path.join(cases, revs[-1], "manifest.json")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decoder", metavar="CMD")
    p.add_argument("--htoo", action="store_true")
    p.add_argument("--encoder", metavar="CMD")
    p.add_argument("--frame-decoder", metavar="CMD")
    p.add_argument("--greeting-checker", metavar="CMD")
    p.add_argument("--from-json", metavar="CMD")
    p.add_argument("--jte-packet", metavar="CMD")
    p.add_argument("--skip", metavar="FILE", action="append", default=[])
    p.add_argument("--only", metavar="PREFIX", action="append", default=[])
    p.add_argument("--manifest", metavar="FILE", help="manifest.json (default: the newest revision's)")
    p.add_argument("--cases", metavar="DIR")
    p.add_argument("--rev", metavar="REV")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECS")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--fail-on-stale", action="store_true")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if not (args.decoder or args.encoder or args.frame_decoder or args.greeting_checker
            or args.from_json or args.jte_packet):
        print("jtoo_spec_tests: nothing to run: give --decoder, --encoder, --frame-decoder, "
              "--greeting-checker, --from-json or --jte-packet", file=sys.stderr)
        return 2
    if not args.timeout > 0:
        print("jtoo_spec_tests: --timeout must be a positive number of seconds", file=sys.stderr)
        return 2
    try:
        path = find_manifest(args)
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
        skips = [e for s in args.skip for e in read_list(s)]
    except (OSError, ValueError, SystemExit) as e:
        print("jtoo_spec_tests: %s" % e, file=sys.stderr)
        return 2
    if manifest.get("format") != MANIFEST_FORMAT:
        print("jtoo_spec_tests: %s is not a %s manifest" % (path, MANIFEST_FORMAT), file=sys.stderr)
        return 2
    base = os.path.dirname(os.path.abspath(path))
    chosen = plan(manifest, args)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        results = list(pool.map(lambda c: run_check(c[0], c[1], base, manifest, args, skips), chosen))
    except KeyboardInterrupt:
        # Leave nothing running: the commands' groups get no SIGINT.
        kill_live()
        print("jtoo_spec_tests: interrupted", file=sys.stderr)
        os._exit(130)
    pool.shutdown()
    results.sort(key=lambda r: r["id"])
    count = {s: sum(1 for r in results if r["status"] == s)
             for s in (PASS, FAIL, "skip", "stale", REPORTED)}
    ids = [r["id"] for r in results]
    unused = [s for s in skips if not any(matches(s, i) for i in ids)]
    passed = count[PASS] + count["stale"]
    line = "%d passed, %d failed, %d skipped" % (passed, count[FAIL], count["skip"])
    if args.json:
        items = []
        for r in results:
            item = {"id": r["id"], "status": r["status"]}
            if r["detail"] is not None:
                item["detail"] = r["detail"]
            items.append(item)
        print(json.dumps({"revision": manifest["revision"], "passed": passed, "failed": count[FAIL],
                          "skipped": count["skip"], "stale": count["stale"],
                          "implementation_defined": count[REPORTED], "unused_skips": unused,
                          "results": items}, indent=2, ensure_ascii=False))
    else:
        print("spec revision " + manifest["revision"])
        reported = []
        for r in results:
            s, d = r["status"], r["detail"]
            if s == PASS and args.verbose:
                print("PASS  " + r["id"])
            elif s == FAIL:
                print("FAIL  %s\n      %s" % (r["id"], d))
            elif s == "skip" and args.verbose:
                print("SKIP  %s\n      %s" % (r["id"], d))
            elif s == "stale":
                print("STALE %s\n      in the skip list but passes: remove it" % r["id"])
            elif s == REPORTED:
                reported.append("      %s: %s" % (r["id"], d))
        if reported:
            print("implementation-defined (not counted):")
            print("\n".join(reported))
        for u in unused:
            print("note: skip entry %r matches no check" % u)
        if count["stale"]:
            print("%d stale skips" % count["stale"])
        print(line)
    return 1 if count[FAIL] or (args.fail_on_stale and count["stale"]) else 0


if __name__ == "__main__":
    sys.exit(main())
