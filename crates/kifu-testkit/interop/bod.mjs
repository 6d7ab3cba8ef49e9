// tsshogi and standalone board diagrams (BOD), one JSON line in and out per request:
//   {"read": BOD text}  → {"sfen": what tsshogi's KIF reader sets up} or {"error"}
//   {"export": USI position command} → {"bod": tsshogi's exportBOD after all its moves}
import { createInterface } from "node:readline";
import { Record, importKIF, exportBOD } from "tsshogi";

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line) continue;
  const request = JSON.parse(line);
  let answer;
  if ("read" in request) {
    const record = importKIF(request.read);
    answer = record instanceof Error ? { error: record.message } : { sfen: record.initialPosition.sfen };
  } else {
    const record = Record.newByUSI(request.export);
    if (record instanceof Error) {
      answer = { error: record.message };
    } else {
      record.goto(record.length);
      answer = { bod: exportBOD(record) };
    }
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
