// What sudoku-formats (lisudoku's converter, the `sudoku-formats` npm package) makes of puzzle links: one JSON
// object a line in, `{"read": link}` (a Penpa+ or f-puzzles link) or `{"write": link}` (an f-puzzles link);
// one a line out: for `read`, the constraints it reads, each list sorted so that two readings compare as
// JSON; for `write`, the Penpa+ link it writes of the puzzle. Used by tests/penpa.rs.
import Module, { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

// The package is CommonJS that requires lodash-es, an ES module, which node reads that way only from 20.19:
// on an older node (Debian's), lodash's CommonJS build (the same functions) stands in for it.
const dir = process.env.SUDOKU_FORMATS_MODULE;
const require = createRequire(join(dir, 'package.json'));
try {
  const lodash = require.resolve('lodash');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, request === 'lodash-es' ? lodash : request, ...rest);
  };
} catch {
  // No lodash: node reads lodash-es itself.
}
const { decodeSudoku, transformSudoku } = require(dir);

const cell = (c) => `r${c.row + 1}c${c.col + 1}`;
const cells = (l) => (l || []).map(cell);
const sorted = (l) => [...l].sort();

function canonical(c) {
  return {
    size: c.gridSize,
    givens: sorted((c.fixedNumbers || []).map((f) => `${cell(f.position)}=${f.value}`)),
    thermos: sorted((c.thermos || []).map((t) => cells(t).join(' '))),
    arrows: sorted((c.arrows || []).map((a) => `${cells(a.circleCells).join('+')}: ${cells(a.arrowCells).join(' ')}`)),
    cages: sorted((c.killerCages || []).map((k) => `${sorted(cells(k.region)).join(' ')} = ${k.sum ?? ''}`)),
    dots: sorted((c.kropkiDots || []).map((d) => `${d.dotType} ${sorted([cell(d.cell1), cell(d.cell2)]).join('-')}`)),
    odd: sorted(cells(c.oddCells)),
    even: sorted(cells(c.evenCells)),
    diagonals: [!!c.primaryDiagonal, !!c.secondaryDiagonal],
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const input = JSON.parse(line);
  const link = input.read ?? input.write;
  const decoded = await decodeSudoku(link);
  if (decoded.error) {
    console.log(JSON.stringify({ error: decoded.error }));
    continue;
  }
  const toFormat = input.read ? 'lisudoku' : 'penpa';
  const t = transformSudoku({ constraints: decoded.constraints, fromFormat: decoded.format, toFormat });
  if (t.error) {
    console.log(JSON.stringify({ error: t.error }));
  } else if (input.read) {
    console.log(JSON.stringify({ constraints: canonical(t.constraints), warning: t.warning ?? null }));
  } else {
    console.log(JSON.stringify({ url: t.url, warning: t.warning ?? null }));
  }
}
