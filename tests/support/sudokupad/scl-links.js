// Writes SudokuPad's own `scl` links for f-puzzles links, with SudokuPad's own converter, for the fixture
// `links.tsv` beside this file (read by `tests/sudokupad.rs`). Not run by the tests: SudokuPad's code is not
// part of latin, and CI has no network to fetch it. To regenerate, with a checkout of
// https://github.com/SudokuPad/sudokutools in DIR:
//
//   node tests/support/sudokupad/scl-links.js DIR/src < SOURCES > tests/support/sudokupad/links.tsv
//
// SOURCES has a line per puzzle: `source<TAB>expect<TAB>f-puzzles link` (`latin convert FILE --to fpuzzles`);
// each output line is `source<TAB>expect<TAB>https://sudokupad.app/scl...`, the link SudokuPad makes when it
// opens the f-puzzles link (its `parseFPuzzle`, then `PuzzleZipper.zip`, then lz-string to base64).
const fs = require('fs');
const vm = require('vm');
const path = require('path');

const dir = process.argv[2];
const context = { console };
vm.createContext(context);
for (const file of ['md5digest.js', 'puzzlezipper_lib.js', 'fpuzzlesdecoder.js']) {
  // Top-level `const`s stay local to one script; `var`s join the shared context.
  const source = fs.readFileSync(path.join(dir, file), 'utf8').replace(/^const (\w+) =/m, 'var $1 =');
  vm.runInContext(source, context);
}
const loader = vm.runInContext('loadFPuzzle', context);
const zipper = vm.runInContext('PuzzleZipper', context);
for (const line of fs.readFileSync(0, 'utf8').split('\n').filter((l) => l.trim())) {
  const [source, expect, link] = line.split('\t');
  const payload = link.replace(/^.*(load=|fpuzzles)/, '');
  const puzzle = loader.parseFPuzzle(payload);
  const scl = loader.compressPuzzle(zipper.zip(JSON.stringify(puzzle)));
  console.log([source, expect, `https://sudokupad.app/scl${scl}`].join('\t'));
}
