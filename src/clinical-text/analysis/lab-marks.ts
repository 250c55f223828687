/**
 * What a lab result says about its own value, as printouts and clinicians write it after the number
 * (and its unit): a flag ("Hb 9.5 L", "K 6.1 (H)", "CRP 145 ↑", "TSH 7.8 (high)") or the reference
 * range of the laboratory ("K 5.4 mmol/L (ref 3.5-5.1)", "TSH 7.8 (trimester-specific ref
 * 0.1-4.0)"). The laboratory's own judgement comes before the measurement rule's deliberately wide
 * limits, as a record's reference range does for its bins (src/sources/binning/bins.ts).
 */
export interface LabMarks {
  /** The flag written, if any. */
  flag: 'high' | 'low' | null;
  /** The reference range written (in the value's written unit), if any. */
  range: [number, number] | null;
  /** Where the marks end (the span of the measurement grows to include them). */
  end: number;
}

// "H" / "L" (and doubled, critical) as written in capitals; "high" / "low" in any case but never
// part of "low-normal"; arrows. In parentheses or bare.
const FLAG = /^\s*(?:\(\s*)?(?:(HH|LL|H|L)|([Hh]igh|HIGH|[Ll]ow|LOW)|(↑|↓))(?:\s*\))?(?![\w-])/;
const NUM = String.raw`(\d+(?:\.\d+)?)`;
// A parenthesised range named as a reference ("(ref 3.5-5.1)", "(normal 0.4-4.0)", "(N 3.5-5.1)").
const RANGE = new RegExp(String.raw`^[^()\n]{0,12}?\(\s*[^()\n\d]{0,30}?\b(?:ref|reference|normal|nl|N|range|RR)\b[^()\n\d]{0,12}${NUM}\s*[-–]\s*${NUM}[^()\n]{0,20}\)`);

export function labMarks(text: string, at: number): LabMarks {
  const rest = text.slice(at, at + 80);
  const f = FLAG.exec(rest);
  if (f) {
    const word = (f[1] ?? f[2] ?? f[3])!;
    const high = word.startsWith('H') || word.toLowerCase() === 'high' || word === '↑';
    return { flag: high ? 'high' : 'low', range: null, end: at + f[0].length };
  }
  const r = RANGE.exec(rest);
  if (r) {
    const [lo, hi] = [Number(r[1]), Number(r[2])];
    if (lo < hi) return { flag: null, range: [lo, hi], end: at + r[0].length };
  }
  return { flag: null, range: null, end: at };
}
