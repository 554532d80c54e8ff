// Random minarism and kropki boards made with pzprjs's own board model and URL encoder (the `pzpr` npm package),
// so that latin's decoder meets URLs it did not write. Arguments: a seed and a count. For each count, a random
// Latin square of order 3 to 8 (rows, columns and symbols of the cyclic square shuffled); a minarism whose
// borders carry, at random, the true sign, the true difference, an empty circle or nothing; and a kropki with
// every dot the square has (white for a difference of 1, black for a double, either for 1 and 2). One JSON
// object a line: `{"url", "solution"}`, the square being a solution (not always the only one). Used by
// tests/puzzlink.rs.
const pzpr = require(process.env.PZPR_MODULE || 'pzpr');
let seed = +process.argv[2] || 1;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const shuffle = (a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const order = (n) => shuffle([...Array(n).keys()]);
for (let k = 0; k < +process.argv[3]; k++) {
  const n = 3 + Math.floor(rnd() * 6);
  const [rows, cols, sym] = [order(n), order(n), order(n)];
  const square = rows.map((r) => cols.map((c) => sym[(r + c) % n] + 1));
  for (const pid of ['minarism', 'kropki']) {
    const p = new pzpr.Puzzle().open(pid + '/' + n + '/' + n);
    const borders = p.board.border;
    for (let i = 0; i < borders.length; i++) {
      const e = borders[i];
      const at = (cell) => square[(cell.by - 1) / 2][(cell.bx - 1) / 2];
      const [u, v] = [at(e.sidecell[0]), at(e.sidecell[1])];
      if (pid === 'minarism') {
        const x = rnd();
        if (x < 0.3) e.qdir = u < v ? (e.isHorz() ? e.UP : e.LT) : e.isHorz() ? e.DN : e.RT;
        else if (x < 0.5) e.qnum = Math.abs(u - v);
        else if (x < 0.55) e.qnum = -2;
      } else {
        const white = Math.abs(u - v) === 1;
        const black = u === 2 * v || v === 2 * u;
        if (white && black) e.qnum = rnd() < 0.5 ? 1 : 2;
        else if (white) e.qnum = 1;
        else if (black) e.qnum = 2;
      }
    }
    console.log(JSON.stringify({ url: p.getURL(), solution: square }));
  }
}
