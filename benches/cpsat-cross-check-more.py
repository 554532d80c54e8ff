#!/usr/bin/env python3
"""latin's generator against CP-SAT for the types ../shared/peers/cpsat.py does not model: between lines, extra
regions, minarism, kropki on a Latin square, kropki with all black or all white dots given, killer cages with
repeats, with products, or with both diagonals, sumdoku, 10 lines, distinct arrows, consecutive Sudoku, plain Latin
squares, region-sum, zipper, entropic, modular and parity lines, double
arrows, frame sums, Outside Sudoku, Mathrax, Battlefield, Rossini, Fortress, x-sums, skyscrapers on a Sudoku, quadruples, greater-than Sudoku,
clones, slow thermometers, numbered rooms, Dutch whispers, nabner lines, indexers, lockout lines, kropki dots and
XV marks not all given, killer cages where drawn, arrows with pills, and types made of types
(`jigsaw+slow-thermo`: every part's rules at once). Each model here is written from the rules as setters state
them, not from latin's primitives. Puzzles made by `latin generate` (unique by latin's own count) are written as
corpus records by `latin convert --to record`; CP-SAT must find the same solution and prove that no other exists
(the solution cut off, the model infeasible).

    python3 benches/cpsat-cross-check-more.py LATIN SEEDS [TYPE...]  # seeds 1..SEEDS of each type and size
    python3 benches/cpsat-cross-check-more.py LATIN FIRST-LAST [TYPE...]  # seeds FIRST..LAST, for fresh puzzles
    python3 benches/cpsat-cross-check-more.py LATIN FIRST-LAST TYPE:SIZES...  # at sizes of your own: arrow:12,16
    python3 benches/cpsat-cross-check-more.py LATIN --time FILE...   # CP-SAT's time on puzzle files

With `--time`, each puzzle file (e.g. from benches/out-of-sample.sh) is solved and proved unique by CP-SAT (one
worker, the model built and solved twice: the solution, which must be the file's `solution:` when it has one,
then no other), and the median, slowest and total times are printed, to set beside `latin bench` on the same
files.

Prints every disagreement and a total; exits 1 on any. Needs `pip install ortools`.
"""
import json
import statistics
import subprocess
import sys
import time

from ortools.sat.python import cp_model

TYPES = [("between", [4, 6, 8, 9]), ("extra-regions", [4, 6, 8, 9]), ("minarism", [4, 5, 6, 7, 8]),
         ("kropki-latin", [4, 5, 6, 7, 8]), ("region-sum", [4, 6, 8, 9]), ("zipper", [4, 6, 8, 9]),
         ("entropic", [6, 9]), ("modular", [6, 9]), ("parity-lines", [4, 6, 8, 9]),
         ("double-arrow", [4, 6, 9]), ("x-sums", [4, 6, 8, 9]), ("skyscraper-sudoku", [4, 6, 8, 9]),
         ("quadruple", [4, 6, 8, 9]), ("greater-than", [4, 6, 8, 9]),
         ("clone", [4, 6, 8, 9]), ("slow-thermo", [4, 6, 8, 9]),
         ("numbered-rooms", [4, 6, 8, 9]), ("dutch-whispers", [6, 9]),
         ("nabner", [6, 8, 9]),
         ("indexer", [4, 6, 8, 9]), ("lockout", [6, 8, 9]),
         ("kropki-dots", [4, 6, 8, 9]), ("xv-marks", [6, 8, 9]), ("killer-cages", [4, 6, 8, 9]),
         ("arrow", [4, 6, 8, 9]), ("frame", [4, 6, 8, 9]), ("outside", [4, 6, 8, 9]),
         ("mathrax", [4, 5, 6, 7, 8]), ("battlefield", [4, 6, 8, 9]), ("rossini", [4, 6, 8, 9]),
         ("fortress", [4, 6, 8, 9]),
         # Types made of types: each part's rules at once, boxes dropped beside a jigsaw.
         ("jigsaw+slow-thermo", [6, 9]), ("jigsaw+kropki-dots", [6, 9]), ("between+nabner", [6, 9]),
         ("clone+zipper", [6, 9]), ("kropki-dots+xv-marks", [6, 9]), ("lockout+quadruple", [6, 9]),
         ("greater-than+region-sum", [6, 9]), ("jigsaw+killer-cages", [6, 9]), ("killer-cages+thermo", [6, 9]),
         # The shipped types cpsat.py does not model either (every grammar file now has a model somewhere).
         ("arrow-distinct", [4, 6, 8, 9]), ("consecutive-sudoku", [4, 6, 8, 9]), ("killer-repeats", [4, 6, 8, 9]),
         ("killer-x", [4, 6, 8, 9]), ("kropki-all-black", [4, 6, 8, 9]), ("kropki-all-white", [4, 6, 8, 9]),
         ("product-killer", [4, 6, 8, 9]), ("ten-lines", [4, 6, 8, 9]), ("sumdoku", [4, 5, 6, 7, 8]),
         ("latin", [4, 5, 6, 7, 8])]

