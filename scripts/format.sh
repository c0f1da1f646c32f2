#!/usr/bin/env bash
# format.sh: formats gen/ and src/ with .clang-format (clang-format 14), then puts the
# continuation lines of trailing block comments back under their text (align_comments.py).
# Generated code (generated/, tests/golden/) is the templates' layout and is not touched.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'gen/*.[ch]' 'src/*.[ch]')
clang-format -i $files
python3 scripts/align_comments.py $files
