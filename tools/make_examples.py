#!/usr/bin/env python3
"""Makes the variant examples under puzzles/: a random solution, every clue of the type derived from it, then
givens (and, for outside clues, clues) removed in random order while `latin count` still finds one solution.

Usage: tools/make_examples.py LATIN_BINARY [seed]   (writes puzzles/<type>/<type>-<size>.yaml)
The examples are checked in the tests by an oracle written apart from the rule primitives (tests/examples.rs).
"""
import json, os, random, subprocess, sys, tempfile

LATIN = sys.argv[1]
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2026)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def solution(n, box):
    """A random Sudoku (box given) or Latin square: shuffle a pattern solution."""
    if box:
        h, w = box
        base = [[(w * (r % h) + r // h + c) % n + 1 for c in range(n)] for r in range(n)]
        bands = rng.sample(range(n // h), n // h)
        rows = [b * h + r for b in bands for r in rng.sample(range(h), h)]
        stacks = rng.sample(range(n // w), n // w)
        cols = [s * w + c for s in stacks for c in rng.sample(range(w), w)]
    else:
        base = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
        rows, cols = rng.sample(range(n), n), rng.sample(range(n), n)
    digits = rng.sample(range(1, n + 1), n)
    return [[digits[base[r][c] - 1] for c in cols] for r in rows]


def cell(r, c):
    return f'r{r + 1}c{c + 1}'


def walk(n, used, length, ok):
    """A random king-move path of `length` cells avoiding `used`, each prefix accepted by ok(path)."""
    for _ in range(2000):
        path = [(rng.randrange(n), rng.randrange(n))]
        if path[0] in used:
            continue
        while len(path) < length:
            r, c = path[-1]
            options = [(r + dr, c + dc) for dr, dc in KING
                       if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in used
                       and (r + dr, c + dc) not in path and ok(path + [(r + dr, c + dc)])]
            if not options:
                break
            path.append(rng.choice(options))
        if len(path) == length and ok(path):
            return path
    return None


def lines(n, sol, count, lengths, ok):
    used, out = set(), []
    for _ in range(count):
        p = walk(n, used, rng.choice(lengths), lambda p: ok([sol[r][c] for r, c in p], len(p)))
        if p:
            used.update(p)
            out.append(p)
    return out


def pairs(n):
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                yield (r, c, r, c + 1)
            if r + 1 < n:
                yield (r, c, r + 1, c)


def sandwich(vals, n):
    i, j = sorted((vals.index(1), vals.index(n)))
    return sum(vals[i + 1:j])


def seen_sum(vals):
    top = s = 0
    for v in vals:
        if v > top:
            top, s = v, s + v
    return s


def circle_arrows(n, sol, used):
    """Up to n arrows of 2-3 cells from one-cell circles, walked through cells not in `used` (which grows)."""
    found = []
    for _ in range(n):
        length = rng.choice([3, 4])
        p = walk(n, used, length, lambda p: sum(sol[r][c] for r, c in p[1:]) <= sol[p[0][0]][p[0][1]])
        if p and sum(sol[r][c] for r, c in p[1:]) == sol[p[0][0]][p[0][1]]:
            used.update(p)
            found.append(p)
    return found


def clues(kind, n, sol):
    """The type's sections, all clues, as YAML text pieces keyed by section (edge clues as lists)."""
    s = {}
    if kind == 'thermo':
        s['thermos'] = lines(n, sol, n, [3, 4, 5], lambda v, k: all(a < b for a, b in zip(v, v[1:])))
    elif kind == 'arrow':
        s['arrows'] = circle_arrows(n, sol, set())
    elif kind == 'pill-arrow':
        # Pills of two cells side by side, read left to right or top to bottom, each with an arrow from one of
        # its cells adding up to that number; then arrows from one-cell circles, as in `arrow`.
        used, found, pills = set(), [], []
        for _ in range(40):
            if len(pills) == 3:
                break
            r, c = rng.randrange(n), rng.randrange(n)
            dr, dc = rng.choice([(0, 1), (1, 0)])
            pill = [(r, c), (r + dr, c + dc)]
            if r + dr >= n or c + dc >= n or any(q in used for q in pill):
                continue
            number = 10 * sol[r][c] + sol[r + dr][c + dc]
            start = rng.choice(pill)
            around = used | set(pill)
            p = walk(n, around - {start}, rng.choice([3, 4, 5]),
                     lambda p: p[0] == start and sum(sol[a][b] for a, b in p[1:]) <= number)
            if p and sum(sol[a][b] for a, b in p[1:]) == number:
                used.update(pill + p)
                pills.append(pill)
                found.append(p)
        s['arrows'] = found + circle_arrows(n, sol, used)
        s['pills'] = pills
    elif kind == 'whispers':
        s['whispers'] = lines(n, sol, n, [3, 4, 5], lambda v, k: all(abs(a - b) >= 5 for a, b in zip(v, v[1:])))
    elif kind == 'renban':
        s['renban'] = lines(n, sol, n, [3, 4],
                            lambda v, k: len(set(v)) == k and max(v) - min(v) < k)
    elif kind == 'palindrome':
        def pal(v, k):
            return True if k < 3 else v == v[::-1]
        s['palindromes'] = lines(n, sol, n // 2, [3], pal)
    elif kind == 'little-killer':
        diag = []
        for _ in range(2 * n):
            r, c = rng.choice([(0, rng.randrange(1, n)), (rng.randrange(1, n), 0)])
            path = []
            while r < n and c < n:
                path.append((r, c))
                r, c = r + 1, c + 1
            if len(path) >= 2 and path not in diag:
                diag.append(path)
        s['diagonals'] = diag
    elif kind in ('kropki', 'xv'):
        a, b = ('white', 'black') if kind == 'kropki' else ('x', 'v')
        s[a], s[b] = [], []
        for r, c, r2, c2 in pairs(n):
            u, v = sol[r][c], sol[r2][c2]
            if kind == 'kropki':
                white, black = abs(u - v) == 1, max(u, v) == 2 * min(u, v)
                if white and black:
                    white, black = (True, False) if rng.random() < 0.5 else (False, True)
                tag = 'white' if white else 'black' if black else None
            else:
                tag = 'x' if u + v == 10 else 'v' if u + v == 5 else None
            if tag:
                s[tag].append([(r, c), (r2, c2)])
    elif kind == 'sandwich':
        s['top'] = [sandwich([sol[r][c] for r in range(n)], n) for c in range(n)]
        s['left'] = [sandwich(sol[r], n) for r in range(n)]
    elif kind == 'sum-skyscrapers':
        s['top'] = [seen_sum([sol[r][c] for r in range(n)]) for c in range(n)]
        s['bottom'] = [seen_sum([sol[r][c] for r in reversed(range(n))]) for c in range(n)]
        s['left'] = [seen_sum(sol[r]) for r in range(n)]
        s['right'] = [seen_sum(sol[r][::-1]) for r in range(n)]
    return s


def yaml(kind, n, box, sol, givens, sections, title):
    y = f'title: {title}\nsource: made for latin by tools/make_examples.py (random solution, clues derived, ' \
        f'givens removed while unique)\ntype: {TYPES.get(kind, kind)}\nsize: {n}\n'
    if box:
        y += f'box: {box[0]}x{box[1]}\n'
    for name, value in sections.items():
        if name in ('top', 'bottom', 'left', 'right'):
            y += f'{name}: "{" ".join("." if v is None else str(v) for v in value)}"\n'
        elif name in ('white', 'black', 'x', 'v'):
            y += f'{name}:\n' + ''.join(f'  - {cell(*a)}-{cell(*b)}\n' for a, b in value) if value else f'{name}: []\n'
        elif name == 'diagonals':
            y += f'{name}:\n' + ''.join(
                f'  - {cell(*p[0])}..{cell(*p[-1])} = {sum(sol[r][c] for r, c in p)}\n' for p in value)
        else:
            y += f'{name}:\n' + ''.join(f'  - {" ".join(cell(*q) for q in p)}\n' for p in value)
    if any(any(row) for row in givens):
        y += 'givens: |\n' + ''.join('  ' + ' '.join(str(v) if v else '.' for v in row) + '\n' for row in givens)
    y += 'solution: |\n' + ''.join('  ' + ' '.join(map(str, row)) + '\n' for row in sol)
    return y


def count(text):
    with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as f:
        f.write(text)
    out = subprocess.run([LATIN, 'count', '--format', 'json', '--max', '2', '--time-limit', '20', f.name],
                         capture_output=True, text=True)
    os.unlink(f.name)
    o = json.loads(out.stdout)
    return o['count'] if o.get('complete') else None


def make(kind, n, box, path):
    while True:
        sol = solution(n, box)
        sections = clues(kind, n, sol)
        givens = [row[:] for row in sol]
        title = TITLES.get(kind, '{kind} {n}x{n}').format(kind=kind, n=n)
        if count(yaml(kind, n, box, sol, [[0] * n for _ in range(n)], sections, title)) == 1 or \
                count(yaml(kind, n, box, sol, givens, sections, title)) == 1:
            break
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    for r, c in cells:
        keep = givens[r][c]
        givens[r][c] = 0
        if count(yaml(kind, n, box, sol, givens, sections, title)) != 1:
            givens[r][c] = keep
    for side in [k for k in ('top', 'bottom', 'left', 'right') if k in sections]:
        for i in rng.sample(range(n), n):
            keep = sections[side][i]
            sections[side][i] = None
            if count(yaml(kind, n, box, sol, givens, sections, title)) != 1:
                sections[side][i] = keep
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(yaml(kind, n, box, sol, givens, sections, title))
    print(path, flush=True)


# Makers of examples of another type's sections: pill arrows are arrows with pills.
TYPES = {'pill-arrow': 'arrow'}
TITLES = {'pill-arrow': 'arrow {n}x{n} with pills'}
SUDOKU = ['thermo', 'arrow', 'whispers', 'renban', 'palindrome', 'little-killer', 'kropki', 'xv', 'sandwich']
for kind in (sys.argv[3].split(',') if len(sys.argv) > 3 else SUDOKU + ['sum-skyscrapers']):
    if kind == 'sum-skyscrapers':
        make(kind, 5, None, f'{ROOT}/puzzles/{kind}/{kind}-5x5.yaml')
        make(kind, 6, None, f'{ROOT}/puzzles/{kind}/{kind}-6x6.yaml')
    else:
        folder = TYPES.get(kind, kind)
        make(kind, 6, (2, 3), f'{ROOT}/puzzles/{folder}/{kind}-6x6.yaml')
        make(kind, 9, (3, 3), f'{ROOT}/puzzles/{folder}/{kind}-9x9.yaml')