# Every part a type of TYPES is made of, and plain Sudoku (rows, columns, boxes and givens, which `model` always
# adds): the kinds `add_rules` knows. Any other kind would be modelled without its own rules.
MODELLED = {part for name, _ in TYPES for part in name.split("+")} | {"sudoku"}


def absolute(m, a, b, n):
    """|a - b| as a new variable."""
    d = m.NewIntVar(-n, n, "")
    m.Add(d == a - b)
    out = m.NewIntVar(0, n, "")
    m.AddAbsEquality(out, d)
    return out


def flag(m, holds, fails):
    """A Boolean that is true exactly when the linear constraint `holds` does (`fails` is its negation)."""
    b = m.NewBoolVar("")
    m.Add(holds).OnlyEnforceIf(b)
    m.Add(fails).OnlyEnforceIf(b.Not())
    return b


def kropki(m, x, p, n):
    """White dots differ by 1, black dots double; every other pair of neighbours is neither."""
    white = {tuple(q) for q in p.get("pairs", {}).get("white", [])}
    black = {tuple(q) for q in p.get("pairs", {}).get("black", [])}
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 >= n or c2 >= n:
                    continue
                u, v = x[r][c], x[r2][c2]
                one_apart = flag(m, absolute(m, u, v, n) == 1, absolute(m, u, v, n) != 1)
                doubles = [flag(m, u == 2 * v, u != 2 * v), flag(m, v == 2 * u, v != 2 * u)]
                pair = {(r, c, r2, c2), (r2, c2, r, c)}
                if pair & white:
                    m.Add(one_apart == 1)
                elif pair & black:
                    m.AddBoolOr(doubles)
                else:
                    m.Add(one_apart == 0)
                    m.AddBoolAnd([b.Not() for b in doubles])


def neighbours(n):
    """Every pair of orthogonal neighbours, each once."""
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < n and c2 < n:
                    yield r, c, r2, c2


def marked(p, key):
    """The pairs of a record's pair list, both ways round."""
    pairs = p.get("pairs", {}).get(key, []) if key in ("white", "black") else p.get(key, [])
    return {tuple(q) for q in pairs} | {(c, d, a, b) for a, b, c, d in pairs}


def lettered_cages(m, x, p, distinct, combine):
    """A region map of letters with a clue per letter (killer-x, sumdoku): each cage's digits combine to its
    clue when it has one, distinct where the type says so."""
    cages = {}
    for r, row in enumerate(p["regions"]):
        for c, g in enumerate(row):
            cages.setdefault(g, []).append(x[r][c])
    for g, cells in cages.items():
        if distinct:
            m.AddAllDifferent(cells)
        clue = p.get("clues", {}).get(g)
        if clue not in (None, ""):
            combine(cells, int(clue))


def product(m, cells, clue, n):
    """The cells' digits multiply to the clue."""
    total = m.NewIntVar(1, n ** len(cells), "")
    m.AddMultiplicationEquality(total, cells)
    m.Add(total == clue)


def model(p):
    n = p["size"]
    m = cp_model.CpModel()
    x = [[m.NewIntVar(1, n, "") for c in range(n)] for r in range(n)]
    for i in range(n):
        m.AddAllDifferent(x[i])
        m.AddAllDifferent([x[r][i] for r in range(n)])
    if "boxes" in p:
        h, w = p["boxes"]
        for br in range(0, n, h):
            for bc in range(0, n, w):
                m.AddAllDifferent([x[r][c] for r in range(br, br + h) for c in range(bc, bc + w)])
    for r, row in enumerate(p.get("givens") or []):
        for c, v in enumerate(row):
            if v:
                m.Add(x[r][c] == v)
    lines = p.get("lines", {})
    # A type made of types (`jigsaw+thermo`) has the rules of each part.
    for kind in p["type"].split("+"):
        add_rules(m, x, p, kind, lines)
    return m, x


