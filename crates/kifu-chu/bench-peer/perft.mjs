// Perft with shogiops (lishogi's rules), counted as lishogi enumerates moves: every single move
// with each promotion choice, plus every lion-type route (from, mid, to).
// Usage: node perft.mjs [depth] [sfen]
import { parseSfen, initialSfen } from 'shogiops/sfen';
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

function perft(pos, depth) {
  const moves = legalMoves(pos);
  if (depth <= 1) return moves.length;
  let nodes = 0;
  for (const m of moves) {
    const child = pos.clone();
    child.play(m);
    nodes += perft(child, depth - 1);
  }
  return nodes;
}

const depth = Number(process.argv[2] ?? 3);
const sfen = process.argv.slice(3).join(' ') || initialSfen('chushogi');
const pos = parseSfen('chushogi', sfen).unwrap();
// Best of two runs, so the JIT has warmed up for the second.
let nodes = 0;
let s = Infinity;
for (let i = 0; i < 2; i++) {
  const t0 = performance.now();
  nodes = perft(pos, depth);
  s = Math.min(s, (performance.now() - t0) / 1000);
}
console.log(`shogiops perft(${depth}) = ${nodes} in ${s.toFixed(3)}s (${(nodes / s / 1e6).toFixed(4)} Mnodes/s)`);
