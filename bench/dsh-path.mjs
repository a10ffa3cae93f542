// The DeepSeek Harness path over a replay file, for comparison with `loopguard replay`:
// per line, JSON.parse, deep key sort of the arguments, JSON.stringify, and a comparison with
// the agent's last key (repeat-tool-reminder's chain). Prints the events and reminders counted.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

function sortJson(v) {
  if (Array.isArray(v)) return v.map(sortJson);
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = sortJson(v[k]);
    return out;
  }
  return v;
}

const chains = new Map();
const thresholds = new Set([3, 5, 8]);
let events = 0, reminders = 0;
const rl = createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity });
for await (const line of rl) {
  if (!line) continue;
  const ev = JSON.parse(line);
  events++;
  if (ev.type === 'user') { chains.delete(ev.agent); continue; }
  if (ev.type !== 'call' || !ev.agent) continue;
  const key = ev.tool + '\u0000' + JSON.stringify(sortJson(ev.args ?? {}));
  const c = chains.get(ev.agent);
  if (c && c.key === key) c.count++; else chains.set(ev.agent, { key, count: 1 });
  if (thresholds.has(chains.get(ev.agent).count)) reminders++;
}
console.log(JSON.stringify({ events, reminders }));
