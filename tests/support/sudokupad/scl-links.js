// Writes SudokuPad's own `scl` links for f-puzzles links, with SudokuPad's own converter, for the fixture
// `links.tsv` beside this file (read by `tests/sudokupad.rs`). Not run by the tests: SudokuPad's code is not
// part of latin, and CI has no network to fetch it. To regenerate, with a checkout of
// https://github.com/SudokuPad/sudokutools in DIR:
//
//   node tests/support/sudokupad/scl-links.js DIR/src < SOURCES > tests/support/sudokupad/links.tsv
//
// SOURCES has a line per puzzle: `source<TAB>expect<TAB>f-puzzles link` (`latin convert FILE --to fpuzzles`,
// or `--to sudokupad`, whose payload is the same but for slow thermometers, drawn as thermometers and a sentence);
// each output line is `source<TAB>expect<TAB>https://sudokupad.app/scl...`, the link SudokuPad makes when it
// opens the f-puzzles link (its `parseFPuzzle`, then `PuzzleZipper.zip`, then lz-string to base64). A SOURCES
// line may go on with `<TAB>key<TAB>colour<TAB>sentence`: the f-puzzles constraint `key`'s lines are redrawn as
// cosmetic lines of that colour and the sentence becomes the rules text, as setters draw whispers or renban.
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
  const [, , , key, colour, sentence] = line.split('\t');
  let payload = link.replace(/^.*(load=|fpuzzles)/, '');
  if (key) {
    const fpuzzle = JSON.parse(loader.decompressPuzzle(payload));
    const lines = fpuzzle[key].flatMap((entry) => entry.lines);
    delete fpuzzle[key];
    fpuzzle.line = lines.map((l) => ({ lines: [l], outlineC: colour, width: 0.25 }));
    fpuzzle.ruleset = `Normal sudoku rules apply. ${sentence}`;
    payload = loader.compressPuzzle(JSON.stringify(fpuzzle));
  }
  const puzzle = loader.parseFPuzzle(payload);
  const scl = loader.compressPuzzle(zipper.zip(JSON.stringify(puzzle)));
  console.log([source, expect, `https://sudokupad.app/scl${scl}`].join('\t'));
}
