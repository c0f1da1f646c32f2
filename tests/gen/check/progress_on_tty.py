"""progress_on_tty.py: `wherec check` shows kernels done out of total on stderr when stderr
is a terminal, and prints nothing extra when it is not.

Runs `wherec check SPEC ARGS...` three times with stdout a pipe:
  1. stderr a pipe: stderr must be empty (no progress, no escape sequence);
  2. stderr a pseudo-terminal (pty): every "wherec check: i/N kernels (checking NAME)" for
     i = 0..N-1 in kernel order, a "compiling" line first, and the line erased at the end;
     stdout byte for byte the same as in 1 (the table is unchanged);
  3. stderr a pseudo-terminal with TERM=dumb: nothing, as in 1.
usage: python3 progress_on_tty.py WHEREC SPEC [check args...]; exit 77 (skip) without a pty."""
import os
import pty
import re
import subprocess
import sys
import threading


def run(cmd, tty, env=None):
    """(status, stdout, stderr) of cmd with stdout a pipe and stderr a pipe or a pty."""
    if not tty:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        return r.returncode, r.stdout, r.stderr
    try:
        master, slave = pty.openpty()
    except OSError as e:
        print(f"skipped: no pseudo-terminal ({e})")
        sys.exit(77)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    chunks = []

    def drain():                        # read the pty while the command runs (its buffer is small)
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:             # EIO: every writer has closed the slave
                return
            if not b:
                return
            chunks.append(b)

    t = threading.Thread(target=drain)
    t.start()
    out = p.stdout.read()
    rc = p.wait()
    t.join(timeout=60)
    os.close(master)
    return rc, out, b"".join(chunks)


def main():
    wherec, spec, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    cmd = [wherec, "check", spec] + args
    env = dict(os.environ, TERM="xterm")
    failures = []

    rc1, out1, err1 = run(cmd, tty=False, env=env)
    if rc1 != 0:
        sys.stdout.write(out1.decode() + err1.decode())
        print(f"FAIL: wherec check exited {rc1} with stderr a pipe")
        return 1
    if err1 != b"":
        failures.append(f"stderr not a terminal: expected nothing on stderr, got {err1!r}")
    rows = out1.decode().splitlines()
    head = next(i for i, l in enumerate(rows) if l.startswith("kernel ") and "mismatches" in l)
    names = [l.split()[0] for l in rows[head + 1:] if not l.startswith("shapes outside")][:-1]
    total = int(re.match(r"(\d+) kernels", rows[-1]).group(1))
    if len(names) != total:
        failures.append(f"table has {len(names)} rows for {total} kernels")

    rc2, out2, err2 = run(cmd, tty=True, env=env)
    text = err2.decode(errors="replace")
    if rc2 != 0:
        failures.append(f"wherec check exited {rc2} with stderr a terminal")
    if out2 != out1:
        failures.append("stdout differs when stderr is a terminal:\n" + out2.decode())
    if "\rwherec check: compiling\x1b[K" not in text:
        failures.append("no 'wherec check: compiling' line on the terminal")
    shown = re.findall(r"\rwherec check: (\d+)/(\d+) kernels \(checking ([^)]*)\)\x1b\[K", text)
    want = [(str(i), str(total), n) for i, n in enumerate(names)]
    if shown != want:
        failures.append(f"progress lines: expected {want}, got {shown}")
    if not text.endswith("\r\x1b[K"):
        failures.append(f"the progress line is not erased at the end: {text[-80:]!r}")
    if "\n" in text:
        failures.append(f"a newline on the terminal's stderr: {text!r}")

    env_dumb = dict(os.environ, TERM="dumb")
    rc3, out3, err3 = run(cmd, tty=True, env=env_dumb)
    if rc3 != 0 or out3 != out1 or err3 != b"":
        failures.append(f"TERM=dumb: expected the same stdout and no stderr, got status {rc3}, "
                        f"stderr {err3!r}")

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"ok: {total} kernels; progress {len(shown)} lines on a terminal, none on a pipe")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