def add_rules(m, x, p, kind, lines):
    """The constraints of one type's own clues, beyond rows, columns, boxes and givens."""
    n = p["size"]
    if kind == "jigsaw":
        groups = {}
        for r, row in enumerate(p["regions"]):
            for c, g in enumerate(row):
                groups.setdefault(g, []).append(x[r][c])
        for cells in groups.values():
            m.AddAllDifferent(cells)
    if kind == "thermo":
        for line in lines["thermos"]:
            for (r, c), (r2, c2) in zip(line, line[1:]):
                m.Add(x[r][c] < x[r2][c2])
    if kind == "killer-cages":
        # Cages where the setter drew them: digits distinct, adding up to the sum when one is shown.
        sums = p.get("line_clues", {}).get("cages", [])
        for k, cage in enumerate(lines["cages"]):
            cells = [x[r][c] for r, c in cage]
            m.AddAllDifferent(cells)
            if k < len(sums) and sums[k] is not None:
                m.Add(sum(cells) == sums[k])
    if kind in ("kropki-dots", "xv-marks"):
        # Marks where the setter placed them; nothing said of the pairs without one.
        tests = {"white": lambda a, b: [a - b == 1, b - a == 1], "black": lambda a, b: [a == 2 * b, b == 2 * a],
                 "x": lambda a, b: [a + b == 10], "v": lambda a, b: [a + b == 5]}
        for key, test in tests.items():
            for r, c, r2, c2 in p.get("pairs", {}).get(key, []):
                holds = test(x[r][c], x[r2][c2])
                if len(holds) == 1:
                    m.Add(holds[0])
                else:
                    either = [m.NewBoolVar("") for _ in holds]
                    for lit, h in zip(either, holds):
                        m.Add(h).OnlyEnforceIf(lit)
                    m.AddBoolOr(either)
    if kind == "between":
        for line in lines["between"]:
            a, b = x[line[0][0]][line[0][1]], x[line[-1][0]][line[-1][1]]
            up = m.NewBoolVar("")
            for r, c in line[1:-1]:
                m.Add(a < x[r][c]).OnlyEnforceIf(up)
                m.Add(x[r][c] < b).OnlyEnforceIf(up)
                m.Add(b < x[r][c]).OnlyEnforceIf(up.Not())
                m.Add(x[r][c] < a).OnlyEnforceIf(up.Not())
    if kind == "extra-regions":
        for line in lines["extra"]:
            m.AddAllDifferent([x[r][c] for r, c in line])
    if kind == "slow-thermo":
        # Never decreasing from the bulb.
        for line in lines["thermos"]:
            for (r1, c1), (r2, c2) in zip(line, line[1:]):
                m.Add(x[r1][c1] <= x[r2][c2])
    if kind == "clone":
        for a, b, c, d in p.get("pairs", {}).get("clones", []):
            m.Add(x[a][b] == x[c][d])
    if kind == "greater-than":
        for a, b, c, d in p.get("less", []):
            m.Add(x[a][b] < x[c][d])
    if kind == "minarism":
        for a, b, c, d in p.get("less", []):
            m.Add(x[a][b] < x[c][d])
        clues = p.get("line_clues", {}).get("differences", [])
        for line, k in zip(lines.get("differences", []), clues):
            for (r1, c1), (r2, c2) in zip(line, line[1:]):
                m.Add(absolute(m, x[r1][c1], x[r2][c2], n) == k)
    if kind == "kropki-latin":
        kropki(m, x, p, n)
    if kind == "region-sum":
        # Cut where the next cell lies in another box; every piece adds up to what the first does.
        h, w = p["boxes"]
        for line in lines["lines"]:
            pieces = [[line[0]]]
            for a, b in zip(line, line[1:]):
                if (a[0] // h, a[1] // w) == (b[0] // h, b[1] // w):
                    pieces[-1].append(b)
                else:
                    pieces.append([b])
            sums = [sum(x[r][c] for r, c in piece) for piece in pieces]
            for s in sums[1:]:
                m.Add(s == sums[0])
    if kind == "zipper":
        # Cells the same distance from the middle add up to the middle cell, or all to one total.
        for line in lines["zippers"]:
            k = len(line)
            pairs = [x[line[i][0]][line[i][1]] + x[line[k - 1 - i][0]][line[k - 1 - i][1]] for i in range(k // 2)]
            total = x[line[k // 2][0]][line[k // 2][1]] if k % 2 else pairs[0]
            for s in pairs:
                m.Add(s == total)
    if kind == "arrow":
        # Each arrow adds up to its circle, or to the number its pill's digits read left to right, top to bottom
        # (an arrow that starts in a cell of a pill leaves the whole pill); digits may repeat on an arrow.
        pills = [sorted(map(tuple, q)) for q in lines.get("pills", [])]
        for line in lines["arrows"]:
            circle = next((q for q in pills if tuple(line[0]) in q), [tuple(line[0])])
            number = sum(10 ** (len(circle) - 1 - i) * x[r][c] for i, (r, c) in enumerate(circle))
            m.Add(number == sum(x[r][c] for r, c in line[1:]))
    if kind == "arrow-distinct":
        # As an arrow, and no digit repeats along the arrow's own cells (the circle may hold one of them).
        add_rules(m, x, p, "arrow", lines)
        for line in lines["arrows"]:
            m.AddAllDifferent([x[r][c] for r, c in line[1:]])
    if kind == "consecutive-sudoku":
        # Marked neighbours differ by 1; every unmarked pair does not.
        bars = marked(p, "consecutive")
        for r, c, r2, c2 in neighbours(n):
            apart = absolute(m, x[r][c], x[r2][c2], n)
            m.Add(apart == 1 if (r, c, r2, c2) in bars else apart != 1)
    if kind in ("kropki-all-black", "kropki-all-white"):
        # Dots where placed (white: differ by 1; black: one double the other); an undotted pair is not in the
        # relation whose dots are all given. A pair with a dot of the other colour is not undotted.
        white, black = marked(p, "white"), marked(p, "black")
        for r, c, r2, c2 in neighbours(n):
            u, v = x[r][c], x[r2][c2]
            one_apart = flag(m, absolute(m, u, v, n) == 1, absolute(m, u, v, n) != 1)
            doubles = [flag(m, u == 2 * v, u != 2 * v), flag(m, v == 2 * u, v != 2 * u)]
            if (r, c, r2, c2) in white:
                m.Add(one_apart == 1)
            if (r, c, r2, c2) in black:
                m.AddBoolOr(doubles)
            if (r, c, r2, c2) not in white | black:
                if kind == "kropki-all-black":
                    m.AddBoolAnd([b.Not() for b in doubles])
                else:
                    m.Add(one_apart == 0)
    if kind in ("killer-repeats", "product-killer"):
        # Cages where drawn: a clue when shown (a sum, or a product of distinct digits).
        clues = p.get("line_clues", {}).get("cages", [])
        for k, cage in enumerate(lines["cages"]):
            cells = [x[r][c] for r, c in cage]
            if kind == "product-killer":
                m.AddAllDifferent(cells)
            if k < len(clues) and clues[k] is not None:
                if kind == "product-killer":
                    product(m, cells, clues[k], n)
                else:
                    m.Add(sum(cells) == clues[k])
    if kind == "killer-x":
        lettered_cages(m, x, p, True, lambda cells, clue: m.Add(sum(cells) == clue))
        m.AddAllDifferent([x[i][i] for i in range(n)])
        m.AddAllDifferent([x[i][n - 1 - i] for i in range(n)])
    if kind == "sumdoku":
        lettered_cages(m, x, p, False, lambda cells, clue: m.Add(sum(cells) == clue))
    if kind == "ten-lines":
        # Cut into segments in order along the line, each adding up to 10: the running total since the last
        # cut never passes 10, a cut comes exactly where it reaches 10, and the line ends on a cut.
        for line in lines["lines"]:
            running, cut = None, None
            for r, c in line:
                here = m.NewIntVar(1, 10, "")
                if running is None:
                    m.Add(here == x[r][c])
                else:
                    m.Add(here == x[r][c] + running).OnlyEnforceIf(cut.Not())
                    m.Add(here == x[r][c]).OnlyEnforceIf(cut)
                running, cut = here, flag(m, here == 10, here != 10)
            m.Add(cut == 1)
    if kind == "double-arrow":
        # The two circled ends add up to the cells between them.
        for line in lines["arrows"]:
            cells = [x[r][c] for r, c in line]
            m.Add(cells[0] + cells[-1] == sum(cells[1:-1]))
    for side, clues in p.get("xsums", {}).items():
        # The first X cells seen from that side add up to the clue, X the nearest cell's value.
        for i, clue in enumerate(clues):
            if clue is None:
                continue
            cells = seen_from(x, side, i, n)
            for k in range(1, n + 1):
                m.Add(sum(cells[:k]) == clue).OnlyEnforceIf(flag(m, cells[0] == k, cells[0] != k))
    if kind == "quadruple":
        # Each digit of a circle appears in its four cells, a digit written twice in two of them.
        for cells, digits in zip(lines["quadruples"], p["line_clues"]["quadruples"]):
            for d in set(digits):
                has = [flag(m, x[r][c] == d, x[r][c] != d) for r, c in cells]
                m.Add(sum(has) >= digits.count(d))
    if kind == "numbered-rooms":
        # The X-th cell seen from that side holds the clue, X the nearest cell's value (0: no clue).
        for side, clues in p.get("sky", {}).items():
            for i, clue in enumerate(clues):
                if not clue:
                    continue
                cells = seen_from(x, side, i, n)
                for k in range(1, n + 1):
                    m.Add(cells[k - 1] == clue).OnlyEnforceIf(flag(m, cells[0] == k, cells[0] != k))
    if kind == "dutch-whispers":
        # Neighbours on a line differ by at least 4.
        for line in lines["whispers"]:
            for (r1, c1), (r2, c2) in zip(line, line[1:]):
                m.Add(absolute(m, x[r1][c1], x[r2][c2], n) >= 4)
    if kind == "indexer":
        # A cell holding k points at the k-th cell of its column (row indexer), of its row (column indexer) or
        # of its box in reading order (box indexer), which holds the pointing cell's own row, column or place.
        h, w = p["boxes"]
        for key in ("row-indexers", "column-indexers", "box-indexers"):
            for group in lines.get(key, []):
                for r, c in group:
                    top, left = r // h * h, c // w * w
                    for k in range(1, n + 1):
                        if key == "row-indexers":
                            (tr, tc), want = (k - 1, c), r + 1
                        elif key == "column-indexers":
                            (tr, tc), want = (r, k - 1), c + 1
                        else:
                            (tr, tc) = (top + (k - 1) // w, left + (k - 1) % w)
                            want = (r - top) * w + (c - left) + 1
                        m.Add(x[tr][tc] == want).OnlyEnforceIf(flag(m, x[r][c] == k, x[r][c] != k))
    if kind == "lockout":
        # The two ends at least 4 apart; every cell between them outside the ends' range, equal to neither.
        for line in lines["lockouts"]:
            (ra, ca), (rb, cb) = line[0], line[-1]
            a, b = x[ra][ca], x[rb][cb]
            m.Add(absolute(m, a, b, n) >= 4)
            lo, hi = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
            m.AddMinEquality(lo, [a, b])
            m.AddMaxEquality(hi, [a, b])
            for r, c in line[1:-1]:
                below = m.NewBoolVar("")
                m.Add(x[r][c] < lo).OnlyEnforceIf(below)
                m.Add(x[r][c] > hi).OnlyEnforceIf(below.Not())
    if kind == "nabner":
        # No two cells of a line the same or consecutive, wherever they stand on it.
        for line in lines["nabner"]:
            for i, (r1, c1) in enumerate(line):
                for r2, c2 in line[i + 1:]:
                    m.Add(absolute(m, x[r1][c1], x[r2][c2], n) >= 2)
    if kind == "frame":
        # A clue outside is the sum of the first three digits seen from its side.
        for side, clues in p.get("edges", {}).items():
            for i, clue in enumerate(clues):
                if clue is not None:
                    m.Add(sum(seen_from(x, side, i, n)[:3]) == clue)
    if kind == "outside":
        # Every digit of a clue outside is among the first three digits seen from its side.
        for side, clues in p.get("edges", {}).items():
            for i, clue in enumerate(clues):
                for d in clue or []:
                    first = seen_from(x, side, i, n)[:3]
                    m.AddBoolOr([flag(m, v == d, v != d) for v in first])
    if kind == "fortress":
        # A digit in a grey cell (G in the record's marks grid) is greater than each white cell beside it.
        grey = [[t == "G" for t in row] for row in p["parity"]]
        for r in range(n):
            for c in range(n):
                for r2, c2 in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if grey[r][c] and 0 <= r2 < n and 0 <= c2 < n and not grey[r2][c2]:
                        m.Add(x[r][c] > x[r2][c2])
    if kind == "battlefield":
        # Two armies march in, one from each end, as many cells as the digit each starts on: a clue is the sum
        # of the cells both reach where they overlap, else of the cells neither reaches.
        for side, clues in p.get("battlefield", {}).items():
            for i, clue in enumerate(clues):
                if clue is None:
                    continue
                cells = seen_from(x, side, i, n)
                for a in range(1, n + 1):
                    for b in range(1, n + 1):
                        mine = [k for k in range(n) if k < a]
                        theirs = [k for k in range(n) if k >= n - b]
                        both = [k for k in mine if k in theirs]
                        counted = both if both else [k for k in range(n) if k not in mine and k not in theirs]
                        ends = [flag(m, cells[0] == a, cells[0] != a), flag(m, cells[-1] == b, cells[-1] != b)]
                        m.Add(sum(cells[k] for k in counted) == clue).OnlyEnforceIf(ends)
    if kind == "rossini":
        # An arrow says the three digits nearest it increase toward where it points; all arrows are given, so
        # where a side has none (a side left out of the record has none at all) the three are in neither order.
        toward_grid = {"top": "v", "bottom": "^", "left": ">", "right": "<"}
        for side, arrow_in in toward_grid.items():
            arrows = p.get("rossini", {}).get(side) or [None] * n
            for i, arrow in enumerate(arrows):
                a, b, c = seen_from(x, side, i, n)[:3]
                if arrow == arrow_in:
                    m.Add(a < b)
                    m.Add(b < c)
                elif arrow is not None:
                    m.Add(a > b)
                    m.Add(b > c)
                else:
                    m.AddBoolOr([flag(m, a >= b, a < b), flag(m, b >= c, b < c)])
                    m.AddBoolOr([flag(m, a <= b, a > b), flag(m, b <= c, b > c)])
    if kind == "mathrax":
        # A clue where four cells meet holds for both diagonal pairs around it; E and O make all four even or
        # odd.
        for key in ("points", "circles"):
            for cells, clue in zip(lines.get(key, []), p.get("line_clues", {}).get(key, [])):
                (a, b, c, d) = [x[r][col] for r, col in cells]
                if clue in ("E", "O"):
                    for v in (a, b, c, d):
                        half = m.NewIntVar(0, n, "")
                        m.Add(v == 2 * half + (clue == "O"))
                    continue
                k, op = int(clue[:-1]), clue[-1]
                for u, v in ((a, d), (b, c)):
                    if op == "+":
                        m.Add(u + v == k)
                    elif op == "-":
                        m.Add(absolute(m, u, v, n) == k)
                    elif op in "x*":
                        m.AddMultiplicationEquality(k, [u, v])
                    else:
                        up = m.NewBoolVar("")
                        m.Add(u == k * v).OnlyEnforceIf(up)
                        m.Add(v == k * u).OnlyEnforceIf(up.Not())
    if kind == "skyscraper-sudoku":
        # A cell is seen when it is taller than every cell before it; the clue counts them (0: no clue).
        for side, clues in p.get("sky", {}).items():
            for i, clue in enumerate(clues):
                if not clue:
                    continue
                cells = seen_from(x, side, i, n)
                seen = []
                for j in range(len(cells)):
                    b = m.NewBoolVar("")
                    for before in cells[:j]:
                        m.Add(cells[j] > before).OnlyEnforceIf(b)
                    if j:
                        taller = m.NewIntVar(1, n, "")
                        m.AddMaxEquality(taller, cells[:j])
                        m.Add(cells[j] < taller).OnlyEnforceIf(b.Not())
                    else:
                        m.Add(b == 1)
                    seen.append(b)
                m.Add(sum(seen) == clue)
    # Every window of three cells along a line: one low, middle and high digit (entropic), one digit of each
    # remainder mod 3 (modular); parity lines: neighbours of different parity.
    for key, window in (("entropic", 3), ("modular", 3), ("parity", 2)):
        if kind not in (key, key + "-lines"):
            continue
        for line in lines[key]:
            classes = []
            for r, c in line:
                y = m.NewIntVar(0, n, "")
                shifted = m.NewIntVar(0, n, "")
                m.Add(shifted == x[r][c] - 1)
                if key == "entropic":
                    # Low, middle and high: the grid's values in three equal runs (1-2, 3-4, 5-6 on a 6x6).
                    m.AddDivisionEquality(y, shifted, n // 3)
                elif key == "modular":
                    m.AddModuloEquality(y, x[r][c], 3)
                else:
                    m.AddModuloEquality(y, x[r][c], 2)
                classes.append(y)
            for i in range(max(1, len(classes) - window + 1)):
                m.AddAllDifferent(classes[i:i + window])


def seen_from(x, side, i, n):
    """Row or column i as seen from a side, nearest cell first."""
    if side == "top":
        return [x[r][i] for r in range(n)]
    if side == "bottom":
        return [x[r][i] for r in reversed(range(n))]
    if side == "left":
        return list(x[i])
    return list(reversed(x[i]))


def check(latin, kind, n, seed):
    """None when CP-SAT agrees, else what went wrong; 'not made' when latin made no puzzle."""
    gen = subprocess.run([latin, "generate", kind, "--size", str(n), "--seed", str(seed), "--format", "yaml",
                          "--time-limit", "20"], capture_output=True, text=True)
    if gen.returncode:
        return "not made"
    p = json.loads(subprocess.run([latin, "convert", "-", "--to", "record"], input=gen.stdout,
                                  capture_output=True, text=True, check=True).stdout)
    m, x = model(p)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "no solution"
    found = [[solver.Value(v) for v in row] for row in x]
    if found != p["solution"]:
        return "another solution"
    differs = [flag(m, x[r][c] != found[r][c], x[r][c] == found[r][c]) for r in range(n) for c in range(n)]
    m.AddBoolOr(differs)
    return None if solver.Solve(m) == cp_model.INFEASIBLE else "not unique"


def timed(latin, files):
    """CP-SAT's time to solve each puzzle file and prove it unique, in milliseconds."""
    times = []
    for f in files:
        p = json.loads(subprocess.run([latin, "convert", f, "--to", "record"], capture_output=True, text=True,
                                      check=True).stdout)
        unknown = [kind for kind in p["type"].split("+") if kind not in MODELLED]
        if unknown:
            sys.exit(f"{f}: this script has no model of {', '.join(unknown)}; for the types of the corpus, "
                     "`latin convert FILE --to record` and time the records with benches/cpsat-unique.py")
        start = time.perf_counter()
        m, x = model(p)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            sys.exit(f"{f}: CP-SAT finds no solution")
        n = p["size"]
        found = [[solver.Value(v) for v in row] for row in x]
        if "solution" in p and found != p["solution"]:
            sys.exit(f"{f}: CP-SAT's solution is not the file's")
        m.AddBoolOr([flag(m, x[r][c] != found[r][c], x[r][c] == found[r][c]) for r in range(n) for c in range(n)])
        if solver.Solve(m) != cp_model.INFEASIBLE:
            sys.exit(f"{f}: CP-SAT finds another solution")
        times.append((time.perf_counter() - start) * 1000)
        print(f"{f}: {times[-1]:.1f} ms")
    print(f"{len(times)} puzzles, median {statistics.median(times):.1f} ms, slowest {max(times):.1f} ms, "
          f"total {sum(times) / 1000:.2f} s")


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--time":
        return timed(sys.argv[1], sys.argv[3:])
    latin, seeds, only = sys.argv[1], sys.argv[2], sys.argv[3:]
    first, _, last = seeds.rpartition("-")
    seeds = range(int(first or 1), int(last) + 1)
    # TYPE:SIZES (`arrow:12,16`) checks a type at sizes of its own instead of the table's.
    asked = {a.split(":")[0]: [int(n) for n in a.split(":")[1].split(",")] if ":" in a else None for a in only}
    unknown = [kind for kind in asked if kind not in dict(TYPES)]
    if unknown:
        sys.exit(f"no model of {', '.join(unknown)} here; the corpus types are benches/cpsat-cross-check.py's")
    made = bad = 0
    for kind, sizes in TYPES:
        if asked and kind not in asked:
            continue
        for n in asked.get(kind) or sizes:
            for seed in seeds:
                wrong = check(latin, kind, n, seed)
                if wrong != "not made":
                    made += 1
                if wrong:
                    print(kind, n, seed, wrong)
                    bad += wrong != "not made"
    print(made, "made", bad, "bad")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
