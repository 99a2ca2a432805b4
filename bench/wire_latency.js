// Reads a pcap of the server's loopback traffic (bench/wire_latency.sh) and prints, as one JSON line, the time from
// each `act` leaving the generator to the last of its table's `events` frames of the new version leaving the
// server: the server and the kernel, without the generator's own delays. Frames are read from the start of each
// packet (WebSocket framing, client frames unmasked); only acts whose four viewers' frames were all seen count.
// Acts of the capture's first half second are left out: tcpdump's own start (its buffer, its filter) takes the
// cores for tens of milliseconds on a small machine, and the moves then in flight showed it as a server tail
// (docs/journal.md, 2026-11-27).
//   node bench/wire_latency.js <file.pcap> <server port> [viewers per table, default 4]
import fs from 'node:fs';
const [file, portArg, viewersArg] = process.argv.slice(2);
const port = Number(portArg);
const viewers = Number(viewersArg || 4);
const buf = fs.readFileSync(file);
const nano = buf.readUInt32LE(0) === 0xa1b23c4d;
const link = buf.readUInt32LE(20);
const linkHeader = { 0: 4, 1: 14, 113: 16 }[link] ?? 0; // loopback (BSD), Ethernet, Linux cooked

// The WebSocket frames that begin in one TCP payload: their text, as far as the capture holds it.
function frames(payload) {
  const out = [];
  let i = 0;
  while (i + 2 <= payload.length) {
    const b1 = payload[i + 1];
    let n = b1 & 0x7f;
    let j = i + 2;
    if (n === 126) { n = payload.readUInt16BE(j); j += 2; } else if (n === 127) { n = Number(payload.readBigUInt64BE(j)); j += 8; }
    let data = payload.subarray(j + ((b1 & 0x80) ? 4 : 0), j + ((b1 & 0x80) ? 4 : 0) + Math.min(n, 200));
    if (b1 & 0x80) {
      const key = payload.subarray(j, j + 4);
      data = Buffer.from(data.map((c, k) => c ^ key[k % 4]));
      j += 4;
    }
    out.push(data.toString('latin1'));
    i = j + n;
  }
  return out;
}

const acted = new Map(); // "table/version" of the move -> time its act left the generator
const sent = new Map();  // "table/version" -> { last, n }: the events frames of that version leaving the server
for (let off = 24; off + 16 <= buf.length;) {
  const t = buf.readUInt32LE(off) + buf.readUInt32LE(off + 4) / (nano ? 1e9 : 1e6);
  const len = buf.readUInt32LE(off + 8);
  const pkt = buf.subarray(off + 16, off + 16 + len);
  off += 16 + len;
  const ip = pkt.subarray(linkHeader);
  const tcp = ip.subarray((ip[0] & 15) * 4);
  const from = tcp.readUInt16BE(0), to = tcp.readUInt16BE(2);
  for (const text of frames(tcp.subarray((tcp[12] >> 4) * 4))) {
    const table = /"table":"([^"]+)"/.exec(text), version = /"version":(\d+)/.exec(text);
    if (!table || !version) continue;
    if (to === port && text.includes('"act"')) acted.set(`${table[1]}/${Number(version[1]) + 1}`, t);
    if (from === port && text.includes('"events"')) {
      const key = `${table[1]}/${version[1]}`;
      const s = sent.get(key) || { last: 0, n: 0 };
      s.last = Math.max(s.last, t);
      s.n += 1;
      sent.set(key, s);
    }
  }
}
let settled = Infinity;
for (const t of acted.values()) settled = Math.min(settled, t + 0.5);
const ms = [];
for (const [key, t] of acted) {
  const s = sent.get(key);
  if (t >= settled && s && s.n === viewers) ms.push((s.last - t) * 1000);
}
ms.sort((a, b) => a - b);
const at = (q) => +(ms[Math.min(ms.length - 1, Math.floor(ms.length * q))] ?? NaN).toFixed(3);
console.log(JSON.stringify({ acts: acted.size, measured: ms.length,
  wireMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99), p999: at(0.999), max: at(1) } }));
