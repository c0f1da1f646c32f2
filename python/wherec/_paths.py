"""_paths.py: where the package's installed tree is (the CMake install inside the package:
bin/wherec, lib/libwherec.so, include/wherec, share/wherec/templates)."""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def root() -> str:
    """The install prefix the wheel put inside the package (its bin, lib, include, share)."""
    return os.environ.get("WHEREC_PYTHON_ROOT") or _HERE


def executable() -> str:
    return os.path.join(root(), "bin", "wherec")


def include_dir() -> str:
    return os.environ.get("WHEREC_INCLUDE_DIR") or os.path.join(root(), "include")


def templates_dir() -> str:
    return os.environ.get("WHEREC_TEMPLATES") or os.path.join(root(), "share", "wherec", "templates")


def library(name: str) -> str:
    """lib<name>.so of the install tree."""
    return os.path.join(root(), "lib", f"lib{name}.so")
