// Where things sit on the Merkator map: pure geometry, no DOM (tests/web-client/merkator-map-layout.test.mjs).
// Each location has a node; a major one also a stack of cubes. Its name plate (name and time value) goes on
// the side that collides with nothing — no other plate, node or stack — and crosses the fewest roads. The
// stack gets a fixed box (room for a full stack) so nothing moves when cubes come and go.

// Where the shipped map's locations sit (x 0–120, y 0–86). Others are placed on a circle.
export const POSITIONS = {
  newfoundland: [15, 12], england: [26, 32], dutch_republic: [46, 42], france: [36, 62], spain: [14, 72],
  italy: [64, 72], bohemia: [80, 56], hamburg: [64, 32], denmark: [50, 14], sweden: [82, 10], gdansk: [94, 36],
  russia: [105, 20],
};

export const NODE_R = 5.2; // the node with the pawn's ring around it
export const CUBE = { w: 3.2, h: 3, dx: 3.9, dy: 3.4, perRow: 3, rows: 2 };
const STACK_W = CUBE.perRow * CUBE.dx + 3.6; // three cubes and the count
const STACK_H = CUBE.rows * CUBE.dy;
export const LABEL_FONT = 3.6;
const CHAR_W = 0.62 * LABEL_FONT; // generous: bold system fonts stay inside
const PLATE_PAD = 0.9;
const LABEL_H = LABEL_FONT + 1.6;
const GAP = 0.6;

const box = (x, y, w, h) => ({ x, y, w, h });
export const intersects = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Whether the segment p–q crosses the box (Liang–Barsky clipping). */
export function segmentHitsBox([x1, y1], [x2, y2], b) {
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - b.x], [dx, b.x + b.w - x1], [-dy, y1 - b.y], [dy, b.y + b.h - y1]]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
      if (t0 > t1) return false;
    }
  }
  return true;
}

// Candidate boxes of size w×h around a node at (x, y), in order of preference: close first, then farther out.
function around(x, y, w, h, sides) {
  const out = [];
  for (const d of [NODE_R + GAP, NODE_R + GAP + 3]) {
    const at = {
      n: [x - w / 2, y - d - h], s: [x - w / 2, y + d], e: [x + d, y - h / 2], w: [x - d - w, y - h / 2],
      ne: [x + d * 0.6, y - d * 0.6 - h], nw: [x - d * 0.6 - w, y - d * 0.6 - h],
      se: [x + d * 0.6, y + d * 0.6], sw: [x - d * 0.6 - w, y + d * 0.6],
    };
    for (const side of sides) out.push({ side, ...box(at[side][0], at[side][1], w, h) });
  }
  return out;
}

/** The label's text width estimate in map units (the plate is drawn this wide): CJK characters are full width. */
export const labelWidth = (text) =>
  [...text].reduce((w, ch) => w + (ch.codePointAt(0) >= 0x2e80 ? 1.8 : 1) * CHAR_W, 0) + 2 * PLATE_PAD;

/** The plate's width for a text measured in the page's own font (`textWidth`, map units), with its padding. */
export const plateWidth = (textWidth) => textWidth + 2 * PLATE_PAD;

/**
 * The map's layout: { viewBox: {x, y, w, h}, places: Map(id → {x, y, node, stack|null, label: {x, y, w, h,
 * side, tx, ty}}) }. `locations` are {id, kind, text, textWidth?} (text: what the plate says; textWidth: its width
 * in map units as the page's font draws it, else estimated), `roads` [a, b] pairs.
 */
export function layoutMap(locations, roads) {
  const n = locations.length;
  const pos = new Map(locations.map((l, i) => [l.id, POSITIONS[l.id]
    || [60 + 48 * Math.cos((2 * Math.PI * i) / n), 43 + 30 * Math.sin((2 * Math.PI * i) / n)]]));
  const segments = roads.filter(([a, b]) => pos.has(a) && pos.has(b)).map(([a, b]) => [pos.get(a), pos.get(b)]);
  const nodes = locations.map((l) => {
    const [x, y] = pos.get(l.id);
    return box(x - NODE_R, y - NODE_R, 2 * NODE_R, 2 * NODE_R);
  });
  const crossings = (b) => segments.filter(([p, q]) => segmentHitsBox(p, q, b)).length;
  // Plates and stacks that stick out of the nodes' area make the map wider and its text smaller.
  const xs = [...pos.values()].map(([x]) => x);
  const ys = [...pos.values()].map(([, y]) => y);
  const area = box(Math.min(...xs) - 8, Math.min(...ys) - 10, Math.max(...xs) - Math.min(...xs) + 16, Math.max(...ys) - Math.min(...ys) + 20);
  const outside = (b) => Math.max(0, area.x - b.x) + Math.max(0, b.x + b.w - area.x - area.w)
    + Math.max(0, area.y - b.y) + Math.max(0, b.y + b.h - area.y - area.h);

  // Greedy: stacks first (below the node when possible), then the plates; a clash costs far more than
  // anything else. Tried in several orders of the locations; the cheapest layout wins.
  function attempt(order) {
    const taken = [...nodes];
    let total = 0;
    const choose = (candidates) => {
      let best = null;
      for (const [i, cand] of candidates.entries()) {
        const clash = taken.filter((t) => intersects(t, cand)).length;
        const cost = clash * 1000 + crossings(cand) * 3 + outside(cand) * 0.25 + i * 0.1;
        if (!best || cost < best.cost) best = { cand, cost };
      }
      taken.push(best.cand);
      total += best.cost;
      return best.cand;
    };
    const places = new Map();
    for (const l of order) {
      const [x, y] = pos.get(l.id);
      const stack = l.kind === 'major' ? choose(around(x, y, STACK_W, STACK_H, ['s', 'n', 'e', 'w', 'se', 'sw'])) : null;
      places.set(l.id, { x, y, node: box(x - NODE_R, y - NODE_R, 2 * NODE_R, 2 * NODE_R), stack });
    }
    for (const l of order) {
      const p = places.get(l.id);
      const w = Number.isFinite(l.textWidth) && l.textWidth > 0 ? plateWidth(l.textWidth) : labelWidth(l.text);
      const label = choose(around(p.x, p.y, w, LABEL_H, ['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']));
      p.label = { ...label, tx: label.x + label.w / 2, ty: label.y + LABEL_H - 1.25 };
    }
    return { places: new Map(locations.map((l) => [l.id, places.get(l.id)])), total };
  }
  const orders = [locations, [...locations].reverse()];
  for (let k = 1; k < locations.length; k++) orders.push([...locations.slice(k), ...locations.slice(0, k)]);
  let best = null;
  for (const order of orders) {
    const tried = attempt(order);
    if (!best || tried.total < best.total) best = tried;
  }
  const { places } = best;
  const all = [...places.values()].flatMap((p) => [p.node, p.stack, p.label].filter(Boolean));
  const minX = Math.min(...all.map((b) => b.x)) - 1;
  const minY = Math.min(...all.map((b) => b.y)) - 1;
  const maxX = Math.max(...all.map((b) => b.x + b.w)) + 1;
  const maxY = Math.max(...all.map((b) => b.y + b.h)) + 1;
  return { viewBox: box(minX, minY, maxX - minX, maxY - minY), places };
}
