#!/usr/bin/env python3
"""Tests of the Python runner's own machinery (run by .ci/run):

    python3 -m unittest discover -s spec-tests/runners -p 'test_*.py'
"""

import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jtoo_spec_tests as r  # noqa: E402


def gone(pid):
    """Whether process `pid` has stopped running (a zombie counts as gone);
    polls for up to ten seconds, since its new parent reaps it."""
    for _ in range(200):
        try:
            with open("/proc/%s/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            if state == "Z":
                return True
        except OSError:
            try:
                os.kill(int(pid), 0)
            except OSError:
                return True
        time.sleep(0.05)
    return False


@unittest.skipUnless(os.name == "posix", "process groups are a POSIX feature")
class Processes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def pid(self, name):
        with open(os.path.join(self.dir, name)) as f:
            pid = f.read().strip()
        self.assertTrue(pid.isdigit(), pid)
        return pid

    def test_a_timeout_kills_the_forked_child_too(self):
        pidfile = os.path.join(self.dir, "timeout.pid")
        o = r.run("sleep 1000 & echo $! > '%s'; wait" % pidfile, b"", 0.5, {})
        self.assertEqual(o.kind, "timeout")
        pid = self.pid("timeout.pid")
        self.assertTrue(gone(pid), "the forked child %s outlived the timeout" % pid)

    def test_a_background_child_holding_stdout_is_killed_at_exit(self):
        pidfile = os.path.join(self.dir, "background.pid")
        o = r.run("sleep 1000 & echo $! > '%s'; echo out; exit 1" % pidfile, b"", 30, {})
        self.assertEqual((o.kind, o.code, o.stdout), ("exit", 1, b"out\n"))
        pid = self.pid("background.pid")
        self.assertTrue(gone(pid), "the background child %s outlived the run" % pid)

    def test_exit_codes_signals_and_unread_input(self):
        o = r.run("cat; exit 3", b"abc", 10, {})
        self.assertEqual((o.kind, o.code, o.stdout), ("exit", 3, b"abc"))
        self.assertEqual(r.run("exit 1", b"x" * (1 << 20), 10, {}).code, 1)
        self.assertEqual(r.run("kill -9 $$", b"", 10, {}).kind, "signal")


class Comparing(unittest.TestCase):
    def test_numbers_compare_by_value(self):
        self.assertTrue(r.scalar_eq("integer", "7", "007"))
        self.assertTrue(r.scalar_eq("integer", "0", "-0"))
        self.assertFalse(r.scalar_eq("integer", "1000", "1_000"))
        self.assertFalse(r.scalar_eq("integer", "1", "-1"))
        self.assertTrue(r.scalar_eq("decimal", "1.5", "1.50"))
        self.assertTrue(r.scalar_eq("decimal", "1.5", "15e-1"))
        self.assertTrue(r.scalar_eq("decimal", "1000.0", "1000"))
        self.assertTrue(r.scalar_eq("decimal", "0.0", "-0.000"))
        self.assertFalse(r.scalar_eq("decimal", "0.0001", "0.001"))
        self.assertFalse(r.scalar_eq("decimal", "1.5", "x"))

    def test_text_types(self):
        self.assertTrue(r.scalar_eq("bytes", "4f4b", "4F4B"))
        self.assertFalse(r.scalar_eq("bytes", "4f4b", "4f4c"))
        self.assertTrue(r.scalar_eq("timestamp", "S1_709_528_240.001", "S1709528240.001"))
        self.assertFalse(r.scalar_eq("timestamp", "S1.500", "S1.5"))
        self.assertFalse(r.scalar_eq("datetime", "T10:20:30", "T10:20:30.000"))
        self.assertFalse(r.scalar_eq("string", "a", "A"))

    def test_structures(self):
        e = [{"key": {"type": "string", "value": "a"}, "value": {"type": "integer", "value": "1"}}]
        g = [{"value": {"value": "01", "type": "integer"}, "key": {"type": "string", "value": "a"}}]
        r.same(e, g)
        with self.assertRaises(r.Mismatch):
            r.same(e, [{"type": "string", "value": "a"}])
        with self.assertRaises(r.Mismatch):
            r.same([], [[]])
        with self.assertRaisesRegex(r.Mismatch, "expected type integer"):
            r.same({"type": "integer", "value": "1"}, {"type": "decimal", "value": "1"})

    def test_deep_output_is_refused_not_a_crash(self):
        with self.assertRaises(ValueError):
            r.parse_json(b"[" * 2000 + b"]" * 2000)
        status, _ = r.check_value([], b"[" * 2000 + b"]" * 2000)
        self.assertEqual(status, r.FAIL)

    def test_line_ends(self):
        self.assertEqual(r.strip_line_end(b"[]\r\n"), b"[]")
        self.assertEqual(r.strip_line_end(b"[]\n\n"), b"[]\n")


if __name__ == "__main__":
    unittest.main()
