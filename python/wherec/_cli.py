"""_cli.py: the `wherec` command of the Python package: runs the wherec executable the
wheel installs in the package (wherec/bin/wherec), with the same arguments and status."""
import os
import sys

from ._paths import executable


def main() -> None:
    exe = executable()
    try:
        os.execv(exe, [exe] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write(f"wherec: cannot run {exe}: {e}\n")
        sys.exit(4)


if __name__ == "__main__":
    main()
