// The differences subgraph (MedRAG eq. 14 triples) as a radial drawing: the subcategory's
// diseases on an inner ring, their most telling features and key differences on an outer
// ring, each feature placed near the mean angle of the diseases it belongs to.
import { short, svgEl } from './dom.js';

const SIZE = 780;
const PAD = 90; // room for the outer ring's labels
const C = SIZE / 2;
const R_DISEASE = 105;
const R_FEATURE = 215;
const PER_DISEASE = { HAS_KEY_DIFFERENCE: 3, HAS_MANIFESTATION: 3 };

/** Key differences read "feature: 81% in A vs 0% in B…"; the part before the figures names the feature. */
const featureLabel = (t) => (t.relation === 'HAS_KEY_DIFFERENCE' ? t.object.replace(/:\s*[\d.]+%\s+in\s[\s\S]*$/, '') : t.object);

/** Pick a readable subset: per disease its strongest key differences and manifestations. */
export function selectSubgraph(triples) {
  const diseases = new Map();
  const features = new Map();
  const edges = [];
  const bySubject = new Map();
  for (const t of triples) bySubject.set(t.subjectId ?? t.subject, [...(bySubject.get(t.subjectId ?? t.subject) ?? []), t]);
  for (const [sid, ts] of [...bySubject].slice(0, 8)) {
    diseases.set(sid, { id: sid, label: ts[0].subject });
    for (const [relation, n] of Object.entries(PER_DISEASE)) {
      // Manifestations come strongest first (the server ranks them by prevalence and lift over the
      // siblings, src/query/manifestation-strength.ts); key differences by their gap.
      const of = ts.filter((t) => t.relation === relation);
      const pick = (relation === 'HAS_KEY_DIFFERENCE' ? of.sort((a, b) => (b.weight ?? 0) - (a.weight ?? 0)) : of).slice(0, n);
      for (const t of pick) {
        const fid = t.objectId ?? t.object;
        const f = features.get(fid) ?? { id: fid, label: featureLabel(t), full: t.object, kd: false, diseases: [] };
        f.kd ||= relation === 'HAS_KEY_DIFFERENCE';
        if (!f.diseases.includes(sid)) f.diseases.push(sid);
        features.set(fid, f);
        edges.push({ from: sid, to: fid, kd: relation === 'HAS_KEY_DIFFERENCE', weight: t.weight ?? 0.5, title: `${t.subject} ${t.relation} ${t.object}` });
      }
    }
  }
  return { diseases: [...diseases.values()], features: [...features.values()], edges };
}

const polar = (r, a) => [C + r * Math.cos(a), C + r * Math.sin(a)];

function layout({ diseases, features }) {
  const pos = new Map();
  diseases.forEach((d, i) => pos.set(d.id, { a: (2 * Math.PI * i) / diseases.length - Math.PI / 2, r: R_DISEASE }));
  // Desired angle = circular mean of the feature's diseases; then equal slots in that order.
  const want = features.map((f) => {
    const [x, y] = f.diseases.reduce(([sx, sy], id) => [sx + Math.cos(pos.get(id).a), sy + Math.sin(pos.get(id).a)], [0, 0]);
    return { f, a: Math.atan2(y, x) };
  }).sort((p, q) => p.a - q.a);
  const step = (2 * Math.PI) / Math.max(1, want.length);
  const phase = Math.atan2(...want.reduce(([s, c], w, j) => [s + Math.sin(w.a - j * step), c + Math.cos(w.a - j * step)], [0, 0]));
  want.forEach((w, j) => pos.set(w.f.id, { a: phase + j * step, r: R_FEATURE }));
  return pos;
}

function label(text, a, r, cls) {
  const deg = (a * 180) / Math.PI;
  const left = Math.cos(a) < 0;
  const [x, y] = polar(r, a);
  return svgEl('text', { x, y, dy: '0.35em', class: cls, 'text-anchor': left ? 'end' : 'start', transform: `rotate(${left ? deg + 180 : deg} ${x} ${y})` }, text);
}

/** An <svg> for the triples; `top` = the disease id currently ranked first (highlighted). */
export function differencesSvg(triples, { top = null, title = 'Differences subgraph' } = {}) {
  const g = selectSubgraph(triples);
  const pos = layout(g);
  const xy = (id) => polar(pos.get(id).r, pos.get(id).a);
  const edges = g.edges.map((e) => {
    const [[x1, y1], [x2, y2]] = [xy(e.from), xy(e.to)];
    return svgEl('line', { x1, y1, x2, y2, class: e.kd ? 'edge kd' : 'edge', 'stroke-width': (1 + 2.5 * Math.max(0, e.weight)).toFixed(1) }, svgEl('title', {}, e.title));
  });
  const features = g.features.map((f) => {
    const { a, r } = pos.get(f.id);
    const [x, y] = xy(f.id);
    return svgEl('g', { class: f.kd ? 'feature kd' : 'feature' }, svgEl('title', {}, f.full), svgEl('circle', { cx: x, cy: y, r: 5 }), label(short(f.label, 30), a, r + 9));
  });
  const diseases = g.diseases.map((d) => {
    const [x, y] = xy(d.id);
    return svgEl('g', { class: d.id === top ? 'disease top' : 'disease' }, svgEl('title', {}, d.label), svgEl('circle', { cx: x, cy: y, r: 9 }),
      svgEl('text', { x, y: y + (y < C ? -14 : 22), 'text-anchor': 'middle' }, short(d.label, 24)));
  });
  const summary = `${g.diseases.length} diseases and ${g.features.length} features; dashed orange edges are key differences, green dots shared manifestations.`;
  return svgEl('svg', { viewBox: `${-PAD} ${-PAD} ${SIZE + 2 * PAD} ${SIZE + 2 * PAD}`, role: 'img', 'aria-labelledby': 'graph-title graph-desc' },
    svgEl('title', { id: 'graph-title' }, title), svgEl('desc', { id: 'graph-desc' }, summary), ...edges, ...features, ...diseases);
}
