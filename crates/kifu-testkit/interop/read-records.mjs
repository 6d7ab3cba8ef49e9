// Reads records with the JavaScript peers and prints what each saw, one JSON line per input.
//
// stdin: one `FORMAT<TAB>ENCODING<TAB>PATH` line per file, FORMAT one of kif kifu ki2 csa jkf,
// ENCODING shift_jis or utf-8. stdout: {"tsshogi": R, "json-kifu-format": R} per line, where
// R is {"sfen", "moves": [USI…], "ending": native name or null} or {"error": text}.
// Many files per process: starting node is most of the cost of one file.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { importKIF, importKI2, importCSA, importJKFString } from "tsshogi";
import jsonKifuFormat from "json-kifu-format";

const { JKFPlayer } = jsonKifuFormat;

function tsshogi(format, text) {
  const record =
    format === "csa"
      ? importCSA(text)
      : format === "jkf"
        ? importJKFString(text)
        : format === "ki2"
          ? importKI2(text)
          : importKIF(text);
  if (record instanceof Error) return { error: record.message };
  const moves = [];
  let ending = null;
  for (const node of record.moves) {
    const move = node.move;
    if (node.ply === 0) continue;
    if (move && typeof move.usi === "string") moves.push(move.usi);
    else if (move) ending = move.type === "any" ? `any:${move.name}` : move.type;
  }
  return { sfen: record.initialPosition.sfen, moves, ending };
}

const DROP_LETTER = { FU: "P", KY: "L", KE: "N", GI: "S", KI: "G", KA: "B", HI: "R" };
const square = (p) => `${p.x}${String.fromCharCode(96 + p.y)}`;

function jkf(format, text) {
  let player;
  try {
    player =
      format === "csa"
        ? JKFPlayer.parseCSA(text)
        : format === "ki2"
          ? JKFPlayer.parseKI2(text)
          : format === "jkf"
            ? JKFPlayer.parseJKF(text)
            : JKFPlayer.parseKIF(text);
  } catch (e) {
    return { error: String(e && e.message ? e.message : e).slice(0, 300) };
  }
  const sfen = player.shogi.toSFENString(1);
  const moves = [];
  let ending = null;
  for (const entry of player.kifu.moves.slice(1)) {
    if (entry.move) {
      const m = entry.move;
      moves.push(
        m.from ? `${square(m.from)}${square(m.to)}${m.promote ? "+" : ""}` : `${DROP_LETTER[m.piece]}*${square(m.to)}`,
      );
    } else if (entry.special) {
      ending = entry.special;
    }
  }
  return { sfen, moves, ending };
}

const guard = (f) => {
  try {
    return f();
  } catch (e) {
    return { error: `exception: ${String(e && e.message ? e.message : e).slice(0, 300)}` };
  }
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line) continue;
  const [format, encoding, path] = line.split("\t");
  const text = new TextDecoder(encoding).decode(readFileSync(path));
  process.stdout.write(
    JSON.stringify({
      tsshogi: guard(() => tsshogi(format, text)),
      "json-kifu-format": guard(() => jkf(format, text)),
    }) + "\n",
  );
}
