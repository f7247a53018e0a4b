#!/usr/bin/env python3
"""Runs a command and checks its exit status.

usage: exit-status.py STATUS COMMAND [ARGS...]

Copies the command's stderr and stdout to stdout (stderr first) so FileCheck
can read both, and exits 1 unless the command exited with STATUS. A crash
(a signal) never matches.
"""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:], capture_output=True)
sys.stdout.buffer.write(proc.stderr)
sys.stdout.buffer.write(proc.stdout)
if proc.returncode != want:
    sys.stdout.write(f"exit-status.py: expected exit status {want}, got {proc.returncode}\n")
    sys.exit(1)
