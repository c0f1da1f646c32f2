#!/usr/bin/env python3
# align_comments.py: after clang-format, lines that continue a trailing block comment
# (code /* ... on one line, ... */ on the next) are indented under its text again;
# clang-format (ReflowComments: false) moves the comment's first line but not the rest.
import re
import sys

OPEN = re.compile(r'^\s*[^\s/].*?(/\*)')


def fix(lines):
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = OPEN.match(line)
        start = m.start(1) if m else -1
        if m and line[:start].count('"') % 2 == 0 and '*/' not in line[start:]:
            col = start + 3
            i += 1
            while i < len(lines):
                text = lines[i].strip()
                out.append(' ' * col + text if text else lines[i])
                if '*/' in lines[i]:
                    break
                i += 1
        i += 1
    return out


for path in sys.argv[1:]:
    with open(path) as f:
        src = f.read().split('\n')
    new = fix(src)
    if new != src:
        with open(path, 'w') as f:
            f.write('\n'.join(new))
