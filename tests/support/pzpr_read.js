// What pzprjs (the `pzpr` npm package) makes of puzzle URLs: one JSON object a line in, `{"url", "solution"}`;
// one a line out, with the board pzprjs decoded (cell numbers, rooms in its order, outside clues), its own URL
// for the puzzle, and its answer check of the solution filled in. Used by tests/puzzlink.rs.
const pzpr = require(process.env.PZPR_MODULE || 'pzpr');
const list = (l) => { const r = []; for (let i = 0; i < l.length; i++) r.push(l[i]); return r; };
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter((l) => l.trim());
for (const line of lines) {
  const input = JSON.parse(line);
  const p = new pzpr.Puzzle().open(input.url);
  const b = p.board;
  const n = b.cols;
  const rooms = b.roommgr && b.roommgr.components ? list(b.roommgr.components) : [];
  const out = {
    url: p.getURL(),
    cols: b.cols,
    rows: b.rows,
    cells: list(b.cell).map((c) => c.qnum),
    rooms: rooms.map((r) => list(r.clist).map((c) => ((c.by - 1) / 2) * n + (c.bx - 1) / 2)),
    tops: rooms.map((r) => (r.top ? r.top.qnum : null)),
    excell: b.excell ? list(b.excell).map((e) => e.qnum) : [],
  };
  if (input.solution) {
    list(b.cell).forEach((c, i) => {
      if (c.qnum < 0 || p.pid === 'factors') c.anum = input.solution[Math.floor(i / n)][i % n];
    });
    const check = p.check(true);
    out.complete = check.complete;
    out.text = check.text;
  }
  console.log(JSON.stringify(out));
}
