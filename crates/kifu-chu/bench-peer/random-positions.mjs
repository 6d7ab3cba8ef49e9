// Plays random games with shogiops and prints `sfen<TAB>legal move count<TAB>outcome` (moves
// counted as lishogi enumerates; outcome `result:winner` or `-`) for every position reached: an
// oracle for kifu-chu's move generator and game-end rules (`cargo run --example movecount`).
// Usage: node random-positions.mjs [games] [seed] > positions.tsv
import { parseSfen, initialSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const canPromote = pieceCanPromote('chushogi');
const forcePromote = pieceForcePromote('chushogi');
const lionLike = new Set(['lion', 'lionpromoted', 'falcon', 'eagle']);

function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) {
        out.push({ from, to, promotion: true });
        if (!forcePromote(piece, to)) out.push({ from, to });
      } else out.push({ from, to });
      if (lionLike.has(piece.role))
        for (const to2 of secondLionStepDests(pos, from, to)) out.push({ from, to: to2, midStep: to });
    }
  }
  return out;
}

let seed = Number(process.argv[3] ?? 1);
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const games = Number(process.argv[2] ?? 20);
for (let g = 0; g < games; g++) {
  const pos = parseSfen('chushogi', initialSfen('chushogi')).unwrap();
  for (let ply = 0; ply < 400; ply++) {
    const moves = legalMoves(pos);
    const o = pos.outcome();
    console.log(`${makeSfen(pos)}\t${moves.length}\t${o ? `${o.result}:${o.winner ?? '-'}` : '-'}`);
    if (moves.length === 0 || o) break;
    // Prefer captures so games open up and lions meet.
    const captures = moves.filter((m) => pos.board.get(m.to) || (m.midStep !== undefined && pos.board.get(m.midStep)));
    const pool = captures.length && rand() < 0.6 ? captures : moves;
    pos.play(pool[Math.floor(rand() * pool.length)]);
  }
}
